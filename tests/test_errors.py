"""Every bad-input error is an EightOffError: the CLI and the API catch that one class."""

import pytest

from eightoff import errors
from eightoff.cards import Card, InvalidCardError
from eightoff.cli import CliError
from eightoff.codes import GameCode, InvalidGameCodeError
from eightoff.daily import DailyError
from eightoff.deal import InvalidDealError
from eightoff.errors import EightOffError
from eightoff.formats import InvalidBoardError, position_from_fcs
from eightoff.moves import IllegalMoveError, Move
from eightoff.pool import PoolError
from eightoff.position import InvalidPositionError
from eightoff.rules import InvalidRulesError, preset
from eightoff.sources import InvalidSourceError, load_source
from eightoff.store import StoreError
from eightoff.survey import InvalidRangeError, SurveyError
from eightoff.web.serve import ServeError


@pytest.mark.parametrize(
    "kind",
    [
        CliError,
        DailyError,
        IllegalMoveError,
        InvalidBoardError,
        InvalidCardError,
        InvalidDealError,
        InvalidGameCodeError,
        InvalidPositionError,
        InvalidRangeError,
        InvalidRulesError,
        InvalidSourceError,
        PoolError,
        ServeError,
        StoreError,
        SurveyError,
        *(getattr(errors, name) for name in errors.__all__ if name.endswith("Error")),
    ],
)
def test_every_bad_input_error_is_an_eightoff_error(kind: type[Exception]) -> None:
    assert issubclass(kind, EightOffError) and issubclass(kind, ValueError)


@pytest.mark.parametrize(
    "bad_input",
    [
        lambda: Card.from_text("1X"),
        lambda: Move.from_text("9z"),
        lambda: preset("klondike"),
        lambda: GameCode.parse("EO1-C3-AAAAAFA"),
        lambda: position_from_fcs("Foundations: X-9\n"),
        lambda: load_source("pysol:x"),
    ],
)
def test_engine_bad_input_raises_an_eightoff_error(bad_input: object) -> None:
    assert callable(bad_input)
    with pytest.raises(EightOffError):
        bad_input()

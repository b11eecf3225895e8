"""The difficulty levels, declared once for every face.

A winnable deal is rated by the survey from its solution length and the solver's
effort (:mod:`eightoff.survey`); the store keeps the rating, the pool draws by it,
and the web page (through ``GET /api/rules``) and the terminal game offer
:data:`DIFFICULTIES`: any rating, or one of them.
"""

from __future__ import annotations

from typing import Final, Literal, get_args

Rating = Literal["easy", "medium", "hard"]
"""A deal's rating, easiest first."""

RATINGS: Final[tuple[str, ...]] = get_args(Rating)

ANY: Final = "any"
"""The choice of no rating in particular."""

DIFFICULTIES: Final[tuple[str, ...]] = (ANY, *RATINGS)
"""The choices a New game form offers, in order."""

__all__ = ["ANY", "DIFFICULTIES", "RATINGS", "Rating"]

"""``python -m eightoff.tui [CODE] [--rules PRESET]``: play in the terminal."""

from __future__ import annotations

import argparse

from eightoff.codes import GameCode, InvalidGameCodeError
from eightoff.rules import PRESETS, InvalidRulesError, preset
from eightoff.tui import EightOffApp, make_game, start
from eightoff.tui.userdata import UserData, default_directory


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments and run the app; 2 for a bad code or preset."""
    parser = argparse.ArgumentParser(prog="python -m eightoff.tui", description=__doc__)
    parser.add_argument("code", nargs="?", help="a game code like EO1-C8-AAAAAFA")
    parser.add_argument("--rules", help=f"a preset for a new deal: {', '.join(PRESETS)}")
    args = parser.parse_args(argv)
    data = UserData(default_directory())
    try:
        code = GameCode.parse(args.code) if args.code else None
        rules = preset(args.rules) if args.rules else None
        game = make_game(code, rules, data=data)
    except (InvalidGameCodeError, InvalidRulesError, ValueError) as exc:
        parser.error(str(exc))
    start(EightOffApp(game, data=data))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

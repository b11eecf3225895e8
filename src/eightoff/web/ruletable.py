"""The rule table the page's own game service reads: ``static/local/ruletable.js``, written
from :mod:`eightoff.rules` (each option's name, default, values, words and game-code letter,
as ``GET /api/rules`` lists them under ``table``), so the page declares no rule option of its
own. After a change to the rule options, write it again::

    python -m eightoff.web.ruletable

and the tests check that the file is what this module writes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Final

from eightoff.rules import OPTIONS

MODULE: Final = Path(__file__).parent / "static" / "local" / "ruletable.js"
"""Where the page's service imports the table from."""


def table() -> list[dict[str, object]]:
    """The rule options as ``GET /api/rules`` lists them (``table``)."""
    return [option.json() for option in OPTIONS]


def module_text() -> str:
    """The ES module holding :func:`table`, as written to :data:`MODULE`."""
    rows = ",\n".join(f"  {json.dumps(row, ensure_ascii=False)}" for row in table())
    return (
        "/* The rule options as the engine declares them (eightoff.rules), in the order game\n"
        " * codes and descriptions list them: written by `python -m eightoff.web.ruletable`,\n"
        " * not by hand. */\n\n"
        f"export const TABLE = [\n{rows},\n];\n"
    )


def main() -> None:
    """Write :data:`MODULE`."""
    MODULE.write_text(module_text(), "utf-8")
    print(f"wrote {MODULE}")


if __name__ == "__main__":
    main()

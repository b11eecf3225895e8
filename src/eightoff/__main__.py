"""``python -m eightoff``: the same as the ``eightoff`` command."""

from eightoff.cli import main

raise SystemExit(main())

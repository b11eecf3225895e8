"""Draw the web game's icons (PNG) from its SVG, in Debian's chromium through Playwright.

    .venv/bin/python tools/icons.py            # writes src/eightoff/web/static/*.png

From ``static/icon.svg`` (two cards on the felt, a rounded square):

- ``icon-192.png``, ``icon-512.png``: the icon as drawn, corners transparent (purpose "any");
- ``icon-maskable-192.png``, ``icon-maskable-512.png``: the felt to every edge and the
  drawing shrunk into the middle 80 % circle, the safe zone a launcher's mask never cuts
  (purpose "maskable");
- ``apple-touch-icon.png`` (180 px): the maskable drawing (iOS rounds the corners itself
  and shows no transparency).

The manifest (``static/manifest.webmanifest``) names them; tests/test_web_shell.py checks
their sizes, tests/test_web_offline.py that the maskable ones keep their drawing inside the
safe zone.
"""

from __future__ import annotations

import argparse
import base64
import shutil
import sys
from pathlib import Path
from typing import Final

STATIC: Final = Path(__file__).resolve().parent.parent / "src" / "eightoff" / "web" / "static"
FELT: Final = "#1d6b43"  # style.css --felt: the icon's own background
SAFE: Final = 0.8
"""A maskable icon's safe zone: the circle of this share of the icon's width."""
SHRINK: Final = 0.9
"""How much smaller the drawing is in a maskable icon: its rounded square's corners
fall outside the safe zone (felt on felt), the cards (within a circle of 0.41 x its
width, icon.svg) inside it (0.41 x 0.9 < 0.4)."""

ICONS: Final = (  # file, size in px, maskable
    ("icon-192.png", 192, False),
    ("icon-512.png", 512, False),
    ("icon-maskable-192.png", 192, True),
    ("icon-maskable-512.png", 512, True),
    ("apple-touch-icon.png", 180, True),
)


def html(svg: bytes, size: int, maskable: bool) -> str:
    """A page showing ``svg`` as the icon of ``size`` px (on the felt, shrunk, if maskable)."""
    src = "data:image/svg+xml;base64," + base64.b64encode(svg).decode("ascii")
    drawn = size * SHRINK if maskable else size
    background = FELT if maskable else "transparent"
    return (
        "<!doctype html><html><body style='margin:0;background:transparent'>"
        f"<div style='width:{size}px;height:{size}px;background:{background};"
        "display:flex;align-items:center;justify-content:center'>"
        f"<img src='{src}' width='{drawn}' height='{drawn}'></div></body></html>"
    )


def draw(out: Path, chromium: str) -> list[Path]:
    """Write every icon into ``out``; their paths."""
    from playwright.sync_api import sync_playwright

    svg = (STATIC / "icon.svg").read_bytes()
    written = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            for name, size, maskable in ICONS:
                page = browser.new_page(viewport={"width": size, "height": size})
                page.set_content(html(svg, size, maskable))
                page.wait_for_function("() => document.images[0].complete")
                path = out / name
                page.screenshot(path=str(path), omit_background=not maskable)
                page.close()
                written.append(path)
        finally:
            browser.close()
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--out", type=Path, default=STATIC, help="folder to write (default: static)"
    )
    args = parser.parse_args(argv)
    chromium = shutil.which("chromium")
    if chromium is None:
        print("icons: Debian's chromium is needed (apt-get install chromium)", file=sys.stderr)
        return 2
    for path in draw(args.out, chromium):
        print(f"wrote {path} ({path.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

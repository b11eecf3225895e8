"""The page's shell for the service worker: what it keeps so that the game opens offline.

The shell is every file of the static folder (modules, styles, pictures, icons, the
manifest, the WebAssembly kernel when there is one) and the pages served from it
(``/``, ``/privacy``, the rules in each language), listed from the folder itself when
asked: a file added there is kept without anyone listing it. Its version is a hash of
every file's contents, so a change to any of them makes a new service worker, which
keeps the new shell under a new name and drops the old one.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from eightoff.web.delivery import HEAD_PART

SERVICE_WORKER: Final = "sw.js"
"""The service worker's script in the static folder (served at ``/sw.js`` by its route,
its shell written ahead of it; not kept by itself)."""
VERSION_HEADER: Final = "X-Eightoff-Shell"
"""The header naming the shell's version on every page: a page newer than the worker's
shell takes its files from the network (sw.js)."""


@dataclass(frozen=True, slots=True)
class Shell:
    """The shell of one state of the static folder."""

    version: str
    """A hash of every static file's contents."""
    urls: tuple[str, ...]
    """What the service worker keeps: the pages' addresses, then ``/static/`` files."""
    pages: Mapping[str, str]
    """Each page's path -> the address kept for it (``/rules`` -> ``/rules?lang=en``)."""
    languages: tuple[str, ...]
    """The languages of the rules page, the first the default."""
    missing: str
    """The page kept for an address of none of them (page not found)."""

    def script(self, template: str) -> str:
        """The service worker: ``template`` with this shell written ahead of it."""
        shell = {
            "version": self.version,
            "urls": list(self.urls),
            "pages": dict(self.pages),
            "languages": list(self.languages),
            "missing": self.missing,
            "header": VERSION_HEADER.lower(),
        }
        return f"const SHELL = {json.dumps(shell, indent=1)};\n\n{template}"


class ShellOf:
    """The shell of a static folder, made again whenever one of its files changes.

    ``pages`` maps each page's address to the static file it is served from (a page
    with a query, ``/rules?lang=fr``, is kept under that address and stands for the
    path without it in ``languages``' order); ``missing`` is the static file answered
    for an unknown address.
    """

    def __init__(self, static: Path, pages: Mapping[str, str], missing: str) -> None:
        self.static = static
        self.pages = dict(pages)
        self.missing = missing
        self._lock = threading.Lock()
        self._made: tuple[tuple[tuple[str, int, int], ...], Shell] | None = None  # stamp, shell

    def files(self) -> list[str]:
        """The static files, by their path in the folder (``local/game.js``), hidden
        files and folders (and Python's caches) left out."""
        return sorted(
            path.relative_to(self.static).as_posix()
            for path in self.static.rglob("*")
            if path.is_file()
            and not any(
                part.startswith(".") or part == "__pycache__"
                for part in path.relative_to(self.static).parts
            )
        )

    def __call__(self) -> Shell:
        """The shell of the folder as it is now (a few stat calls when nothing changed)."""
        files = self.files()
        stats = [(self.static / name).stat() for name in files]
        stamp = tuple((n, s.st_mtime_ns, s.st_size) for n, s in zip(files, stats, strict=True))
        with self._lock:
            if self._made is None or self._made[0] != stamp:
                self._made = (stamp, self._make(files))
            return self._made[1]

    def _make(self, files: list[str]) -> Shell:
        digest = hashlib.sha256()
        for name in files:
            body = (self.static / name).read_bytes()
            digest.update(f"{name}\0{len(body)}\0".encode())
            digest.update(body)
        served = set(self.pages.values()) | {SERVICE_WORKER, HEAD_PART}  # the head: in the pages
        kept = [f"/static/{name}" for name in files if name not in served]
        paths: dict[str, str] = {}
        languages: list[str] = []
        for address in self.pages:
            path, _, query = address.partition("?")
            paths.setdefault(path, address)
            if query.startswith("lang="):
                languages.append(query.removeprefix("lang="))
        return Shell(
            version=digest.hexdigest()[:20],
            urls=(*self.pages, *kept),
            pages=paths,
            languages=tuple(languages),
            missing=f"/static/{self.missing}",
        )


__all__ = ["SERVICE_WORKER", "VERSION_HEADER", "Shell", "ShellOf"]

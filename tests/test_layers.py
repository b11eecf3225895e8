"""Imports point one way: no circles among modules, and no layer imports one above it.

Python modules are read with :mod:`ast` (every import: top level, under
``TYPE_CHECKING`` and inside functions), the page's ES modules by their ``import``
statements. The layers, bottom up: the engine, the solver, the data (surveys, the
store, the pool...), the faces (web, terminal), the command line.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"
STATIC = SRC / "eightoff" / "web" / "static"

ENGINE = 0
SOLVER = 1
DATA = 2
FACE = 3
CLI = 4

LAYERS: Mapping[str, int] = {
    "eightoff": ENGINE,
    "eightoff._kernel": ENGINE,
    "eightoff.argtypes": ENGINE,
    "eightoff.cards": ENGINE,
    "eightoff.codes": ENGINE,
    "eightoff.deal": ENGINE,
    "eightoff.difficulty": ENGINE,
    "eightoff.errors": ENGINE,
    "eightoff.formats": ENGINE,
    "eightoff.game": ENGINE,
    "eightoff.movepack": ENGINE,
    "eightoff.moverules": ENGINE,
    "eightoff.moves": ENGINE,
    "eightoff.position": ENGINE,
    "eightoff.rules": ENGINE,
    "eightoff.sources": ENGINE,
    "eightoff.view": ENGINE,
    "eightoff.solver": SOLVER,
    "eightoff.atlas": DATA,
    "eightoff.atlaspage": DATA,
    "eightoff.daily": DATA,
    "eightoff.export": DATA,
    "eightoff.pool": DATA,
    "eightoff.report": DATA,
    "eightoff.schema": DATA,
    "eightoff.store": DATA,
    "eightoff.survey": DATA,
    "eightoff.verdicts": DATA,
    "eightoff.workers": DATA,
    "eightoff.web": FACE,
    "eightoff.tui": FACE,
    "eightoff.cli": CLI,
    "eightoff.__main__": CLI,
}
"""Each module's layer, by its name or its package's (``eightoff.solver`` covers
``eightoff.solver.core``); a new top-level module must be placed here."""


@functools.cache
def python_modules() -> dict[str, Path]:
    """Every module under src/eightoff by dotted name (``.pyi`` stubs name compiled ones)."""
    found: dict[str, Path] = {}
    for path in sorted((SRC / "eightoff").rglob("*.py*")):
        if path.suffix not in (".py", ".pyi"):
            continue
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found.setdefault(".".join(parts), path)
    return found


@functools.cache
def python_imports() -> dict[str, set[str]]:
    """Module -> the eightoff modules it imports (a name imported from a package
    counts as its submodule when it is one)."""
    modules = python_modules()
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.stem == "__init__" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, base] if base else up)
                targets = [
                    f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base
                    for a in node.names
                ]
            else:
                continue
            for target in targets:
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    graph[name].add(target)
    return graph


def js_imports() -> dict[str, set[str]]:
    """The page's module -> the modules it imports (static, re-exported or dynamic)."""
    pattern = re.compile(r"""(?:\bfrom|\bimport)\s*\(?\s*["']\./([\w-]+)\.js["']""")
    return {
        path.stem: set(pattern.findall(path.read_text(encoding="utf-8")))
        for path in sorted(STATIC.glob("*.js"))
    }


def circles(graph: Mapping[str, Iterable[str]]) -> list[set[str]]:
    """The strongly connected components of more than one node (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = set()
            while True:
                top = stack.pop()
                component.add(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(component)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def layer(module: str) -> int:
    """The layer of ``module``: its own entry in :data:`LAYERS`, else its package's."""
    name = module
    while name not in LAYERS:
        assert "." in name, f"{module} has no layer: place it in LAYERS"
        name = name.rpartition(".")[0]
    return LAYERS[name]


def test_circles_finds_a_circle_and_only_circles() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert circles(graph) == [{"a", "b", "c"}]


def test_python_imports_reads_every_form_of_import() -> None:
    graph = python_imports()
    assert "eightoff.errors" in graph["eightoff.moves"]  # from-import
    assert "eightoff.solver._native" in graph["eightoff.solver.core"]  # a compiled module
    assert "eightoff.tui.screens" in graph["eightoff.tui.app"]  # inside a method


def test_no_python_import_circles() -> None:
    assert circles(python_imports()) == []


@pytest.mark.parametrize("module", sorted(python_modules()))
def test_no_import_runs_back_up(module: str) -> None:
    graph = python_imports()
    above = sorted(t for t in graph[module] if layer(t) > layer(module))
    assert above == [], f"{module} (layer {layer(module)}) imports {above}"


def test_the_faces_do_not_import_each_other() -> None:
    graph = python_imports()
    for module, targets in graph.items():
        for face, other in (("eightoff.web", "eightoff.tui"), ("eightoff.tui", "eightoff.web")):
            if module.startswith(face):
                assert not [t for t in targets if t.startswith(other)], module


def test_the_engine_imports_only_the_engine() -> None:
    graph = python_imports()
    engine = [m for m in graph if layer(m) == ENGINE]
    assert {"eightoff.game", "eightoff.view", "eightoff.position"} <= set(engine)
    for module in engine:
        assert {layer(t) for t in graph[module]} <= {ENGINE}, module


def test_js_imports_read_the_page() -> None:
    graph = js_imports()
    assert "state" in graph["main"] and graph["state"] <= set(graph)


def test_no_page_import_circles() -> None:
    assert circles(js_imports()) == []


PAGE_LAYERS: list[set[str]] = [
    {"state"},
    {
        "api",
        "busy",
        "daily",
        "engine",
        "i18n",
        "install",
        "kernel",
        "lang",
        "layout",
        "offline",
        "page",
        "rulesets",
        "sound",
        "storage",
        "worker",
    },
    {"board", "modal", "share"},
    {"archive", "play", "solution"},
    {"dialogs", "drag", "input", "main", "sw"},
]
"""The page's modules, bottom up: the shared state; what reads it (words, layout, storage,
the server, the kernel in WebAssembly and the worker running the game service on it, the
service worker's registration); the drawing; the game's actions; input, dialogs and the entry
points (the page's, and the service worker's own script)."""


def test_the_page_imports_down_its_layers() -> None:
    graph = js_imports()
    level = {name: i for i, names in enumerate(PAGE_LAYERS) for name in names}
    assert sorted(graph) == sorted(level), "place each page module in PAGE_LAYERS"
    up = {
        name: sorted(t for t in targets if level[t] > level[name])
        for name, targets in graph.items()
    }
    assert {name: found for name, found in up.items() if found} == {}


LOCAL = STATIC / "local"
"""The game service the page's worker runs (worker.js): pure modules, for a worker and Node."""


def test_the_local_service_imports_only_itself() -> None:
    # No page module, no state, no DOM: the same modules run in a Web Worker and in Node.
    pattern = re.compile(r"""^(?:import|export)\b[^;]*?\bfrom\s+["']([^"']+)["'];""", re.M)
    found = {}
    for path in sorted(LOCAL.glob("*.js")):
        text = path.read_text(encoding="utf-8")
        outside = [t for t in pattern.findall(text) if not re.fullmatch(r"\./[\w-]+\.js", t)]
        outside += re.findall(r"\b(?:window|document|localStorage)\b|\bimport\s*\(", text)
        if outside:
            found[path.name] = outside
    assert {p.name for p in LOCAL.glob("*.js")} >= {"service.js", "codes.js", "game.js"}
    assert "./game.js" in pattern.findall((LOCAL / "service.js").read_text(encoding="utf-8"))
    assert found == {}
    page = [path.stem for path in STATIC.glob("*.js") if "./local/" in path.read_text("utf-8")]
    assert page == ["worker"], "only the worker runs the local service"


STATE_WRITE = re.compile(
    r"""\bstate\.\w+(?:\.\w+|\[[^\]]*\])*\s*(?:[-+*/%|&?]{0,3}=(?!=)|\+\+|--)"""
    r"""|(?:\+\+|--)\s*state\.\w+"""
    r"""|\bstate\.\w+(?:\.\w+)*\.(?:push|pop|shift|unshift|splice|add|delete|clear|set)\("""
)
"""An assignment to the page's shared state (``state.view =``, ``state.game.won ||=``,
``state.k++``) or a call changing one of its lists, sets or maps."""


def test_state_writes_are_read_by_the_pattern() -> None:
    written = ["state.view = v", "state.sol.k += 1", "state.n++", "--state.n", "state.held.add(el)"]
    written += ["state.settings[name] = 1", "state.x ??= 2"]
    read = ["state.view === v", "state.sol.k >= 2", "x = state.view", "state.held.has(el)"]
    assert all(STATE_WRITE.search(text) for text in written)
    assert not any(STATE_WRITE.search(text) for text in read)


def test_only_the_state_module_writes_the_shared_state() -> None:
    writers = {
        path.stem: STATE_WRITE.findall(path.read_text(encoding="utf-8"))
        for path in sorted(STATIC.glob("*.js"))
        if path.stem != "state"
    }
    assert {name: found for name, found in writers.items() if found} == {}
    assert STATE_WRITE.search((STATIC / "state.js").read_text(encoding="utf-8"))


# -- the tests themselves: shared helpers live in tests/support, fixtures in conftest.py -------

TESTS = Path(__file__).resolve().parent


def imported_test_modules(source: str, test_modules: set[str]) -> set[str]:
    """The test modules (and ``conftest``) that ``source`` imports, by any form of import."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        found |= {name.partition(".")[0] for name in names} & test_modules
    return found


def test_the_test_import_reader_sees_every_form_of_import() -> None:
    source = "import test_a\nfrom test_b import x\ndef f():\n    from conftest import y\n"
    source += "import support\nfrom support.tui import drive\nimport eightoff.test_c\n"
    assert imported_test_modules(source, {"test_a", "test_b", "test_c", "conftest"}) == {
        "test_a",
        "test_b",
        "conftest",
    }


def test_no_test_module_imports_another() -> None:
    test_modules = {path.stem for path in TESTS.glob("test_*.py")} | {"conftest"}
    importers: dict[str, list[str]] = {}
    for path in sorted([*TESTS.glob("*.py"), *(TESTS / "support").rglob("*.py")]):
        imported = imported_test_modules(path.read_text(encoding="utf-8"), test_modules)
        if imported:
            importers[str(path.relative_to(TESTS))] = sorted(imported)
    assert importers == {}, "import shared helpers from tests/support; fixtures from conftest.py"

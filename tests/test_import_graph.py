"""No import circle inside any package of pbem (issue 24, "the shape of the code").

Each package of ``pbem/`` (game, protocol, judge, ...) is a graph whose nodes
are its modules (and direct subpackages) and whose edges are the imports
between them, read with :mod:`ast` from the source: imports at the top of a
module and imports inside functions count alike, since a function-level
import that closes a circle is still a circle, only a hidden one.  A
strongly connected component of more than one node is a circle; the test
names every one.
"""

from __future__ import annotations

import ast
from pathlib import Path

PBEM = Path(__file__).resolve().parent.parent / "pbem"


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imported(node: ast.AST, here: str, is_package: bool) -> list[str]:
    """The absolute module names ``node`` imports (for ``from X import a``, both X and X.a: a may be a module)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    if node.level:
        base = here.split(".") if is_package else here.split(".")[:-1]
        base = base[: len(base) - (node.level - 1)]
        module = ".".join(base + ([node.module] if node.module else []))
    else:
        module = node.module or ""
    return [module] + [f"{module}.{alias.name}" for alias in node.names]


def import_graph(package: Path, root: Path = PBEM) -> dict[str, set[str]]:
    """Module (or subpackage) name -> the names of the same package it imports, anywhere in its source."""
    prefix = _module_name(package / "__init__.py", root) if (package / "__init__.py").exists() else \
        ".".join(package.relative_to(root.parent).parts)
    nodes = {p.stem for p in package.glob("*.py") if p.stem != "__init__"}
    nodes |= {d.name for d in package.iterdir() if d.is_dir() and (d / "__init__.py").exists()}
    graph: dict[str, set[str]] = {n: set() for n in nodes}
    for path in package.rglob("*.py"):
        rel = path.relative_to(package).parts
        if rel[0] == "__init__.py":
            continue
        owner = rel[0].removesuffix(".py")
        if owner not in graph:
            continue
        here = _module_name(path, root)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            for name in _imported(node, here, path.name == "__init__.py"):
                if name.startswith(prefix + "."):
                    target = name[len(prefix) + 1:].split(".")[0]
                    if target in graph and target != owner:
                        graph[owner].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def _packages() -> list[Path]:
    return sorted(d for d in PBEM.iterdir() if d.is_dir() and d.name != "__pycache__")


def test_no_package_of_pbem_has_an_import_circle():
    packages = _packages()
    assert {p.name for p in packages} >= {"game", "protocol", "engine", "cli"}
    circles = [f"pbem/{p.name}: import cycle among {', '.join(c)}" for p in packages for c in cycles(import_graph(p))]
    assert not circles, "\n".join(circles)


def test_no_subpackage_has_an_import_circle_and_the_game_modes_stand_apart():
    """Nested packages too (``pbem/game/modes``); and each mode is written against the seam alone: the mode
    implementations import neither each other nor what picks them (issue 24)."""
    nested = sorted(d for d in PBEM.rglob("*") if d.is_dir() and (d / "__init__.py").exists() and d.parent != PBEM and d != PBEM)
    assert PBEM / "game" / "modes" in nested
    circles = [f"{d.relative_to(PBEM.parent)}: import cycle among {', '.join(c)}" for d in nested for c in cycles(import_graph(d))]
    assert not circles, "\n".join(circles)
    modes = import_graph(PBEM / "game" / "modes")
    implementations = set(modes) - {"base"}
    assert {"referee", "two_player"} <= implementations
    assert modes["base"] == set(), "the seam imports no mode"
    for name in implementations:
        assert modes[name] <= {"base"}, f"the {name} mode imports {sorted(modes[name] - {'base'})}"


def test_the_graph_walk_finds_circles_made_by_function_level_and_relative_imports(tmp_path):
    root = tmp_path / "pkg"
    game = root / "game"
    game.mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (game / "__init__.py").write_text("")
    (game / "low.py").write_text("def f():\n    from pkg.game.high import g\n    return g\n")
    (game / "high.py").write_text("from . import mid\n")
    (game / "mid.py").write_text("from .low import f\n")
    (game / "alone.py").write_text("import pkg.game.low\nfrom pkg.other import x\n")
    assert cycles(import_graph(game, root)) == [["high", "low", "mid"]]
    (game / "low.py").write_text("def f():\n    return 1\n")
    assert cycles(import_graph(game, root)) == []

"""No import circle anywhere in pbem, and each game mode a room of its own (issues 24 and 34).

The whole package is one graph whose nodes are its modules (a package's
``__init__`` is the package's node) and whose edges are the imports between
them, read with :mod:`ast` from the source: imports at the top of a module
and imports inside functions count alike, since a function-level import
that closes a circle is still a circle, only a hidden one.  ``from P import
m`` where ``P.m`` is a module is an edge to ``P.m`` (``P`` itself runs first
as its parent, as for every import of a submodule); ``from P import name``
is an edge to ``P``.  A strongly connected component of more than one node
is a circle; the test names every one.  Each package's own graph of its
direct modules and subpackages is kept free of circles too.
"""

from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path

PBEM = Path(__file__).resolve().parent.parent / "pbem"


def _parsed(path: Path) -> ast.AST:
    """A source file's syntax tree: pbem's own parsed once per test process (every test here walks the same files),
    a test's own files (which a test rewrites) each time."""
    return _parsed_pbem(path) if path.is_relative_to(PBEM) else ast.parse(path.read_text(encoding="utf-8"), str(path))


@lru_cache(maxsize=None)
def _parsed_pbem(path: Path) -> ast.AST:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


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
        for node in ast.walk(_parsed(path)):
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


def module_graph(root: Path = PBEM) -> dict[str, set[str]]:
    """Every module of the package under ``root`` -> the modules of it that it imports, anywhere in its source
    (pbem's worked out once per test process: read it, never change it)."""
    return _pbem_graph() if root == PBEM else _module_graph(root)


@lru_cache(maxsize=None)
def _pbem_graph() -> dict[str, set[str]]:
    return _module_graph(PBEM)


def _module_graph(root: Path) -> dict[str, set[str]]:
    modules = {_module_name(path, root): path for path in root.rglob("*.py")}
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        is_package = path.name == "__init__.py"
        for node in ast.walk(_parsed(path)):
            imported = _imported(node, name, is_package)
            if isinstance(node, ast.ImportFrom) and imported:
                members = imported[1:]
                imported = [m for m in members if m in modules] + ([imported[0]] if any(m not in modules for m in members) else [])
            graph[name] |= {target for target in imported if target in modules and target != name}
    return graph


def _packages() -> list[Path]:
    return sorted(d for d in PBEM.iterdir() if d.is_dir() and d.name != "__pycache__")


def test_no_package_of_pbem_has_an_import_circle():
    packages = _packages()
    assert {p.name for p in packages} >= {"game", "protocol", "engine", "cli"}
    circles = [f"pbem/{p.name}: import cycle among {', '.join(c)}" for p in packages for c in cycles(import_graph(p))]
    assert not circles, "\n".join(circles)


def test_no_module_of_pbem_is_in_an_import_circle():
    """Over the whole package, module by module (issue 34): not only within one package."""
    graph = module_graph()
    assert {"pbem.cli", "pbem.start", "pbem.cases.load", "pbem.loading.datafiles"} <= set(graph)
    assert "pbem.collector" in graph["pbem.start"] and "pbem.cli" in graph["pbem.start"]
    circles = [" -> ".join(c) for c in cycles(graph)]
    assert not circles, "import circles:\n" + "\n".join(circles)


def test_the_whole_graph_sees_function_level_imports_across_packages(tmp_path):
    root = tmp_path / "pkg"
    (root / "a").mkdir(parents=True)
    (root / "b").mkdir()
    for init in (root, root / "a", root / "b"):
        (init / "__init__.py").write_text("")
    (root / "a" / "low.py").write_text("def f():\n    from pkg.b import high\n    return high\n")
    (root / "b" / "high.py").write_text("from pkg.a.low import f\n")
    (root / "b" / "other.py").write_text("from pkg.b import high\n")  # an edge to the module pkg.b.high, not to pkg.b
    graph = module_graph(root)
    assert graph["pkg.b.other"] == {"pkg.b.high"}
    assert cycles(graph) == [["pkg.a.low", "pkg.b.high"]]


def test_the_game_layer_keeps_only_what_every_mode_shares():
    """``pbem/game/`` holds the shared modules; a module only one mode uses lives in that mode's package, and no
    shared module reaches into a mode's package (it asks :mod:`pbem.game.modes`, the seam)."""
    graph = module_graph()
    modes = {"referee", "two_player", "blind"}
    shared = {name for name in graph if name.startswith("pbem.game.") and name.count(".") == 2 and name != "pbem.game.modes"}
    for name in sorted(shared):
        inside = sorted(t for t in graph[name] if t.startswith("pbem.game.modes."))
        assert not inside, f"{name} imports {inside}: ask the mode through pbem.game.modes instead"
    users: dict[str, set[str]] = {name: set() for name in shared}
    for name, targets in graph.items():
        for target in targets & shared:
            room = next((f"mode {m}" for m in modes if name == f"pbem.game.modes.{m}" or name.startswith(f"pbem.game.modes.{m}.")), name)
            users[target].add(room)
    single = {name: sorted(u) for name, u in users.items() if len(u) == 1 and next(iter(u)).startswith("mode ")}
    assert not single, f"shared modules only one mode uses (move each into its mode's package): {single}"


def test_at_most_five_modules_are_loose_at_the_package_root():
    loose = sorted(p.name for p in PBEM.glob("*.py"))
    assert len(loose) <= 5, loose


def test_no_subpackage_has_an_import_circle_and_the_game_modes_stand_apart():
    """Nested packages too (``pbem/game/modes``); and each mode is written against the seam alone: the mode
    implementations import neither each other nor what picks them (issue 24)."""
    nested = sorted(d for d in PBEM.rglob("*") if d.is_dir() and (d / "__init__.py").exists() and d.parent != PBEM and d != PBEM)
    assert PBEM / "game" / "modes" in nested
    circles = [f"{d.relative_to(PBEM.parent)}: import cycle among {', '.join(c)}" for d in nested for c in cycles(import_graph(d))]
    assert not circles, "\n".join(circles)
    modes = import_graph(PBEM / "game" / "modes")
    implementations = set(modes) - {"base"}
    assert implementations == {"referee", "two_player", "blind"}
    assert all((PBEM / "game" / "modes" / name / "__init__.py").is_file() for name in implementations), "each mode is a package"
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


# ---------------------------------------------------------------- the rules systems' seam (issue 39)

#: A rules system's own rooms: the SPI system's rules (pbem/engine, older than the seam) and the systems (pbem/systems).
SYSTEM_ROOMS = ("pbem.engine", "pbem.systems")

#: The SPI system's data loading, which builds its board from a map file (it is the SPI system's scenario model
#: read; pbem.systems.spi loads through it): allowed for good, not part of the shrinking list.
SPI_DATA_LOADING = {
    "pbem.loading.datafiles": "the scenario's board (pbem.engine.board.Board) built and checked as a scenario loads",
    "pbem.loading.mapcheck": "pbem map check: a map file checked with the SPI board's hexes and terrain keys",
}

_BOT = "the SPI bot (pbem/bot/): its tactics read the SPI rules; the game layer reaches it through the seam (RulesSystem.bot_orders)"
_HIDDEN = "hidden units (19B), reworked in parallel on the fog/hidden-unit branches: to move into the system they come from"
_CASES = "the conformance-case harness plays the SPI case format (docs/cases.md); another system's cases need a harness of their own"
_GRID = "hex geometry of pbem's maps (numbering, neighbours, cases.md Map): drawing, not a rule; shared by every map pbem draws today"

#: The imports of the SPI system's rooms still made directly from outside them: module -> (what it imports, why).
#: This list may only shrink: a new direct import fails the test, and so does an entry no longer needed.
STILL_DIRECT: dict[str, tuple[set[str], str]] = {
    "pbem.bot.bluff": ({"dummies", "hexes"}, _BOT),
    "pbem.bot.contact": ({"hexes", "matching"}, _BOT),
    "pbem.bot.determinize": ({"dummies", "placement"}, _BOT),
    "pbem.bot.fields": ({"board", "hexes"}, _BOT),
    "pbem.bot.greedy": ({"crt", "engagement", "hexes", "movement", "sequence", "terrain"}, _BOT),
    "pbem.bot.idleness": ({"hexes"}, _BOT),
    "pbem.bot.lines": ({"hexes", "victory"}, _BOT),
    "pbem.bot.lookahead": ({"scoring"}, _BOT),
    "pbem.bot.odds": ({"crt", "engagement", "hexes", "terrain"}, _BOT),
    "pbem.bot.orders": ({"adjudicator", "hexes", "problems"}, _BOT),
    "pbem.bot.reach": ({"hexes", "reach"}, _BOT),
    "pbem.bot.scatter": ({"engagement", "hexes"}, _BOT),
    "pbem.bot.selfplay": ({"dice", "hexes"}, _BOT),
    "pbem.bot.setup": ({"board", "deployment", "dummies", "hexes"}, _BOT),
    "pbem.bot.sight": ({"board", "hexes"}, _BOT),
    "pbem.cases.load": ({"board"}, _CASES),
    "pbem.cases.position": ({"board", "sequence"}, _CASES),
    "pbem.cases.run": ({"adjudicator", "dice", "placement", "victory"}, _CASES),
    "pbem.cases.v2": ({"board", "fog_variants", "scoring", "sequence"}, _CASES),
    "pbem.cli.cases": ({"adjudicator", "suggest", "spi.standing"},
                       "pbem orders check --position: a scenario's opening or an SPI case's position (the case harness's)"),
    "pbem.game.fog": ({"board", "exposure", "fog_variants", "hexes"}, _HIDDEN),
    "pbem.game.modes.blind.concealed_moves": ({"board", "placement", "reach"},
                                              _HIDDEN + " (Formosa 11.1's one public factor checked at once, issue 41)"),
    "pbem.game.modes.blind.exposure": ({"board", "dummies", "exposure", "hexes", "placement"}, _HIDDEN),
    "pbem.game.modes.blind.move_bound": ({"board", "dummies", "hexes", "matching", "reach", "sequence"},
                                         _HIDDEN + " (the public bound on hidden moves, issue 35: SPI movement, to be asked of the system)"),
    "pbem.game.modes.blind.setup_kinds": ({"matching"}, _HIDDEN + " (the set-up checked kind by kind, issue 35)"),
    "pbem.game.modes.blind.files": ({"deployment"}, _HIDDEN),
    "pbem.game.modes.blind.run": ({"deployment", "engagement", "hexes", "sequence"}, _HIDDEN),
    "pbem.game.modes.blind.views": ({"deployment"}, _HIDDEN),
    "pbem.game.player": ({"deployment"}, _HIDDEN + " (the Japanese set-up template, 19B.2)"),
    "pbem.game.planning": ({"adjudicator", "deployment", "hexes", "limited", "placement", "problems", "reach", "spi.standing"},
                           "the pbem play page's planner: the SPI reach, odds, set-up zone and defense choices it offers"),
    "pbem.render.layout": ({"hexes"}, _GRID),
    "pbem.render.svg": ({"hexes"}, _GRID),
    "pbem.render.terminal": ({"hexes"}, _GRID),
    "pbem.render.scene": ({"board", "events", "hexes", "terrain"}, _GRID + "; the SPI movement events and beach cost it draws"),
    "pbem.render.odds": ({"adjudicator", "board", "crt", "dice", "engagement", "fpf", "matching", "phase_state"},
                         "the odds of planned attacks (pbem show --odds, the play page): the SPI Integrated CRT and FPF"),
}


def _direct_system_imports(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """Module outside the systems' rooms -> the modules of pbem/engine (``crt``) or of a system (``spi.standing``) it imports."""
    found: dict[str, set[str]] = {}
    for name, targets in graph.items():
        if name.startswith(tuple(f"{room}." for room in SYSTEM_ROOMS)) or name in SYSTEM_ROOMS:
            continue
        inside = {t.removeprefix("pbem.engine.") for t in targets if t.startswith("pbem.engine.") or t == "pbem.engine"}
        # the registry and the seam (pbem.systems, its leaf pbem.systems.folders, pbem.systems.base) are for everyone;
        # a system's own modules are not
        inside |= {t.removeprefix("pbem.systems.") for t in targets
                   if t.startswith("pbem.systems.") and t not in ("pbem.systems.base", "pbem.systems.folders")}
        if inside:
            found[name] = inside
    return found


def test_only_a_rules_system_imports_its_rules():
    """Outside pbem/engine and pbem/systems nothing imports a rules system's modules: it asks the seam (issue 39).

    What is left is listed in STILL_DIRECT with its reason, and the list only shrinks."""
    found = _direct_system_imports(module_graph())
    for name in SPI_DATA_LOADING:
        found.pop(name, None)
    new = {name: sorted(found[name] - STILL_DIRECT.get(name, (set(), ""))[0]) for name in found}
    new = {name: targets for name, targets in new.items() if targets}
    assert not new, f"direct imports of a rules system's room (ask pbem.systems instead): {new}"
    stale = {name: sorted(listed - found.get(name, set())) for name, (listed, _) in STILL_DIRECT.items()}
    stale = {name: targets for name, targets in stale.items() if targets}
    assert not stale, f"no longer imported: take these out of STILL_DIRECT (it only shrinks): {stale}"
    assert all(why for _, why in STILL_DIRECT.values())


def test_the_seam_rule_sees_a_direct_import(tmp_path):
    root = tmp_path / "pbem"
    for folder in (root, root / "engine", root / "systems", root / "systems" / "spi", root / "game"):
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "__init__.py").write_text("")
    (root / "engine" / "crt.py").write_text("")
    (root / "systems" / "base.py").write_text("")
    (root / "systems" / "spi" / "rules.py").write_text("from pbem.engine import crt\n")
    (root / "game" / "asks.py").write_text("from pbem.systems import base\nfrom pbem.systems.base import x\n")
    (root / "game" / "peeks.py").write_text("def f():\n    from pbem.engine.crt import column\n    from pbem.systems.spi import rules\n")
    assert _direct_system_imports(module_graph(root)) == {"pbem.game.peeks": {"crt", "spi.rules"}}


def test_nothing_outside_a_rules_system_names_one():
    """No module outside pbem/systems spells a system's name: none tests which system a game is played with."""
    from pbem.systems import SHIPPED

    named = []
    for path in PBEM.rglob("*.py"):
        rel = path.relative_to(PBEM).as_posix()
        if rel.startswith("systems/"):
            continue
        for node in ast.walk(_parsed(path)):
            if isinstance(node, ast.Constant) and node.value in SHIPPED:
                named.append(f"pbem/{rel}:{node.lineno} {node.value!r}")
            if isinstance(node, (ast.Name, ast.Attribute)) and (getattr(node, "id", None) or getattr(node, "attr", None)) == "SPI":
                named.append(f"pbem/{rel}:{node.lineno} {ast.unparse(node)}")
    assert not named, "a rules system named outside pbem/systems: " + ", ".join(sorted(named))

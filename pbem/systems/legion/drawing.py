"""A Legion view as a map (the seam's ``map_scene``): the board, the counters and their markers, hex ownership, the key.

The renderers of :mod:`pbem.render` draw a :class:`~pbem.render.scene.Scene`;
this module fills one from a side's sealed view and the scenario, in the
room's own terms: a hex holds one or more terrains of the Terrain Effects
Chart (6A.1), hexsides are the chart's hex-side lines (steep, cliff), roads
join hexes (7A), a counter shows its type and size, its strengths as printed
on the side showing (9E) and its markers — Hit markers (9D.3), Disruption
(14), Reserve (6B.3), Fired (11) — and every hex its owner (5B).  Only what
the view holds is drawn: a marker the view gives without a unit (19B) is a
hidden counter.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import cached_property
from types import SimpleNamespace
from typing import Any

from pbem.engine import hexes
from pbem.render.layout import Layout, around
from pbem.render.scene import CombatMark, Counter, MapKey, Scene, Track, refuse_off_map
from pbem.systems.legion.board import LegionBoard
from pbem.systems.legion.terrain_combat import best_fire_drm, best_hex_terrain

TYPE_LETTERS = {
    "infantry": "I", "engineer": "E", "recon": "R", "tank": "A", "light-tank": "L", "amphibious-tank": "W",
    "artillery": "G", "anti-tank": "T", "heavy-aa": "Q", "hq": "H", "dummy": "D", "beachhead": "B",
}
"""The counter's letter in the terminal, by unit type (the Unit Counter Information Chart's lines)."""
SYMBOLS = {"infantry": "infantry", "engineer": "engineer", "recon": "recon", "tank": "armor", "light-tank": "armor",
           "amphibious-tank": "armor", "artillery": "artillery", "anti-tank": "artillery", "heavy-aa": "artillery"}
"""The NATO symbol the SVG draws for a unit type (a type not listed: an empty frame)."""
SIZES = {"regiment": "III", "battalion": "II", "company": "I", "platoon": "•••"}
"""3A.2: the size symbol printed above the unit symbol."""
PHASE_WORDS = {"movement": "movement and combat (4)", "combat": "combat (4)", "exploitation": "exploitation (6C)",
               "night": "Night Exploitation (6C.2)"}
"""The orders awaited, in the status line (4)."""

KEY = MapKey(
    letters={"clear": ".", "town": "T", "rough": "R", "jungle": "J", "mountain": "M", "swamp": "S", "airfield": "F"},
    fills={"clear": "#e8efd0", "town": "#d9c7a6", "rough": "#c9a974", "jungle": "#9cc48a", "mountain": "#a98a6a",
           "swamp": "#b4cdc2", "airfield": "#dcdad0", "sea": "#9cc4e4"},
    styles={"clear": "on #5faf00", "town": "on #878700", "rough": "on #875f5f", "jungle": "on #005f00",
            "mountain": "on #870000", "swamp": "on #5f8787", "airfield": "on #8a8a8a", "sea": "on #000087"},
    legend=(
        "Terrain (the hex's first; click it in --html for all, 6A.1): . clear",
        "  T town  R rough  J jungle  M mountain  S swamp  F airfield  ~ sea",
        "Hexsides: # cliff (no crossing)  ^ steep.",
        "Hexes without units: u owned by US  j owned by JP (5B)  = road (7A)",
        "  * named place  o objective hex (20)",
        "Counters: type, then attack-defense less Hit markers (9D.3): I infantry",
        "  E engineer  R recon  A tank  L light tank  W amphibious tank",
        "  G artillery  T anti-tank  Q heavy AA  H HQ  D dummy  B beachhead;",
        "  UPPER CASE = US, lower case = JP, ? = hidden unit, I+2 = and 2 more",
        "After the hex number: X combat fought  r retreat ended",
        "  z enemy zone of control (with --zoc, 5A)",
    ),
    sides={"steep": ("^", "#7b4a12")},
    owners={"US": "#2e6fd1", "JP": "#c0392b"},
)


@dataclass(frozen=True)
class LegionCounter(Counter):
    """A Legion counter as the holder sees it: type, size, strengths of the side showing, and its markers."""

    type: str | None = None
    size: str | None = None
    sp: int | None = None
    hits: int = 0
    disrupted: int = 0
    ci: bool = False
    reserve: bool = False
    fired: bool = False
    contingent: str | None = None

    @property
    def letter(self) -> str:
        return "?" if self.hidden else TYPE_LETTERS.get(self.type or "", (self.type or "?")[:1].upper())

    @property
    def kind_name(self) -> str | None:
        return "hidden" if self.hidden else self.type

    @property
    def strengths(self) -> str:
        """Attack-Defense-Movement as printed on the side showing (9E: the CI side once flipped); an artillery unit's
        B/S Strength and Range after them (3A.6)."""
        if self.hidden:
            return "?"
        text = f"{self.attack or 0}-{self.defense}-{self.move or 0}"
        return text + (f" B/S {self.barrage} R{self.range}" if self.barrage else "")

    @property
    def face(self) -> str:
        """On the counter drawn: an artillery unit's B/S Strength in place of its Attack Strength (``B4-2-2``; its
        Range in the tooltip and the lists)."""
        if self.barrage and not self.hidden:
            return f"B{self.barrage}-{self.defense}-{self.move or 0}"
        return self.strengths

    @property
    def short(self) -> str:
        """Attack and Defense Strength less the Hit markers (9D.3), in the fewest characters."""
        if self.hidden:
            return "?"
        a, d = max(0, (self.attack or 0) - self.hits), max(0, self.defense - self.hits)
        return f"{a}-{d}" if a < 10 and d < 10 else f"{a}{d}"

    @property
    def marks(self) -> str:
        """The markers on the counter, shortest first: 2H (Hit markers), D or BD (Disrupted, Badly), CI, Rsv, F (Fired)."""
        found = [f"{self.hits}H"] if self.hits else []
        found += [("D", "BD")[self.disrupted - 1]] if self.disrupted in (1, 2) else []
        found += ["CI"] if self.ci else []
        found += ["Rsv"] if self.reserve else []
        found += ["F"] if self.fired else []
        return " ".join(found)

    def _marker_words(self) -> list[str]:
        words = [f"{self.hits} Hit marker(s) (9D.3)"] if self.hits else []
        words += [("Disrupted", "Badly Disrupted")[self.disrupted - 1] + " (14)"] if self.disrupted in (1, 2) else []
        words += ["Combat Ineffective side (9E)"] if self.ci else []
        words += ["Reserve marker (6B.3)"] if self.reserve else []
        words += ["Fired (11)"] if self.fired else []
        return words

    @property
    def title(self) -> str:
        if self.hidden:
            return f"{self.id} ({self.side}): hidden unit (19B)"
        size = f" {self.size}" if self.size else ""
        words = self._marker_words()
        return f"{self.id} ({self.side}): {self.type}{size} {self.strengths}, {self.sp} SP" + (f"; {', '.join(words)}" if words else "")

    @property
    def flags(self) -> str:
        words = self._marker_words()
        return f"  {', '.join(words)}" if words else ""

    def details(self) -> dict[str, Any]:
        shown: dict[str, Any] = {"id": self.id, "side": self.side, "hex": self.hex}
        if self.hidden:
            shown["kind"] = "hidden unit (19B)"
            return shown
        shown.update(type=self.type, size=self.size, strengths=self.strengths, stacking=f"{self.sp} SP (3A.4)")
        if self.contingent:
            shown["contingent"] = self.contingent
        if self.name:
            shown["name"] = self.name
        if self._marker_words():
            shown["markers"] = "; ".join(self._marker_words())
        return shown


class DrawnBoard:
    """The Legion map answering the renderers' board questions (:class:`pbem.render.scene.DrawnBoard`): a hex is drawn
    by its first terrain, a hex-side prohibited to every unit class as no crossing, the other hex-side lines as the
    key's features; the map has no rivers, trails, beaches or entry hexes of the SPI kind."""

    rivers: frozenset = frozenset()
    trail_sides: frozenset = frozenset()
    trail_hexes: frozenset = frozenset()
    beaches: frozenset = frozenset()
    edges: frozenset = frozenset()

    def __init__(self, board: LegionBoard) -> None:
        self.legion = board
        spec = board.spec
        self.cols, self.rows = spec.cols, spec.rows
        self.sea = board.sea
        self.places = dict(spec.places)
        self.spec = SimpleNamespace(exits=(), areas={}, display=None)
        self.road_sides = frozenset(frozenset(pair) for chain in spec.roads for pair in zip(chain, chain[1:]))
        self.road_hexes = frozenset(h for chain in spec.roads for h in chain)
        tec = board.charts.terrain.terrain
        closed, features = set(), defaultdict(set)
        for side in spec.hexsides:
            pair = frozenset(side.hexes)
            if all(cost == "P" for cost in tec[side.feature].move.values()):
                closed.add(pair)
            else:
                features[side.feature].add(pair)
        self.prohibited = frozenset(closed)
        self.features = {name: frozenset(pairs) for name, pairs in features.items()}

    @cached_property
    def all_hexes(self) -> tuple[str, ...]:
        return tuple(hexes.hex_id(c, r) for c in range(1, self.cols + 1) for r in range(1, self.rows + 1))

    def on_board(self, h: str) -> bool:
        return self.legion.on_board(h)

    def neighbours(self, h: str) -> tuple[str, ...]:
        """Neighbours on the board, sea included (as the SPI board's)."""
        return tuple(n for n in hexes.neighbours(h) if self.on_board(n))

    def terrain(self, h: str) -> SimpleNamespace:
        return SimpleNamespace(name=self.legion.terrains(h)[0])

    def river_between(self, a: str, b: str) -> bool:
        return False

    def prohibited_between(self, a: str, b: str) -> bool:
        return frozenset((a, b)) in self.prohibited


class LegionScene(Scene):
    """A scene whose hex panel reads the Legion charts: every terrain of the hex, the cost to enter by unit class,
    the combat DRMs, the stacking limit and the owner (5B)."""

    def control(self, h: str) -> str:
        owner = self.owner.get(h)
        here = sorted({c.side for c in self.counters.get(h, [])})
        text = f"owned by {owner} (5B)" if owner else "owned by nobody yet (5B)"
        return text + (f"; occupied by {'/'.join(here)}" if here else "")

    def hex_info(self, h: str) -> dict[str, Any]:
        legion: LegionBoard = self.board.legion
        info: dict[str, Any] = {"hex": h, "terrain": self.terrain_name(h)}
        if h not in legion.sea:
            names = legion.terrains(h)
            info["terrain"] = " + ".join(names)
            effects = legion.effects(h)
            costs = {cls: max((e.move[cls] for e in effects), key=lambda c: 99 if c == "P" else c) for cls in effects[0].move}
            info["cost"] = "; ".join(f"{cls} {'prohibited' if c == 'P' else f'{c} MP'}" for cls, c in costs.items()) + " (6A.1)"
            assault, fire = best_hex_terrain(legion, h).assault_drm, best_fire_drm(legion, h)
            info["line"] = f"defending here: Assault DRM {assault:+d}, Fire DRM {fire:+d} (9C: the hex's best terrain)"
            if not legion.armor_effects(h):
                info["armor"] = "no Armor Bonus or Anti-tank Effects here (10A)"
        features = [f"stacking limit {legion.limit(h).sp} SP (8)"] if h not in legion.sea else []
        if h in self.board.road_hexes:
            features.append("road (7A)")
        for n in hexes.neighbours(h):
            for name in legion.side_features(h, n):
                features.append(f"{name} hex-side towards {n}")
        return self.with_what_stands(h, info | {"features": features})


def _counter(unit: dict, where: str, state: dict, sp: dict[str, int]) -> LegionCounter:
    """A view's unit entry as a counter: the side showing (9E) and its markers."""
    uid = unit["id"]
    ci = uid in set(state.get("ci", [])) or bool(unit.get("ci") is True)
    shown = unit.get("reverse") if ci and isinstance(unit.get("reverse"), dict) else unit
    return LegionCounter(
        id=uid, side=unit["side"], hex=where, kind=SYMBOLS.get(unit["type"], unit["type"]), attack=shown.get("attack", 0),
        defense=shown.get("defense"), move=shown.get("move", 0), barrage=unit.get("bs") or None, range=unit.get("range") or None,
        name=unit.get("name"), type=unit["type"], size=unit.get("size"), sp=sp.get(uid),
        hits=state.get("hits", {}).get(uid, unit.get("hits", 0)), disrupted=state.get("disrupted", {}).get(uid, unit.get("disrupted", 0)),
        ci=ci, reserve=uid in set(state.get("reserve", [])) or bool(unit.get("reserve")),
        fired=uid in set(state.get("fired", [])) or bool(unit.get("fired")), contingent=unit.get("contingent") or None,
    )


def _hidden(marker: dict, n: int) -> LegionCounter:
    """A marker the view shows without its unit (19B): a hidden counter in its hex."""
    return LegionCounter(id=f"hidden-{marker['hex']}-{n}", side=marker.get("side", "JP"), hex=marker["hex"])


def _zoc(board: LegionBoard, view: dict, enemy: str | None, counters: dict[str, list[LegionCounter]]) -> frozenset[str]:
    """The hexes the enemy's units exert a ZOC into (5A), by the room's own rule when the view is a whole position;
    else, the land next to the enemy's counters."""
    if enemy is None:
        return frozenset()
    from pbem.systems.legion.state import LegionState
    from pbem.systems.legion.table import Table

    try:
        state = LegionState.model_validate({k: v for k, v in view["state"].items() if k not in ("format", "system")})
        table = Table(board, state)
        return frozenset(h for h in board.all_land if table.zoc_of(enemy, h))
    except (ValueError, KeyError, TypeError):
        return frozenset(n for h, here in counters.items() if any(c.side == enemy for c in here) for n in board.neighbours(h))


def _combats(last: dict | None) -> list[CombatMark]:
    """Each combat of the last player-turn, marked on its target hex with its result."""
    marks = []
    for c in (last or {}).get("combats", []):
        if not c.get("target"):
            continue
        result = c.get("result") or c.get("status", "")
        text = (f"{c.get('type', 'combat')} on {c['target']}" + (f" at {c['odds']}" if c.get("odds") else "")
                + (f", die {c['die']}" if "die" in c else "") + (f": {result}" if result else ""))
        marks.append(CombatMark(c.get("index", len(marks) + 1), (), (c["target"],), result, text))
    return marks


def scene(view: dict, loaded, *, centre: str | None = None, radius: int | None = None, show_zoc: bool = False,
          show_events: bool = True, objectives: bool = True) -> LegionScene:
    """The scene of a Legion ``view`` on the scenario's map (``loaded``: its :class:`LoadedScenario`)."""
    from pbem.systems.legion.telling import last_lines

    board: LegionBoard = loaded.board
    drawn = DrawnBoard(board)
    refuse_off_map(drawn, centre)
    state = view["state"]
    position = state["position"]
    units = {u["id"]: u for u in state["units"]}
    stacking = board.charts.stacking
    values = {uid: stacking.types.get(u["type"]) or stacking.sizes.get(u.get("size")) for uid, u in units.items()}
    sp = {uid: value.sp for uid, value in values.items() if value is not None}  # 3A.4, 8: the Stacking Value Table
    counters: dict[str, list[LegionCounter]] = defaultdict(list)
    off_map, eliminated = [], []
    # a whole position lists where each unit is; a view under limited intelligence (views.py) gives each unit its hex
    locations = state.get("locations") or {uid: u.get("hex") for uid, u in units.items() if u.get("hex")}
    for uid, where in sorted(locations.items(), key=lambda item: item[0]):
        if uid not in units:
            continue
        counter = _counter(units[uid], where, state, sp)
        if where in ("eliminated", "removed"):
            eliminated.append(counter)
        elif drawn.on_board(where):
            counters[where].append(counter)
        else:
            off_map.append(counter)
    for n, marker in enumerate(state.get("markers", [])):
        if drawn.on_board(marker.get("hex", "")):
            counters[marker["hex"]].append(_hidden(marker, n))
    for here in counters.values():  # the strongest counter on top, as a player stacks them
        here.sort(key=lambda c: (c.hidden, -(c.defense or 0), c.id))
    shown = around(centre, radius, drawn.on_board) if centre else drawn.all_hexes
    holder = view["side"]
    enemy = {"US": "JP", "JP": "US"}.get(holder) or {"US": "JP", "JP": "US"}.get(view.get("awaiting") or "")
    last = view.get("last")
    events = (last or {}).get("events", [])
    pm = " (PM)" if position["turn"] in position.get("pm_turns", []) else ""
    if view["over"]:
        status = f"The game is over (Game-Turn {position['turn']})."
    else:
        status = f"Game-Turn {position['turn']}{pm}: {view['awaiting']}, {PHASE_WORDS.get(position['phase'], position['phase'])}."
    owner = dict(state.get("owner", {}))
    wanted = loaded.scenario.victory.objectives if objectives else {}
    status += f" U.S. Casualty Points {state.get('casualties', 0)}"
    if wanted:
        status += f", U.S. objectives {sum(owner.get(h) == 'US' for h in wanted.values())} of {len(wanted)}"
    status += " (20)."
    drawn_objectives = [{"hex": h, "side": "US", "name": name, "source": "20",
                         "what": "objective hex (20): counts for the U.S. player while he owns it (5B)"} for name, h in sorted(wanted.items())]
    tracks = [Track(e["type"], e["unit"], (e["from"], *e["path"]), bool(e.get("eliminated")))
              for e in events if e.get("type") in ("moved", "retreated", "advanced") and e.get("path") and e.get("from")]
    report = last_lines(last) if last else []
    return LegionScene(
        holder=holder, title=f"Turn file {view['seq']}, {holder}'s view (Legion rules)", status=status, board=drawn,
        layout=Layout(shown, "up"), counters=dict(counters), off_map=off_map, eliminated=eliminated, exited=[], enemy=enemy,
        zoc=_zoc(board, view, enemy, counters), tracks=tracks, combats=_combats(last), report=report, show_zoc=show_zoc,
        show_events=show_events, objectives=drawn_objectives, owner=owner, key=KEY, sides=drawn.features,
    )

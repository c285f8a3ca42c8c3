"""What a map of a view shows: hexes, features, counters, zones of control, last player-turn's events.

Built from the holder's view (the JSON sealed to his side) and the
scenario's board, and from nothing else: every renderer draws a
:class:`Scene`, so no drawing can show what the view does not hold.

A rules system draws its own views through the seam
(:meth:`pbem.systems.base.RulesSystem.map_scene`): the SPI system with
:func:`build_scene` below, another from its own room, filling a :class:`Scene`
with a board that answers the questions the renderers ask of one
(:class:`DrawnBoard`), counters that say what is printed on them (a
:class:`Counter`, or a subclass with the system's own markers), hex ownership
where the rules keep it, and its own :class:`MapKey` (terrain letters and
colours, hexside features, the legend).  The defaults are the SPI system's,
so its drawings are what they were.

Hidden units: a view unit without ``kind`` or strengths is drawn as a hidden
marker (``?``).  Views do not hide units yet (limited intelligence is still to
come, :mod:`pbem.game.views`); when they do, the units they leave vague become
markers here and the renderers need no change.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Protocol

from pbem.engine import hexes
from pbem.engine.board import Board
from pbem.engine.events import MOVEMENT_EVENTS, visited
from pbem.engine.hexes import Hex
from pbem.engine.terrain import BEACH_ENTRY_COST
from pbem.model.common import ELIMINATED, EXITED, NOT_ON_MAP, OFFMAP
from pbem.render.layout import Layout, around

TERRAIN_LETTERS = {"clear": ".", "town": "T", "broken": "B", "rough": "R", "mountain": "M"}
KIND_LETTERS = {
    "infantry": "I", "cavalry": "C", "engineer": "E", "recon": "R",
    "armor": "A", "artillery": "G", "airassault": "P",
}
SEA_LETTER = "~"


def terrain_letter(name: str) -> str:
    return TERRAIN_LETTERS.get(name, name[:1].upper() or "?")


class DrawnBoard(Protocol):
    """What the renderers ask of a board (the SPI :class:`~pbem.engine.board.Board` answers it as it is; another
    system's room gives an object answering the same in its own terms, with empty sets for what its maps lack)."""

    cols: int
    rows: int
    sea: frozenset[Hex]
    rivers: frozenset[frozenset[Hex]]
    prohibited: frozenset[frozenset[Hex]]
    road_sides: frozenset[frozenset[Hex]]
    road_hexes: frozenset[Hex]
    trail_sides: frozenset[frozenset[Hex]]
    trail_hexes: frozenset[Hex]
    beaches: frozenset[Hex]
    edges: frozenset[Hex]
    places: dict[str, Hex]
    spec: Any
    """``exits``, ``areas`` and ``display`` (None: north up) of the map as written."""
    all_hexes: tuple[Hex, ...]

    def on_board(self, h: Hex) -> bool: ...
    def neighbours(self, h: Hex) -> tuple[Hex, ...]: ...
    def terrain(self, h: Hex) -> Any: ...
    def river_between(self, a: Hex, b: Hex) -> bool: ...
    def prohibited_between(self, a: Hex, b: Hex) -> bool: ...


@dataclass(frozen=True)
class MapKey:
    """How a system's maps are coloured and read: what a scene without one (the SPI system's) takes from the
    renderers' own tables.  ``sides``: hexside features beyond rivers and no-crossing sides, each drawn with a
    character in the terminal and a colour in the SVG; ``legend``: the terminal's legend, each line within 76 columns."""

    letters: dict[str, str]
    fills: dict[str, str]
    styles: dict[str, str]
    legend: tuple[str, ...]
    sides: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Feature name -> (terminal character, SVG stroke colour)."""
    owners: dict[str, str] = field(default_factory=dict)
    """Side -> the colour an owned hex's rim is drawn in (SVG)."""


@dataclass(frozen=True)
class Counter:
    """A unit as the holder sees it: every field but ``id``, ``side`` and ``hex`` may be unknown."""

    id: str
    side: str
    hex: str
    kind: str | None = None
    attack: int | None = None
    defense: int | None = None
    move: int | None = None
    barrage: int | None = None
    fpf: int | None = None
    range: int | None = None
    name: str | None = None
    entry: str | None = None
    no_fpf: bool = False
    exposed: bool = False
    """One of the holder's own hidden-unit side's units that the enemy sees now (19B.3-19B.5)."""

    @property
    def hidden(self) -> bool:
        """A hidden Japanese unit's marker (kind ``hidden``, docs/hidden-units.md), or an entry without kind or strengths."""
        return self.kind is None or self.kind == "hidden" or self.defense is None

    @property
    def artillery(self) -> bool:
        return self.kind == "artillery"

    @property
    def letter(self) -> str:
        return "?" if self.hidden else KIND_LETTERS.get(self.kind, self.kind[:1].upper())

    @property
    def strengths(self) -> str:
        """As printed on the counter (3.0): ``5-5-5``, or ``3-2-6/1-4`` for artillery; ``?`` when hidden."""
        if self.hidden:
            return "?"
        if self.artillery:
            return f"{self.barrage or 0}-{self.fpf or 0}-{self.range or 0}/{self.defense}-{self.move or 0}"
        return f"{self.attack or 0}-{self.defense}-{self.move or 0}"

    @property
    def kind_name(self) -> str | None:
        """The kind the unit lists print: ``hidden`` for a marker."""
        return "hidden" if self.hidden else self.kind

    @property
    def title(self) -> str:
        """The tooltip of the counter in the SVG."""
        return (f"{self.id} ({self.side}): " + ("hidden unit" if self.hidden else f"{self.kind} {self.strengths}")
                + (" — exposed: the enemy sees it now (19B.3)" if self.exposed else ""))

    @property
    def flags(self) -> str:
        """What the terminal's unit list adds after the unit's hex."""
        return ("  no FPF this phase (8.41)" if self.no_fpf else "") + ("  exposed: the enemy sees it (19B.3)" if self.exposed else "")

    @property
    def marks(self) -> str:
        """Markers drawn under the counter's strengths in the SVG (none for an SPI counter)."""
        return ""

    @property
    def face(self) -> str:
        """The strengths the SVG prints on the counter: :attr:`strengths`, unless a system's are too long for it."""
        return self.strengths

    @property
    def short(self) -> str:
        """Combat strengths in the fewest characters: attack (barrage) and defense."""
        if self.hidden:
            return "?"
        first = self.barrage if self.artillery else self.attack
        return f"{first or 0}-{self.defense}" if (first or 0) < 10 and self.defense < 10 else f"{first or 0}{self.defense}"

    def details(self) -> dict[str, Any]:
        """What a page shows when the pointer rests on the counter."""
        shown = {"id": self.id, "side": self.side, "hex": self.hex}
        if self.hidden:
            shown["kind"] = "hidden unit"
            return shown
        shown.update(kind=self.kind, strengths=self.strengths)
        for key in ("name", "entry"):
            if getattr(self, key):
                shown[key] = getattr(self, key)
        if self.no_fpf:
            shown["note"] = "no FPF this phase (8.41)"
        if self.exposed:
            shown["seen"] = "exposed: the enemy sees this unit now (19B.3)"
        return shown


def counter_from(unit: dict[str, Any], where: str, no_fpf: bool, exposed: bool = False) -> Counter:
    """A view's unit entry as a counter; absent fields stay unknown (a hidden unit)."""
    known = {k: unit.get(k) for k in ("kind", "attack", "defense", "move", "barrage", "fpf", "range", "name", "entry")}
    return Counter(id=unit["id"], side=unit["side"], hex=where, no_fpf=no_fpf, exposed=exposed, **known)


@dataclass(frozen=True)
class Track:
    """A unit's path in the last player-turn: a move, a landing, a retreat, an advance, a displacement."""

    kind: str
    unit: str
    hexes: tuple[Hex, ...]
    """From the start hex to the last hex entered."""
    eliminated: bool = False


@dataclass(frozen=True)
class CombatMark:
    """One combat of the last player-turn, placed where it was fought."""

    index: int
    attackers: tuple[Hex, ...]
    defenders: tuple[Hex, ...]
    result: str
    """The table entry read, or ``cancelled``."""
    text: str
    eliminated: tuple[str, ...] = ()
    """Defenders eliminated in this combat although the result was a retreat (blocked, 7.7): drawn as eliminated."""

    @property
    def badge(self) -> str:
        """What the map shows on the defender's hex: what happened, not only the table entry (issue 20)."""
        if self.eliminated and self.result.startswith("D") and not self.result.startswith("DE"):
            return "elim."
        return self.result


@dataclass
class Scene:
    """Everything to draw, and nothing the view does not hold."""

    holder: str
    title: str
    status: str
    board: Board
    layout: Layout
    counters: dict[Hex, list[Counter]]
    off_map: list[Counter]
    eliminated: list[Counter]
    exited: list[Counter]
    """Units that left the map by an exit hex (16.13): listed, never drawn on a hex."""
    enemy: str | None
    zoc: frozenset[Hex]
    tracks: list[Track] = field(default_factory=list)
    combats: list[CombatMark] = field(default_factory=list)
    report: list[str] = field(default_factory=list)
    show_zoc: bool = False
    show_events: bool = True
    objectives: list[dict[str, Any]] = field(default_factory=list)
    """The scenario's objectives (15.2, 16.x) as the view's outlook lists them: hex, side, points, name."""
    owner: dict[Hex, str] = field(default_factory=dict)
    """Who owns each hex, where the rules keep hex ownership (Legion 5B); empty for the SPI system's."""
    key: MapKey | None = None
    """The system's colours and legend; None: the renderers' own (the SPI system's)."""
    sides: dict[str, frozenset[frozenset[Hex]]] = field(default_factory=dict)
    """Hexsides of the features the key's ``sides`` names, by feature."""

    @property
    def shown(self) -> tuple[Hex, ...]:
        return self.layout.shown

    @property
    def shown_set(self) -> frozenset[Hex]:
        return frozenset(self.layout.shown)

    def all_counters(self) -> list[Counter]:
        """Counters in the hexes shown, hex by hex."""
        return [c for h in self.shown for c in self.counters.get(h, [])]

    def roster(self) -> list[Counter]:
        """Every unit of the view for the unit lists: US then Japanese; on the map shown, then off it, then eliminated."""
        everyone = self.all_counters() + self.off_map + self.exited + self.eliminated
        return [c for side in ("US", "JP") for c in everyone if c.side == side]

    # -- what the map holds, hex by hex -------------------------------------------
    def terrain_name(self, h: Hex) -> str:
        return "sea" if h in self.board.sea else self.board.terrain(h).name

    def side_feature(self, a: Hex, b: Hex) -> str | None:
        """The feature the hexside between ``a`` and ``b`` is drawn with: ``prohibited``, ``river``, one of the key's, or None."""
        board = self.board
        if board.prohibited_between(a, b):
            return "prohibited"
        if board.river_between(a, b):
            return "river"
        if not self.sides:  # an SPI map: nothing more (asked for every hexside of a Leyte map, issue 26)
            return None
        pair = frozenset((a, b))
        return next((name for name, sides in self.sides.items() if pair in sides), None)

    def objectives_at(self, h: Hex) -> list[dict[str, Any]]:
        return [o for o in self.objectives if o.get("hex") == h]

    def places_at(self, h: Hex) -> list[str]:
        return sorted(name for name, where in self.board.places.items() if where == h)

    def areas_at(self, h: Hex) -> list[str]:
        return sorted(name for name, members in self.board.spec.areas.items() if h in members)

    def control(self, h: Hex) -> str:
        """Who holds a hex, as far as the view shows: occupation, then zones of control (6.11)."""
        here = {c.side for c in self.counters.get(h, [])}
        if here:
            return f"occupied by {'/'.join(sorted(here))}"
        near = sorted({c.side for n in hexes.neighbours(h) for c in self.counters.get(n, [])})
        if len(near) == 2:
            return "in both sides' zones of control"
        if near:
            return f"in the {near[0]} zone of control"
        return "nobody's"

    def hex_info(self, h: Hex) -> dict[str, Any]:
        """Terrain, costs and features of a hex, for the page's hex panel."""
        board = self.board
        info: dict[str, Any] = {"hex": h, "terrain": self.terrain_name(h)}
        if h not in board.sea:
            terrain = board.terrain(h)
            info["cost"] = f"{terrain.cost} MP to enter (5.21)"
            if h in board.beaches:
                info["cost"] += f"; landing here from the sea costs {BEACH_ENTRY_COST} MP (12.2)"
            info["line"] = f"{terrain.crt} line when defending (7.43)"
            if not terrain.armor:
                info["armor"] = "armor only along a road or trail (5.25)"
        features = []
        if h in board.road_hexes:
            features.append("road (½ MP along it, 5.22)")
        if h in board.trail_hexes:
            features.append("trail (1 MP along it)")
        rivers = [n for n in board.neighbours(h) if board.river_between(h, n)]
        if rivers:
            features.append(f"river hexside towards {', '.join(rivers)} (+{board.river_cost} MP)")
        walls = [n for n in board.neighbours(h) if board.prohibited_between(h, n)]
        if walls:
            features.append(f"no crossing towards {', '.join(walls)}")
        if h in board.beaches:
            features.append("beach (12.21)")
        if h in board.edges:
            features.append("map-edge entry hex (12.23)")
        if h in board.spec.exits:
            features.append("exit hex")
        for name in self.areas_at(h):
            features.append(f"entry area {name}")
        return self.with_what_stands(h, info | {"features": features})

    def with_what_stands(self, h: Hex, info: dict[str, Any]) -> dict[str, Any]:
        """``info`` with what every system's hex panel tells of a hex beside its rules: its places, objectives, whose
        control it is in and the counters in it."""
        info["places"] = self.places_at(h)
        info["objectives"] = [objective_text(o) for o in self.objectives_at(h)]
        info["control"] = self.control(h)
        info["units"] = [c.id for c in self.counters.get(h, [])]
        return info


def objective_text(o: dict[str, Any]) -> str:
    """``US objective, 15 VP (16.14)``: who scores it, how much, under which rule; or what the system says of it
    (``what``: a Legion objective hex scores no points of its own)."""
    rule = str(o.get("source", "")).split(" ")[0]
    name = f"{o['name']}: " if o.get("name") else ""
    if o.get("what"):
        return f"{name}{o['what']}"
    return f"{name}{o.get('side', '?')} objective, {o.get('points', '?')} VP" + (f" ({rule})" if rule else "")


def _locations_at_each_combat(events: list[dict], final: dict[str, str]) -> dict[int, dict[str, str]]:
    """Where every unit stood when each combat was fought, undoing the later events from the end."""
    where = dict(final)
    at: dict[int, dict[str, str]] = {}
    for e in reversed(events):
        kind = e["type"]
        if kind == "combat":
            at[e["index"]] = dict(where)
        elif kind in ("moved", "retreated", "advanced", "displaced"):
            where[e["unit"]] = e["from"]
        elif kind == "entered":
            where[e["unit"]] = OFFMAP
        elif kind in ("eliminated", "exited"):
            where[e["unit"]] = e["hex"]
    return at


def _tracks(events: list[dict]) -> list[Track]:
    """Every move of the last player-turn (a move, retreat or advance that stayed put draws nothing)."""
    return [
        Track(e["type"], e["unit"], tuple(visited(e)), bool(e.get("eliminated")))
        for e in events
        if e["type"] in MOVEMENT_EVENTS and (e["type"] in ("entered", "displaced") or e.get("path"))
    ]


def _combats(events: list[dict], final: dict[str, str]) -> list[CombatMark]:
    from pbem.game.narrate import describe

    at = _locations_at_each_combat(events, final)
    marks = []
    for n, e in enumerate(events):
        if e["type"] != "combat":
            continue
        lost = []
        for later in events[n + 1:]:
            if later["type"] == "combat":
                break
            if later.get("unit") in e["defenders"] and (later["type"] == "eliminated" or (later["type"] == "retreated" and later.get("eliminated"))):
                lost.append(later["unit"])
        where = at[e["index"]]
        attackers = tuple(dict.fromkeys(where[u] for u in e["attackers"] + e["barrage"] if where.get(u, OFFMAP) not in NOT_ON_MAP))
        defenders = tuple(dict.fromkeys(where[u] for u in e["defenders"] if where.get(u, OFFMAP) not in NOT_ON_MAP))
        text = describe(e) or ""
        if lost:
            text += f"; eliminated: {', '.join(dict.fromkeys(lost))}"
        marks.append(CombatMark(e["index"], attackers, defenders, e["result"], text, tuple(dict.fromkeys(lost))))
    return marks


def _report(last: dict | None) -> list[str]:
    from pbem.game.narrate import describe, telling_order

    if not last:
        return []
    verdict = "orders carried out" if last["valid"] else "orders REJECTED: nothing was applied"
    lines = [f"Last player-turn ({last['side']}): {verdict}"]
    lines += [f"rule {p['rule']}: {p['message']}" for p in last.get("problems", [])]
    lines += [text.strip() for text in map(describe, telling_order(last.get("events", []))) if text]
    return lines


def refuse_off_map(board: DrawnBoard, around: Hex | None) -> None:
    """BadInput when ``around`` (``pbem show --around``) is not a hex of ``board``."""
    from pbem.errors import BadInput

    if around is not None and not board.on_board(around):
        raise BadInput(f"--around {around} is not a hex of this {board.cols}x{board.rows} map",
                       hint=f"give a hex id CCRR from 0101 to {board.cols:02d}{board.rows:02d}")


def build_scene(
    view: dict[str, Any],
    board: Board,
    *,
    centre: Hex | None = None,
    radius: int | None = None,
    show_zoc: bool = False,
    show_events: bool = True,
    north: str | None = None,
    objectives: list[dict[str, Any]] | None = None,
) -> Scene:
    """The scene of ``view`` on ``board``: the whole map, or the hexes within ``radius`` of ``centre``.

    ``objectives``: the scenario's (15.2, 16.x), as dicts with ``hex``, ``side``, ``points``; by default
    those of the view's outlook, if it has one.
    """
    state = view["state"]
    position = state["position"]
    no_fpf = set(state.get("no_fpf", []))
    units = {u["id"]: u for u in state["units"]}
    # The Japanese player's own units the American player sees now (docs/hidden-units.md): only his view lists them.
    exposed = set((state.get("hidden") or {}).get("exposed", [])) if view["side"] == "JP" else set()
    counters: dict[Hex, list[Counter]] = defaultdict(list)
    off_map, eliminated, exited = [], [], []
    for uid, where in state["locations"].items():
        counter = counter_from(units[uid], where, uid in no_fpf, uid in exposed)
        if where == OFFMAP:
            off_map.append(counter)
        elif where == ELIMINATED:
            eliminated.append(counter)
        elif where == EXITED:
            exited.append(counter)
        elif board.on_board(where):
            counters[where].append(counter)
        else:  # a place no view names yet: listed with the units off the map, never read as a hex
            off_map.append(counter)
    shown = around(centre, radius, board.on_board) if centre else board.all_hexes
    display = board.spec.display
    layout = Layout(shown, north or (display.north if display else "up"))
    holder = view["side"]
    enemy = {"US": "JP", "JP": "US"}.get(holder) or {"US": "JP", "JP": "US"}.get(view.get("awaiting") or "")
    zoc = frozenset(
        n for h, here in counters.items() if any(c.side == enemy for c in here) for n in board.neighbours(h)
    )
    last = view.get("last")
    events = (last or {}).get("events", [])
    if view["over"]:
        status = f"The game is over (after Game-Turn {position['turn'] - 1})."
    else:
        status = f"Game-Turn {position['turn']}: {view['awaiting']} to move."
    gsp = position.get("gsp", {})
    status += f" Ground Support left: US {gsp.get('US', 0)}, JP {gsp.get('JP', 0)}."
    return Scene(
        holder=holder,
        title=f"Turn file {view['seq']}, {holder}'s view",
        status=status,
        board=board,
        layout=layout,
        counters=dict(counters),
        off_map=off_map,
        eliminated=eliminated,
        exited=exited,
        enemy=enemy,
        zoc=zoc,
        tracks=_tracks(events),
        combats=_combats(events, state["locations"]),
        report=_report(last),
        show_zoc=show_zoc,
        show_events=show_events,
        objectives=[o for o in (objectives if objectives is not None else (view.get("outlook") or {}).get("objectives", []))
                    if isinstance(o, dict) and o.get("hex")],
    )

"""The map in a terminal: hexes as two-line text cells, in colour (rich) or plain ASCII for a mail body.

Each hex is a cell five characters wide and two lines high, with one
character between cells::

    0605T     line 1: hex number and a mark (terrain letter, or an event or zone mark)
    C5-5~     line 2: the counter (or the hex's features) and its lower hexside

Cells are offset as the hexes are (:meth:`Layout.cell`), so every cell
touches exactly its neighbours' cells; the character between two cells, and
the last one of a cell's second line, draw the hexside there (``~`` river,
``#`` no crossing).  Counters show the kind letter — upper case US, lower
case Japanese, ``?`` a hidden unit — then attack (barrage) and defense.
The plain rendering is the colour one with the colours left out.
"""

from __future__ import annotations

from dataclasses import replace

from rich.text import Text

from pbem.engine import hexes
from pbem.engine.hexes import Hex
from pbem.render.layout import Layout, around
from pbem.render.scene import SEA_LETTER, Counter, Scene, terrain_letter

WIDTH, HEIGHT, GAP = 6, 2, 1
CONTENT = WIDTH - GAP

#: The widest line of ``--plain`` output: a mail body is read at 76 columns or fewer (issue 20).
PLAIN_WIDTH = 76

#: Colours of the xterm 256-colour cube, chosen so that terrains and sides stay distinct when a
#: terminal has only 256 colours (tmux) or 16 (each maps to a different one; issue 20).
TERRAIN_STYLE = {
    "clear": "on #5faf00", "town": "on #878700", "broken": "on #00875f", "rough": "on #875f5f",
    "mountain": "on #870000", "sea": "on #000087",
}
SIDE_STYLE = {"US": "bold #000000 on #5f87ff", "JP": "bold #000000 on #ff5f5f"}
MARK_STYLE = {"X": "bold #ffff00", "r": "bold #ff9f3f", "a": "bold #9fff9f", "z": "bold #ff6f6f"}
HEXSIDE_STYLE = {"~": "bold #5fafff", "#": "bold #ff5f5f"}
PLAIN_ASCII = str.maketrans({"→": ">", "—": "-", "½": "1/2", "×": "x", "–": "-", "…": "..."})

LEGEND = [  # every line within PLAIN_WIDTH
    "Terrain: . clear  T town  B broken  R rough  M mountain  ~ sea",
    "  (other terrain: its initial)",
    "Hexsides: ~ river  # no crossing.",
    "Hexes without units: = road  - trail  b beach",
    "  * named place  x exit hex  e entry hex (map edge or entry area)",
    "Counters: kind, then attack-defense (artillery: barrage-defense): I infantry",
    "  C cavalry  E engineer  R recon  A armor  G artillery  P air assault;",
    "  UPPER CASE = US, lower case = JP, ? = hidden unit,",
    "  C+2 = cavalry and 2 more",
    "After the hex number: X combat fought  r retreat ended  a advance ended",
    "  z enemy zone of control (with --zoc)",
]


def _counter_text(here: list[Counter]) -> str:
    top = here[0]
    letter = top.letter if top.side == "US" else top.letter.lower()
    if len(here) > 1:
        return f"{letter}+{len(here) - 1}"
    return (letter + top.short)[:4] if not top.hidden else letter


def _features(scene: Scene, h: Hex) -> str:
    board = scene.board
    marks = scene.owner.get(h, "")[:1].lower()  # who owns the hex, where the rules keep it (Legion 5B): u or j
    if h in board.road_hexes:
        marks += "="
    if h in board.trail_hexes:
        marks += "-"
    if h in board.beaches:
        marks += "b"
    if scene.places_at(h):
        marks += "*"
    if scene.key and scene.objectives_at(h):  # a system with its own key marks its objective hexes (the SPI map does not)
        marks += "o"
    if h in board.spec.exits:
        marks += "x"
    if h in board.edges or scene.areas_at(h):
        marks += "e"
    return marks[:4]


def _marks(scene: Scene) -> dict[Hex, str]:
    """The mark shown after a hex number: events of the last player-turn, then zones of control."""
    marks: dict[Hex, str] = {}
    if scene.show_zoc:
        for h in scene.zoc:
            if not scene.counters.get(h):
                marks[h] = "z"
    if scene.show_events:
        for t in scene.tracks:
            if t.kind in ("retreated", "advanced"):
                marks[t.hexes[-1]] = t.kind[0]
        for c in scene.combats:
            for h in c.defenders:
                marks[h] = "X"
    return marks


class _Canvas:
    """A grid of characters, each with a style."""

    def __init__(self, lines: int, width: int) -> None:
        self.chars = [[" "] * width for _ in range(lines)]
        self.styles: list[list[str | None]] = [[None] * width for _ in range(lines)]

    def put(self, line: int, col: int, text: str, style: str | None = None) -> None:
        for i, ch in enumerate(text):
            self.chars[line][col + i] = ch
            self.styles[line][col + i] = style

    def text(self) -> Text:
        """The grid as styled text, each run of one style appended once (a Leyte map has some 11,000 characters
        but a few thousand runs: fewer spans to build and to render, and a smaller escape-coded output; issue 26)."""
        out = Text()
        for n, (chars, styles) in enumerate(zip(self.chars, self.styles)):
            if n:
                out.append("\n")
            end = max((i + 1 for i, (ch, style) in enumerate(zip(chars, styles)) if ch != " " or style), default=0)
            start = 0
            while start < end:
                style, stop = styles[start], start + 1
                while stop < end and styles[stop] == style:
                    stop += 1
                out.append("".join(chars[start:stop]), style=style)
                start = stop
        out.rstrip()
        return out


def _hexside_spots(flat: bool, owner: dict, h: Hex, line: int, col: int) -> list[tuple[tuple[int, int], Hex, Hex, str | None]]:
    """The characters around a cell that draw hexsides: (where, one hex, the other, the plain boundary).

    Right of the first line: the hexside with the cell to the right.  Last
    character of the second line: the hexside with the cell below it.
    Right of the second line: flat-topped, the hexside with the cell to the
    right there; pointy-topped, whose right-hand neighbour is the same on
    both lines, the lower-left hexside of that neighbour.
    """
    right, below = (line, col + WIDTH), (line + 2, col + CONTENT - 1)
    spots = [((line, col + CONTENT), h, owner.get(right), "\\" if flat else "|"),
             ((line + 1, col + CONTENT - 1), h, owner.get(below), None)]
    if flat:
        spots.append(((line + 1, col + CONTENT), h, owner.get((line + 1, col + WIDTH)), "/"))
    else:
        spots.append(((line + 1, col + CONTENT), owner.get((line + 1, col + WIDTH)), owner.get((line + 2, col + CONTENT)), "|"))
    return spots


def map_text(scene: Scene) -> Text:
    """The map alone, as styled text."""
    layout = scene.layout
    cells = {h: layout.cell(h, WIDTH, HEIGHT) for h in scene.shown}
    lines = max(line for line, _ in cells.values()) + HEIGHT
    width = max(col for _, col in cells.values()) + WIDTH
    owner: dict[tuple[int, int], Hex] = {}
    for h, (line, col) in cells.items():
        for dl in range(HEIGHT):
            for dc in range(CONTENT):
                owner[line + dl, col + dc] = h
    canvas = _Canvas(lines, width)
    marks = _marks(scene)
    board = scene.board
    key = scene.key
    styles = key.styles if key else TERRAIN_STYLE
    for h, (line, col) in cells.items():
        terrain = scene.terrain_name(h)
        ground = styles.get(terrain, "on #404040")
        letter = key.letters.get(terrain, terrain[:1].upper() or "?") if key else terrain_letter(terrain)
        mark = marks.get(h) or (SEA_LETTER if h in board.sea else letter)
        canvas.put(line, col, h, ground)
        canvas.put(line, col + 4, mark, MARK_STYLE.get(mark, ground))
        here = scene.counters.get(h, [])
        if here:
            canvas.put(line + 1, col, _counter_text(here).ljust(4), SIDE_STYLE.get(here[0].side))
        else:
            canvas.put(line + 1, col, _features(scene, h).ljust(4), ground)
        canvas.put(line + 1, col + 4, " ", ground)
        for spot, a, b, plain in _hexside_spots(layout.flat_topped, owner, h, line, col):
            if a is None or b is None or a == b or b not in board.neighbours(a):
                continue
            feature = scene.side_feature(a, b)
            side = {"prohibited": "#", "river": "~"}.get(feature) or (key.sides[feature][0] if key and feature in key.sides else None)
            if side:
                canvas.put(*spot, side, HEXSIDE_STYLE.get(side, "bold #ffaf5f"))
            elif plain:
                canvas.put(*spot, plain, "dim")
    return canvas.text()


def _unit_lines(scene: Scene) -> list[str]:
    lines, side = [], None
    for c in scene.roster():
        if c.side != side:
            side = c.side
            lines.append(f"{side} units:")
        where = {"offmap": "off map" + (f" (enters: {c.entry})" if c.entry else ""), "exited": "left the map (16.13)"}.get(c.hex, c.hex)
        lines.append(f"  {c.id:<14} {c.kind_name:<10} {c.strengths:<12} {where}{c.flags}")
    return lines


def _place_lines(scene: Scene) -> list[str]:
    shown = scene.shown_set
    board = scene.board
    lines = []
    places = [f"{name} {h}" for name, h in sorted(board.places.items(), key=lambda p: p[1]) if h in shown]
    if places:
        lines.append("Places: " + ", ".join(places))
    for name, members in sorted(board.spec.areas.items()):
        inside = [h for h in members if h in shown]
        if inside:
            lines.append(f"Entry area {name}: {' '.join(inside)}")
    exits = [h for h in board.spec.exits if h in shown]
    if exits:
        lines.append(f"Exit hexes: {' '.join(exits)}")
    return lines


def _part(scene: Scene, shown) -> Scene:
    """The same scene drawing only the hexes ``shown``."""
    return replace(scene, layout=Layout(tuple(shown), scene.layout.north))


def map_width(scene: Scene) -> int:
    """Columns the map takes in a terminal."""
    return max(col for _, col in (scene.layout.cell(h, WIDTH, HEIGHT) for h in scene.shown)) + WIDTH


def _span(shown) -> str:
    cols = sorted({hexes.parse(h)[0] for h in shown})
    rows = sorted({hexes.parse(h)[1] for h in shown})
    return f"hex columns {cols[0]:02d}-{cols[-1]:02d}, rows {rows[0]:02d}-{rows[-1]:02d}"


def bands(scene: Scene, limit: int = PLAIN_WIDTH) -> list[tuple[str, Scene]]:
    """The map cut, left to right, into parts at most ``limit`` columns wide, each with the hexes it holds.

    A part holds whole cells: the hexes whose cells start in its range of
    screen columns (cells start on multiples of 3), drawn as a map of their own.
    """
    if map_width(scene) <= limit:
        return [("", scene)]
    step = (limit - WIDTH) // 3 * 3
    by_band: dict[int, list[Hex]] = {}
    for h in scene.shown:
        by_band.setdefault(scene.layout.cell(h, WIDTH, HEIGHT)[1] // step, []).append(h)
    parts = [sorted(by_band[b]) for b in sorted(by_band)]
    return [(f"Map, part {n} of {len(parts)} (left to right): {_span(part)}", _part(scene, part)) for n, part in enumerate(parts, 1)]


def _own_centre(scene: Scene) -> Hex | None:
    """The hex of the holder's own units nearest their middle (on the screen), or None when he has none on the map."""
    own = [h for h in scene.shown if any(c.side == scene.holder for c in scene.counters.get(h, []))]
    if not own:
        return None
    xs, ys = zip(*(scene.layout.centre(h) for h in own))
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return min(own, key=lambda h: ((scene.layout.centre(h)[0] - mx) ** 2 + (scene.layout.centre(h)[1] - my) ** 2, h))


def fit(scene: Scene, width: int) -> tuple[Scene, str | None]:
    """The part of the map around the holder's own units that fits ``width`` columns, and a line saying what is shown.

    The whole map when it fits; otherwise the largest radius around the
    middle of the holder's units (the map's middle when he has none).
    """
    whole = map_width(scene)
    if whole <= width:
        return scene, None
    centre = _own_centre(scene)
    whose = "your units"
    if centre is None:
        centre = min(scene.shown, key=lambda h: sum(abs(a - b) for a, b in zip(scene.layout.centre(h), (x / 2 for x in scene.layout.size))))
        whose = "the middle of the map"
    on_board = set(scene.shown).__contains__
    # the width only grows with the radius (a larger radius shows a superset), so the largest radius that fits
    # is found by halving, drawing some five parts instead of up to thirty (issue 26); radius 1 when none fits
    low, high = 1, 30
    while low < high:
        middle = (low + high + 1) // 2
        if map_width(_part(scene, around(centre, middle, on_board))) <= width:
            low = middle
        else:
            high = middle - 1
    radius = low
    part = _part(scene, around(centre, radius, on_board))
    note = (f"The whole map is {whole} columns wide and your terminal {width}: shown are the hexes within {radius} of "
            f"{centre} ({whose}). See the rest with --around HEX --radius N, --plain (the whole map, in parts), "
            "or --html FILE (a page to open in a browser).")
    return part, note


def render(scene: Scene, note: str | None = None) -> Text:
    """The whole screen: title, compass, map, legend, places, units and the last player-turn."""
    return _screen(scene, note, map_text(scene))


def _screen(scene: Scene, note: str | None, drawn: Text) -> Text:
    """The whole screen around the map as ``drawn``."""
    out = Text()
    out.append(f"{scene.title}\n", style="bold")
    out.append(f"{scene.status}\n")
    if note:
        out.append(f"{note}\n", style="bold")
    out.append("N ^  (north is up)\n")
    out.append_text(drawn)
    out.append("\n\n")
    extra = _place_lines(scene) + [""] + _unit_lines(scene)
    if scene.show_events and scene.report:
        extra += [""] + scene.report
    out.append("\n".join((list(scene.key.legend) if scene.key else LEGEND) + [""] + extra))
    return out


def render_plain(scene: Scene, limit: int = PLAIN_WIDTH) -> str:
    """The same screen in plain ASCII, no line wider than ``limit``: it survives an e-mail body.

    A map wider than that is cut into parts (:func:`bands`), one under the other.
    """
    parts = bands(scene, limit)
    if len(parts) > 1:  # each part drawn once, and the whole map not at all (issue 26)
        drawn = Text("\n\n".join(f"{title}\n{map_text(part).plain}" for title, part in parts))
    else:
        drawn = map_text(scene)
    text = _screen(scene, None, drawn).plain.translate(PLAIN_ASCII)
    lines = [line.rstrip() for line in text.encode("ascii", "replace").decode("ascii").splitlines()]
    return "\n".join(_wrapped(lines, limit)) + "\n"


def _wrapped(lines: list[str], limit: int) -> list[str]:
    """Lines longer than ``limit`` (a long report line) folded at a space, continued indented."""
    import textwrap

    out = []
    for line in lines:
        if len(line) <= limit:
            out.append(line)
        else:
            indent = " " * min(len(line) - len(line.lstrip()) + 2, 8)
            out += textwrap.wrap(line, width=limit, subsequent_indent=indent, break_long_words=True, break_on_hyphens=False)
    return out

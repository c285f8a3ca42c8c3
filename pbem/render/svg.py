"""The map as a standalone SVG, drawn with the standard library alone (``xml.etree``), as python-chess draws its boards.

Layers, bottom to top: terrain fills with hex numbers; beaches, entry areas,
exits and edges; rivers and prohibited hexsides on the hexsides; roads and
trails as lines through hex centres; places; enemy zones of control;
counters in the NATO style with their strengths; the last player-turn's
moves, retreats and advances as paths and its combats as arrows with their
result; a compass rose.  Every element drawn for a hex, unit or feature
carries a class and ``data-`` attributes naming it, so that the page
(:mod:`.html`) can make it live and the tests can count it.
"""

from __future__ import annotations

import math

import xml.etree.ElementTree as ET

from pbem.engine.hexes import Hex
from pbem.render.scene import Counter, Scene

RADIUS = 36
MARGIN = 28
HEADER = 34

TERRAIN_FILL = {
    "clear": "#e8efd0", "town": "#d9c7a6", "broken": "#c6d79a", "rough": "#c9a974",
    "mountain": "#a98a6a", "sea": "#9cc4e4",
}
SIDE_FILL = {"US": "#a9c8ea", "JP": "#f2b19c"}
TRACK_COLOUR = {"moved": "#1a1a1a", "entered": "#1a1a1a", "retreated": "#c0392b", "advanced": "#1e8449", "displaced": "#7d3c98"}
STYLE = """
.hex { stroke: #6b6b6b; stroke-width: 0.8; }
.hex-id { font: 9px sans-serif; fill: #444; text-anchor: middle; }
.river { stroke: #2e7ad1; stroke-width: 4; stroke-linecap: round; }
.prohibited { stroke: #b03030; stroke-width: 4; stroke-dasharray: 3 2; }
.road { stroke: #7b4a12; stroke-width: 3.2; stroke-linecap: round; }
.trail { stroke: #7b4a12; stroke-width: 1.8; stroke-dasharray: 4 3; stroke-linecap: round; }
.beach { fill: none; stroke: #e0b341; stroke-width: 3; stroke-dasharray: 2 2; }
.edge, .exit { fill: #555; }
.area-label, .place-name { font: bold 9px sans-serif; text-anchor: middle; }
.place-name { fill: #222; paint-order: stroke; stroke: #fff; stroke-width: 2.5px; }
.area-label { fill: #8a5a00; }
.place { fill: #222; }
.zoc { fill: url(#zoc-hatch); stroke: none; pointer-events: none; }
.counter rect.body { stroke: #222; stroke-width: 1; }
.counter .symbol { fill: none; stroke: #111; stroke-width: 1.1; }
.counter .strengths { font: bold 9px sans-serif; text-anchor: middle; fill: #111; }
.counter .hidden-mark { font: bold 15px sans-serif; text-anchor: middle; fill: #111; }
.objective-points { font: bold 8px sans-serif; text-anchor: middle; fill: #222; paint-order: stroke; stroke: #fff; stroke-width: 2px; }
.counter .counter-id { font: bold 8px sans-serif; text-anchor: middle; fill: #111; paint-order: stroke; stroke: #fff; stroke-width: 2.5px; display: none; }
.pbem-map.ids .counter .counter-id { display: inline; }
.counter .exposed-mark { fill: none; stroke: #f1c40f; stroke-width: 3; stroke-dasharray: 4 2; }
.track { fill: none; stroke-width: 2.2; stroke-linecap: round; stroke-linejoin: round; opacity: 0.85; }
.combat line { stroke: #d35400; stroke-width: 2.6; }
.combat text { font: bold 11px sans-serif; fill: #fff; text-anchor: middle; }
.combat rect { fill: #d35400; }
.compass text { font: bold 12px sans-serif; text-anchor: middle; }
.title { font: bold 13px sans-serif; }
.status { font: 10px sans-serif; fill: #333; }
"""


def _fmt(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _points(points) -> str:
    return " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in points)


class _Pen:
    """Scene coordinates (hex radii, from 0,0) to SVG pixels."""

    def __init__(self, scene: Scene) -> None:
        self.layout = scene.layout

    def xy(self, point: tuple[float, float]) -> tuple[float, float]:
        return MARGIN + point[0] * RADIUS, HEADER + MARGIN + point[1] * RADIUS

    def centre(self, h: Hex) -> tuple[float, float]:
        return self.xy(self.layout.centre(h))

    def corners(self, h: Hex, scale: float = 1.0) -> list[tuple[float, float]]:
        cx, cy = self.centre(h)
        return [(cx + (x - cx) * scale, cy + (y - cy) * scale) for x, y in map(self.xy, self.layout.corners(h))]


def _defs(svg: ET.Element) -> None:
    defs = ET.SubElement(svg, "defs")
    ET.SubElement(defs, "style").text = STYLE
    hatch = ET.SubElement(defs, "pattern", {"id": "zoc-hatch", "patternUnits": "userSpaceOnUse", "width": "6", "height": "6", "patternTransform": "rotate(45)"})
    # A light stripe beside the red one keeps the hatching visible on dark terrain (issue 20).
    ET.SubElement(hatch, "line", {"x1": "3", "y1": "0", "x2": "3", "y2": "6", "stroke": "#ffffff", "stroke-width": "1.2", "stroke-opacity": "0.6"})
    ET.SubElement(hatch, "line", {"x1": "0", "y1": "0", "x2": "0", "y2": "6", "stroke": "#c0392b", "stroke-width": "2.2", "stroke-opacity": "0.9"})
    for kind, colour in {**TRACK_COLOUR, "combat": "#d35400"}.items():
        marker = ET.SubElement(defs, "marker", {"id": f"arrow-{kind}", "viewBox": "0 0 10 10", "refX": "8", "refY": "5",
                                                "markerWidth": "5", "markerHeight": "5", "orient": "auto-start-reverse"})
        ET.SubElement(marker, "path", {"d": "M0,0 L10,5 L0,10 z", "fill": colour})


def _hexes(svg: ET.Element, scene: Scene, pen: _Pen) -> None:
    group = ET.SubElement(svg, "g", {"class": "hexes"})
    fills = scene.key.fills if scene.key else TERRAIN_FILL
    for h in scene.shown:
        terrain = scene.terrain_name(h)
        ET.SubElement(group, "polygon", {"class": f"hex terrain-{terrain}", "data-hex": h, "points": _points(pen.corners(h)),
                                         "fill": fills.get(terrain, "#dddddd")})
        cx, cy = pen.centre(h)
        ET.SubElement(group, "text", {"class": "hex-id", "x": _fmt(cx), "y": _fmt(cy - RADIUS * 0.6)}).text = h


def _side_lines(svg: ET.Element, scene: Scene, layer: str, kinds, ends) -> None:
    """One line per hexside of each kind with both hexes shown, from ``ends(a, b)`` in pixels."""
    shown = scene.shown_set
    group = ET.SubElement(svg, "g", {"class": layer})
    for kind, sides in kinds:
        for a, b in sorted(sorted(s) for s in sides):
            if a in shown and b in shown:
                (x1, y1), (x2, y2) = ends(a, b)
                ET.SubElement(group, "line", {"class": kind, "data-hexside": f"{a}-{b}", "x1": _fmt(x1), "y1": _fmt(y1), "x2": _fmt(x2), "y2": _fmt(y2)})


def _hexsides(svg: ET.Element, scene: Scene, pen: _Pen) -> None:
    """Rivers and prohibited hexsides, drawn on the hexside itself; then the key's own features (none for SPI maps),
    coloured in the line itself so that the style sheet every SPI map carries stays as it is."""
    kinds = (("river", scene.board.rivers), ("prohibited", scene.board.prohibited))
    _side_lines(svg, scene, "hexsides", kinds, lambda a, b: tuple(map(pen.xy, scene.layout.hexside(a, b))))
    if scene.key and scene.sides:
        own = tuple((name, sides) for name, sides in sorted(scene.sides.items()) if name in scene.key.sides)
        _side_lines(svg, scene, "hexsides features", own, lambda a, b: tuple(map(pen.xy, scene.layout.hexside(a, b))))
        for line in svg[-1]:
            line.attrib.update({"stroke": scene.key.sides[line.get("class")][1], "stroke-width": "4", "stroke-linecap": "round"})


def _ownership(svg: ET.Element, scene: Scene, pen: _Pen) -> None:
    """Who owns each hex (Legion 5B), as a rim in the owner's colour inside the hex; nothing where the rules keep no
    ownership (an SPI map has no such layer)."""
    if not scene.owner:
        return
    colours = scene.key.owners if scene.key else {}
    group = ET.SubElement(svg, "g", {"class": "ownership"})
    for h in scene.shown:
        side = scene.owner.get(h)
        if side and h not in scene.board.sea:
            mark = ET.SubElement(group, "polygon", {"class": f"owned side-{side}", "data-hex": h, "data-owner": side,
                                                    "points": _points(pen.corners(h, 0.9)), "fill": "none",
                                                    "stroke": colours.get(side, SIDE_FILL.get(side, "#888")), "stroke-width": "3",
                                                    "stroke-opacity": "0.9", "pointer-events": "none"})
            ET.SubElement(mark, "title").text = f"{h}: owned by {side}"


def _ways(svg: ET.Element, scene: Scene, pen: _Pen) -> None:
    """Roads and trails, from hex centre to hex centre across each hexside they cross."""
    kinds = (("trail", scene.board.trail_sides), ("road", scene.board.road_sides))
    _side_lines(svg, scene, "ways", kinds, lambda a, b: (pen.centre(a), pen.centre(b)))


def _entries(svg: ET.Element, scene: Scene, pen: _Pen) -> None:
    """Beaches, map-edge entry hexes, exits and named entry areas."""
    board = scene.board
    group = ET.SubElement(svg, "g", {"class": "entries"})
    for h in scene.shown:
        cx, cy = pen.centre(h)
        if h in board.beaches:
            ET.SubElement(group, "polygon", {"class": "beach", "data-hex": h, "points": _points(pen.corners(h, 0.82))})
        if h in board.edges:
            r = RADIUS * 0.12
            ET.SubElement(group, "polygon", {"class": "edge", "data-hex": h, "points": _points([(cx - RADIUS * 0.75, cy - r), (cx - RADIUS * 0.75, cy + r), (cx - RADIUS * 0.55, cy)])})
        if h in board.spec.exits:
            r = RADIUS * 0.12
            ET.SubElement(group, "polygon", {"class": "exit", "data-hex": h, "points": _points([(cx + RADIUS * 0.55, cy - r), (cx + RADIUS * 0.55, cy + r), (cx + RADIUS * 0.75, cy)])})
        areas = scene.areas_at(h)
        if areas:
            ET.SubElement(group, "text", {"class": "area-label", "data-hex": h, "x": _fmt(cx), "y": _fmt(cy + RADIUS * 0.75)}).text = "/".join(areas)


Box = tuple[float, float, float, float]
"""A label's extent in pixels: left, top, right, bottom."""


def _text_box(x: float, baseline: float, text: str, size: float) -> Box:
    """The extent of centred text, with a pixel to spare (sans-serif, bold: about 0.68 of the font size a character)."""
    half = len(text) * size * 0.35 + 1
    return x - half, baseline - size - 1, x + half, baseline + size * 0.25 + 1


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _label_spots(scene: Scene, pen: _Pen) -> list[Box]:
    """What a place name must not cover: every hex number shown, the counters and the combat results' badges."""
    spots = [_text_box(*(lambda c: (c[0], c[1] - RADIUS * 0.6))(pen.centre(h)), h, 9) for h in scene.shown]
    for h in scene.shown:
        if scene.counters.get(h):
            cx, cy = pen.centre(h)
            spots.append((cx - RADIUS * 0.6, cy - RADIUS * 0.42, cx + RADIUS * 0.6, cy + RADIUS * 0.58))
    for c in scene.combats if scene.show_events else []:
        if c.defenders and c.defenders[0] in scene.shown_set:
            tx, ty = pen.centre(c.defenders[0])
            spots.append((tx - 15, ty - RADIUS * 0.95, tx + 15, ty - RADIUS * 0.95 + 14))
    return spots


def _place_label(cx: float, cy: float, name: str, taken: list[Box]) -> tuple[float, float, str] | None:
    """Where a place name goes, and as what: under its mark, else a little lower, higher or aside, whichever
    covers nothing; a long name that fits nowhere is shortened; one that still fits nowhere (a crowded hex) is
    not written, rather than written over hex numbers and counters: its mark's title and the hex panel keep it
    (issue 20)."""
    import re

    tries = [(0, 0.86), (0, 1.16), (0, 0.56), (-0.5, 0.86), (0.5, 0.86), (0, 1.46), (0, 0.26)]
    tries += [(dx, dy) for dy in (0.86, 1.16, 0.56, 1.46, -0.2, -0.95) for dx in (-0.9, 0.9, -1.3, 1.3)]
    tries += [(dx, dy) for dy in (1.76, -1.3, 2.06) for dx in (0, -0.9, 0.9, -1.8, 1.8)]
    short = re.sub(r"\s*\(.*?\)", "", name)
    texts = list(dict.fromkeys([name, short, short.replace(" airfield", " af."), short.replace(" airfield", "")]))
    # Only what lies near the mark can be covered: every box any try could take, bounded once, filters the rest
    # (a Leyte map has thousands of hex numbers; the same spot is chosen, in a fraction of the time).
    reach = _text_box(cx, cy, max(texts, key=len), 9)
    dxs, dys = [dx for dx, _ in tries], [dy for _, dy in tries]
    bound = (reach[0] + min(dxs) * RADIUS, reach[1] + min(dys) * RADIUS, reach[2] + max(dxs) * RADIUS, reach[3] + max(dys) * RADIUS)
    near = [other for other in taken if _overlaps(bound, other)]
    for text in texts:
        for dx, dy in tries:
            x, y = cx + dx * RADIUS, cy + dy * RADIUS
            box = _text_box(x, y, text, 9)
            if not any(_overlaps(box, other) for other in near):
                taken.append(box)
                return x, y, text
    return None


def _places(svg: ET.Element, scene: Scene, pen: _Pen) -> None:
    shown = scene.shown_set
    group = ET.SubElement(svg, "g", {"class": "places"})
    taken = _label_spots(scene, pen)
    for name, h in sorted(scene.board.places.items(), key=lambda p: (p[1], p[0])):
        if h not in shown:
            continue
        cx, cy = pen.centre(h)
        mark = ET.SubElement(group, "g", {"class": "place", "data-place": name, "data-hex": h})
        if "airfield" in name.lower():
            ET.SubElement(mark, "path", {"d": f"M{_fmt(cx - 9)},{_fmt(cy - RADIUS * 0.32)} h18 M{_fmt(cx)},{_fmt(cy - RADIUS * 0.32 - 6)} v12",
                                         "stroke": "#222", "stroke-width": "2.5"})
        else:
            ET.SubElement(mark, "circle", {"cx": _fmt(cx), "cy": _fmt(cy - RADIUS * 0.32), "r": "3.5"})
        label = _place_label(cx, cy, name, taken)
        ET.SubElement(mark, "title").text = name
        if label is not None:
            x, y, text = label
            ET.SubElement(mark, "text", {"class": "place-name", "x": _fmt(x), "y": _fmt(y)}).text = text
    _objectives(svg, scene, pen)


def _objectives(svg: ET.Element, scene: Scene, pen: _Pen) -> None:
    """A star in each objective hex (15.2, 16.x), coloured by the side that scores it, with its points."""
    from pbem.render.scene import objective_text

    shown = scene.shown_set
    group = ET.SubElement(svg, "g", {"class": "objectives"})
    for o in scene.objectives:
        h = o["hex"]
        if h not in shown:
            continue
        cx, cy = pen.centre(h)
        x, y = cx + RADIUS * 0.58, cy - RADIUS * 0.42
        mark = ET.SubElement(group, "g", {"class": f"objective side-{o.get('side', '')}", "data-hex": h, "data-side": str(o.get("side", ""))})
        ET.SubElement(mark, "title").text = f"{h}: {objective_text(o)}"
        points = []
        for k in range(10):
            r = 7 if k % 2 == 0 else 3
            a = math.radians(-90 + 36 * k)
            points.append((x + r * math.cos(a), y + r * math.sin(a)))
        ET.SubElement(mark, "polygon", {"points": _points(points), "fill": SIDE_FILL.get(o.get("side"), "#f1c40f"), "stroke": "#222", "stroke-width": "1"})
        ET.SubElement(mark, "text", {"class": "objective-points", "x": _fmt(x), "y": _fmt(y + 16)}).text = str(o.get("points", ""))


def _zoc(svg: ET.Element, scene: Scene, pen: _Pen) -> None:
    group = ET.SubElement(svg, "g", {"class": "zoc-layer", "data-side": scene.enemy or ""})
    if not scene.show_zoc:
        group.set("display", "none")
    for h in scene.shown:
        if h in scene.zoc and h not in scene.board.sea:
            ET.SubElement(group, "polygon", {"class": "zoc", "data-hex": h, "points": _points(pen.corners(h, 0.96))})


def _symbol(group: ET.Element, kind: str | None, x: float, y: float, w: float, h: float) -> None:
    """The NATO unit symbol in a ``w`` by ``h`` frame at ``x,y``."""
    frame = ET.SubElement(group, "rect", {"class": "symbol", "x": _fmt(x), "y": _fmt(y), "width": _fmt(w), "height": _fmt(h)})
    frame.set("data-kind", kind or "hidden")
    cross = f"M{_fmt(x)},{_fmt(y)} L{_fmt(x + w)},{_fmt(y + h)} M{_fmt(x)},{_fmt(y + h)} L{_fmt(x + w)},{_fmt(y)}"
    if kind in ("infantry", "airassault"):
        ET.SubElement(group, "path", {"class": "symbol", "d": cross})
        if kind == "airassault":
            ET.SubElement(group, "path", {"class": "symbol", "d": f"M{_fmt(x + w * 0.3)},{_fmt(y + h * 0.85)} q{_fmt(w * 0.2)},{_fmt(-h * 0.3)} {_fmt(w * 0.4)},0"})
    elif kind in ("cavalry", "recon"):
        ET.SubElement(group, "path", {"class": "symbol", "d": f"M{_fmt(x)},{_fmt(y + h)} L{_fmt(x + w)},{_fmt(y)}"})
    elif kind == "armor":
        ET.SubElement(group, "rect", {"class": "symbol", "x": _fmt(x + w * 0.2), "y": _fmt(y + h * 0.25), "width": _fmt(w * 0.6),
                                      "height": _fmt(h * 0.5), "rx": _fmt(h * 0.25)})
    elif kind == "artillery":
        ET.SubElement(group, "circle", {"cx": _fmt(x + w / 2), "cy": _fmt(y + h / 2), "r": _fmt(h * 0.18), "fill": "#111"})
    elif kind == "engineer":
        ET.SubElement(group, "path", {"class": "symbol", "d": f"M{_fmt(x + w * 0.25)},{_fmt(y + h * 0.7)} v{_fmt(-h * 0.35)} h{_fmt(w * 0.5)} v{_fmt(h * 0.35)} "
                                                            f"M{_fmt(x + w * 0.5)},{_fmt(y + h * 0.35)} v{_fmt(h * 0.35)}"})


def _counter(parent: ET.Element, c: Counter, cx: float, cy: float) -> None:
    w, h = RADIUS * 1.05, RADIUS * 0.9
    group = ET.SubElement(parent, "g", {"class": f"counter side-{c.side}", "data-unit": c.id, "data-hex": c.hex})
    ET.SubElement(group, "title").text = c.title
    ET.SubElement(group, "rect", {"class": "body", "x": _fmt(cx - w / 2), "y": _fmt(cy - h / 2), "width": _fmt(w), "height": _fmt(h),
                                  "rx": "2", "fill": SIDE_FILL.get(c.side, "#ddd")})
    if c.exposed:  # the enemy sees it now: an eye-yellow frame (issue 20)
        group.set("class", group.get("class") + " exposed")
        ET.SubElement(group, "rect", {"class": "exposed-mark", "x": _fmt(cx - w / 2 - 2), "y": _fmt(cy - h / 2 - 2), "width": _fmt(w + 4),
                                      "height": _fmt(h + 4), "rx": "3"})
    if c.hidden:
        ET.SubElement(group, "text", {"class": "hidden-mark", "x": _fmt(cx), "y": _fmt(cy + 5)}).text = "?"
        return
    ET.SubElement(group, "text", {"class": "counter-id", "x": _fmt(cx), "y": _fmt(cy - h / 2 - 2)}).text = c.id  # a marker has no id to show
    _symbol(group, c.kind, cx - w * 0.3, cy - h * 0.4, w * 0.6, h * 0.42)
    ET.SubElement(group, "text", {"class": "strengths", "x": _fmt(cx), "y": _fmt(cy + h * 0.38)}).text = c.face
    if c.marks:  # a system's markers on the counter (Legion: Hit markers, Disruption, CI side), in a red tag below it
        tag = ET.SubElement(group, "g", {"class": "markers"})
        width = len(c.marks) * 5.4 + 4
        ET.SubElement(tag, "rect", {"x": _fmt(cx - width / 2), "y": _fmt(cy + h / 2 - 1), "width": _fmt(width), "height": "10",
                                    "rx": "2", "fill": "#c0392b"})
        ET.SubElement(tag, "text", {"x": _fmt(cx), "y": _fmt(cy + h / 2 + 7), "fill": "#fff", "text-anchor": "middle",
                                    "font-size": "8", "font-weight": "bold", "font-family": "sans-serif"}).text = c.marks


def _counters(svg: ET.Element, scene: Scene, pen: _Pen) -> None:
    group = ET.SubElement(svg, "g", {"class": "counters"})
    for h in scene.shown:
        here = scene.counters.get(h, [])
        cx, cy = pen.centre(h)
        step = RADIUS * 0.14
        for i, c in enumerate(reversed(here)):  # the first unit listed lies on top
            back = len(here) - 1 - i
            _counter(group, c, cx + back * step - (len(here) - 1) * step / 2, cy + RADIUS * 0.08 - back * step + (len(here) - 1) * step / 2)


def _events(svg: ET.Element, scene: Scene, pen: _Pen) -> None:
    group = ET.SubElement(svg, "g", {"class": "events-layer"})
    if not scene.show_events:
        group.set("display", "none")
    shown = scene.shown_set
    for n, t in enumerate(scene.tracks):
        points = [pen.centre(h) for h in t.hexes if h in shown]
        if len(points) < 2:
            continue
        wobble = (n % 3 - 1) * 3  # paths sharing hexes stay apart
        ET.SubElement(group, "polyline", {"class": f"track {t.kind}", "data-unit": t.unit, "data-kind": t.kind,
                                          "points": _points((x + wobble, y + wobble) for x, y in points), "stroke": TRACK_COLOUR[t.kind],
                                          "marker-end": f"url(#arrow-{t.kind})"})
    for c in scene.combats:
        if not c.defenders or c.defenders[0] not in shown:
            continue
        mark = ET.SubElement(group, "g", {"class": "combat", "data-combat": str(c.index), "data-result": c.result})
        ET.SubElement(mark, "title").text = c.text
        tx, ty = pen.centre(c.defenders[0])
        for a in c.attackers:
            if a in shown and a != c.defenders[0]:
                ax, ay = pen.centre(a)
                ET.SubElement(mark, "line", {"x1": _fmt(ax), "y1": _fmt(ay), "x2": _fmt(ax + (tx - ax) * 0.7), "y2": _fmt(ay + (ty - ay) * 0.7),
                                             "marker-end": "url(#arrow-combat)"})
        ET.SubElement(mark, "rect", {"x": _fmt(tx - 15), "y": _fmt(ty - RADIUS * 0.95), "width": "30", "height": "14", "rx": "3"})
        if c.badge != c.result:
            mark.set("data-outcome", "eliminated")
        ET.SubElement(mark, "text", {"x": _fmt(tx), "y": _fmt(ty - RADIUS * 0.95 + 11)}).text = c.badge


def _compass(svg: ET.Element, width: float) -> None:
    x, y = width - MARGIN - 4, HEADER + 6
    group = ET.SubElement(svg, "g", {"class": "compass"})
    ET.SubElement(group, "path", {"d": f"M{_fmt(x)},{_fmt(y)} l6,18 l-6,-5 l-6,5 z", "fill": "#222"})
    ET.SubElement(group, "text", {"x": _fmt(x), "y": _fmt(y - 3)}).text = "N"


def build_svg(scene: Scene) -> ET.Element:
    """The scene as an ``<svg>`` element."""
    pen = _Pen(scene)
    w, h = scene.layout.size
    width, height = 2 * MARGIN + w * RADIUS, HEADER + 2 * MARGIN + h * RADIUS
    svg = ET.Element("svg", {"xmlns": "http://www.w3.org/2000/svg", "version": "1.1", "class": "pbem-map",
                             "viewBox": f"0 0 {_fmt(width)} {_fmt(height)}", "width": _fmt(width), "height": _fmt(height)})
    _defs(svg)
    ET.SubElement(svg, "rect", {"x": "0", "y": "0", "width": _fmt(width), "height": _fmt(height), "fill": "#fbfaf5"})
    ET.SubElement(svg, "text", {"class": "title", "x": str(MARGIN), "y": "20"}).text = scene.title
    ET.SubElement(svg, "text", {"class": "status", "x": str(MARGIN), "y": "34"}).text = scene.status
    for layer in (_hexes, _ownership, _entries, _hexsides, _ways, _places, _zoc, _counters, _events):
        layer(svg, scene, pen)
    _compass(svg, width)
    return svg


def render_svg(scene: Scene) -> str:
    """The scene as a standalone SVG document."""
    return ET.tostring(build_svg(scene), encoding="unicode") + "\n"

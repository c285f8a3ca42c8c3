"""Derive scenarios/leyte/map.json, the reconstructed map of northern Leyte.

The Leyte rule text gives the grid, the beach areas, Ormoc, the exit hexes
and every set-up hex, but no hex-by-hex terrain; the rest is drawn here from
the island's real geography (docs/leyte-map.md).  The JSON file is the
source of truth: a player holding the printed sheet corrects the JSON and
runs ``pbem map check``.  This script only shows how the first version was
derived, and re-derives it if one prefers to edit the drawing below:

    python scenarios/leyte/tools/make_map.py scenarios/leyte/map.json

Geometry: hex ``XXYY``; ``XX`` grows from the southern edge to the northern,
``YY`` from the western edge to the eastern (engine column = ``XX``, engine
row = ``YY``, cases.md).  Seen with north up, hexrow ``XX`` is a line of
hexes running west to east and even hexrows sit half a hex further east.
"""

from __future__ import annotations

import json
import math
import os
import sys
from pathlib import Path

from pbem.engine import hexes

COLS, ROWS = 29, 32

# North up: first line hexrow 29 (north edge), last hexrow 01 (south edge);
# each line is YY 01 (west edge) .. 32 (east edge).
#   ~ sea   . clear   b broken   r rough   m mountain   t town
#   S Samar across San Juanico Strait (rough; prohibited hexsides cut it off)
DRAWING = """
29  r r ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ . . . . b r r r r r b b b b S S S S
28   r r r ~ ~ ~ ~ t . . t . . t . . . b r r r r r b b b b b ~ S S S
27  r r r r t . . . . . . . . . . . b b b r r r b b b . t . ~ ~ ~ ~
26   r r r r r r r r b b . . . . . . . . b b b . . . . . . . ~ ~ ~ ~
25  r r r b r r r m m m r r . . . . . . b b b . . . . . . . ~ ~ ~ ~
24   r r . . t r m m m m m r r b . . . . . . b b . . . . . . ~ ~ ~ ~
23  r r . . . b r m m m m r r b . . . . . t . . . . . . . . . ~ ~ ~
22   b . . . . . r m m m m m r b t . . . . . . . . . . . t . . ~ ~ ~
21  b . . . . . r r m m m m m r r b b . . . . . . . . . . . . ~ ~ ~
20   b . . . . . r r m m m m m m r r b b b b b b b b b b . . . . ~ ~
19  r b . t . b r r m m m m m m m r r b b b b b b b b b . . t . ~ ~
18   r b . . . . b r r m m m m m m r r r b b b b b b b b . . . . ~ ~
17  r b . . . . b r r m m m m m m m r r r r r b b b b b . . . . . ~
16   r b . . . . b r r m m m m m m m m r r r r b b b b b . . . . t ~
15  r b . . . . b r r m m m m m m m m r r r r b b t b b . . . . . ~
14   r b . . t . b b r r m m m m m m m r r r r b b b b b . r r . . ~
13  r b . . . . . b b r m m m m m m m r r r r r b b b b . r r . . .
12   r b . . . . . b b r m m m m m m m r r r r r b b b b . . . . . .
11  r b . . . . b b r r m m m m m m m r r r r r b b b . . . . . . .
10   r r . . . . b b r r m m m m m m m r r r r r t . . b . . . . t .
09  r r . . . . b b b r r m m m m m m r r r r b b b b b . . . . . ~
08   r r b . . . . t . b r m m m m m r r r r r b . b b b b b . . . ~
07  r r b . . ~ ~ ~ . b b r r m m m m m m r r r r b b b b b . . . ~
06   r b . . ~ ~ ~ ~ ~ . b b r r r r m m m m m r r b b b b b . . . ~
05  r b . ~ ~ ~ ~ ~ ~ ~ . . . . b b r m m m m m r r b b b b . . . ~
04   r . . ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ . b b r r m m m m r r b b b . . . ~
03  r . . ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ t b b r r r m m m m r r b b . . . ~
02   r . . ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ . . b r r m m m m m r r b . . . . ~
01  r . . ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ . . b r r m m m m m r r b . . . . ~
"""
CODES = {".": "clear", "b": "broken", "r": "rough", "m": "mountain", "t": "town", "S": "rough"}

PLACES = {
    "Tacloban": "2727", "Tacloban airfield": "2728", "Palo": "2227", "Tanauan": "1929", "Tolosa": "1631",
    "Dulag": "1031", "Dulag airfield": "0930", "Burauen": "1023", "Burauen airfield (Buri)": "1024",
    "Burauen airfield (San Pablo)": "1025", "Burauen airfield (Bayug)": "1126", "Dagami": "1524",
    "Alangalang": "2320", "Jaro": "2215", "Carigara": "2811", "Barugo": "2814", "Capoocan": "2808",
    "Pinamopoan": "2705", "Breakneck Ridge": "2604", "Limon": "2405", "Kananga": "1904", "Valencia": "1405",
    "Ormoc": "0808", "Albuera": "0315", "Catmon Hill": "1328",
}

# Chains through these waypoints; the hexes between two waypoints are the
# straight hex line joining them.
ROADS = [
    # Highway 1, the east coast road: south edge - Dulag - Tanauan - Palo - Tacloban
    ["0131", "0531", "0730", "0930", "1031", "1131", "1231", "1331", "1431", "1531", "1631", "1730", "1929", "2128",
     "2227", "2327", "2427", "2527", "2627", "2727"],
    ["2727", "2728"],  # Tacloban airfield
    ["2627", "2628"],  # White Beach (N)
    ["2427", "2428"],  # Red Beach (N)
    ["1031", "1032"],  # Dulag beaches (E)
    ["1231", "1232"],
    ["2727", "2826", "2925"],  # north from Tacloban, off the map toward Babatngon (exit 2925)
    # Highway 2: Palo - Jaro - Carigara - Pinamopoan - Breakneck Ridge - Limon - Ormoc valley - Ormoc - Albuera - south edge
    ["2227", "2323", "2320", "2215", "2413", "2612", "2811", "2808", "2707", "2706", "2705", "2605", "2505", "2405", "2305",
     "2104", "1904", "1605", "1405", "1206", "1007", "0808", "0709", "0610", "0511", "0514", "0415", "0315", "0216", "0116"],
    ["2811", "2814", "2918"],  # the north coast road east of Carigara through Barugo
    # Leyte Valley: Dulag - Burauen airfields - Burauen - Dagami - Tanauan, and Dagami - Santa Fe
    ["1031", "1025", "1024", "1023", "1524", "1727", "1929"],
    ["1025", "1126"],
    ["1524", "1722", "2023", "2323"],
    ["1405", "1401"],  # Valencia - Palompon, off the western edge
]
TRAILS = [
    ["1023", "0920", "0718", "0516", "0315"],  # Burauen - Albuera, over the mountains
    ["1524", "1420", "1215", "1110", "1007"],  # Dagami - Ormoc valley
    ["2215", "2312", "2209", "2206", "2305"],  # Jaro - Limon
    ["2808", "2609", "2410", "2211", "2011", "1812", "1514", "1216", "0918", "0920"],  # along the central range
    ["2705", "2603", "2402", "2301"],  # Pinamopoan - Kilay Ridge - west edge
    ["0808", "0805", "0701"],  # Ormoc - west edge round the bay
    ["1904", "1901"],  # Kananga - west edge
]
# Rivers as lines through these points; every hexside the line runs along
# (between two land hexes whose centres it separates) is a river hexside.
RIVERS = {
    "Palo": ["2117", "2220", "2122", "2224", "2126", "2229", "2231"],
    "Binahaan": ["1917", "1820", "1722", "1825", "1727", "1829", "1831"],
    "Daguitan": ["0820", "0923", "0925", "0827", "0929", "0932"],
    "Carigara (Mainit)": ["2414", "2513", "2612", "2712", "2812", "2912"],
    "Anilao": ["1508", "1207", "0907", "0706"],
}

SOURCE = (
    "assumed: reconstructed from the Leyte rule text (12.2, 16.x, 17.2) and the real geography of northern Leyte; "
    "the rule text gives no hex-by-hex terrain. A player holding the printed SPI 1975 map sheet should correct "
    "this file from it and run 'pbem map check'."
)
NOTES = {
    "given": "From the rule text, not assumed: the 29 x 32 grid, the beach areas N, E, S (12.2), Ormoc 0808 (12.2), "
             "the exit hexes 2925 and 0531 (16.13), the objective hexes 2215, 2312, 2918 (16.14), and that every set-up "
             "hex of 16.12, 16.21, 16.22, 16.31 and 16.32 is land.",
    "coastline": "assumed: coast drawn from the real shape of northern Leyte at about 2 km a hex: Carigara Bay along the "
                 "northern edge west of YY 15, Leyte Gulf along the eastern side, Ormoc Bay in the south-west with Ormoc at "
                 "its head. Sea hexes are all-sea only; any hex with some land stays land.",
    "strait": "assumed: the land in the north-eastern corner is Samar, across San Juanico Strait; the strait is narrower "
              "than a hex, so it is drawn as prohibited hexsides, and Samar is in no entry area.",
    "mountains": "assumed: the central range as mountain with rough foothills, running from Breakneck Ridge and the hills "
                 "south of Carigara south-east to the mountains west of Burauen; rough hills west of the Ormoc valley and "
                 "in the lobe east of Carigara Bay; Catmon Hill rough; broken ground at the foot of the hills.",
    "lowlands": "assumed: the lower Leyte Valley between Dagami, Burauen, Tanauan and Dulag is broken (rice paddies "
                "and swamp), so that units off the roads move slowly, as the notes of 17.2 expect; the northern valley "
                "(Jaro - Alangalang - Tacloban), the coastal strip, the airfields, the Carigara plain and the Ormoc valley "
                "floor are clear.",
    "roads": "assumed: Highway 1 along the east coast (south edge - Dulag - Tanauan - Palo - Tacloban), Highway 2 "
             "(Palo - Jaro - Carigara - Pinamopoan - Limon - Ormoc - Albuera), the north coast road through Barugo, "
             "Tacloban north to exit 2925, the Leyte Valley roads (Dulag - Burauen - Dagami - Tanauan, Dagami - Santa Fe), "
             "Valencia - Palompon off the western edge, and short spurs to the beaches and airfields.",
    "trails": "assumed: Burauen - Albuera and Dagami - Ormoc valley over the mountains, Jaro - Limon through 2312, a trail "
              "along the central range from Capoocan to the Burauen - Albuera trail, and trails off the western edge "
              "from Pinamopoan, Kananga and Ormoc.",
    "rivers": "assumed: the Palo, Binahaan and Daguitan rivers across the Leyte Valley, the Carigara (Mainit) river to "
              "Carigara Bay and the Anilao river down the Ormoc valley to Ormoc Bay; smaller streams left out.",
    "towns": "assumed: town hexes at the real positions of Tacloban, Palo, Tanauan, Tolosa, Dulag, Burauen, Dagami, "
             "Alangalang, Jaro, Carigara, Barugo, Capoocan, Pinamopoan, Limon, Kananga, Valencia, Ormoc (0808, given) "
             "and Albuera.",
    "airfields": "assumed: the airfields of 16.14 are the American objectives of 1944: Tacloban, Dulag and the three "
                 "Burauen strips (Buri, San Pablo, Bayug). The Japanese Valencia strip in the Ormoc valley is not "
                 "marked as an airfield. Every place whose name contains 'airfield' is an airfield hex.",
    "exit-0531": "0531 is four hexrows north of the southern edge in this geometry, though 16.13 calls it the hex a unit "
                 "leaves the southern edge from; it is kept as the text gives it, on the east coast road.",
    "ormoc-entry": "assumed: a Japanese reinforcement entering at Ormoc (area Or, 0808) pays the hex's own terrain cost, "
                   "as at a map edge (12.23); 12.2 names Ormoc as an entry but gives no cost, and 0808 is no beach hex, "
                   "so 12.21's two Movement Points do not apply",
}


def drawing() -> dict[str, str]:
    """Hex -> code letter, from DRAWING; checks every hexrow has 32 hexes."""
    codes = {}
    lines = [line.split() for line in DRAWING.strip().splitlines()]
    assert [int(line[0]) for line in lines] == list(range(COLS, 0, -1)), "hexrows 29..01, one a line"
    for line in lines:
        xx, cells = int(line[0]), line[1:]
        assert len(cells) == ROWS, f"hexrow {xx:02d} has {len(cells)} hexes"
        for yy, code in enumerate(cells, start=1):
            codes[hexes.hex_id(xx, yy)] = code
    return codes


def centre(hex_id: str) -> tuple[float, float]:
    """Position with north up, in hex widths: x east, y north."""
    xx, yy = hexes.parse(hex_id)
    return yy + (0.5 if xx % 2 == 0 else 0.0), xx * math.sqrt(3) / 2


def line(a: str, b: str) -> list[str]:
    """The hexes of a straight hex line from a to b (cube rounding, nudged off ties)."""
    qa, sa = hexes.to_axial(*hexes.parse(a))
    qb, sb = hexes.to_axial(*hexes.parse(b))
    n = hexes.distance(a, b)
    result = []
    for i in range(n + 1):
        t = i / n if n else 0.0
        q = qa + (qb - qa) * t + 1e-6
        s = sa + (sb - sa) * t + 2e-6
        x, z = q, s
        y = -x - z
        rx, ry, rz = round(x), round(y), round(z)
        dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
        if dx > dy and dx > dz:
            rx = -ry - rz
        elif dy > dz:
            ry = -rx - rz
        else:
            rz = -rx - ry
        result.append(hexes.hex_id(*hexes.from_axial(rx, rz)))
    return result


def chain(waypoints: list[str]) -> list[str]:
    hexes_ = [waypoints[0]]
    for a, b in zip(waypoints, waypoints[1:]):
        hexes_ += line(a, b)[1:]
    return hexes_


def _crosses(p1, p2, p3, p4) -> bool:
    def side(a, b, c):
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    return side(p1, p2, p3) * side(p1, p2, p4) < 0 and side(p3, p4, p1) * side(p3, p4, p2) < 0


def river_sides(waypoints: list[str], land: set[str]) -> list[list[str]]:
    """Hexsides between land hexes whose centres the river line separates."""
    nudge = (0.21, 0.13)  # keeps the line off hex centres
    points = [(x + nudge[0], y + nudge[1]) for x, y in map(centre, waypoints)]
    sides = set()
    for h in land:
        for n in hexes.neighbours(h):
            if n in land and h < n:
                if any(_crosses(centre(h), centre(n), p, q) for p, q in zip(points, points[1:])):
                    sides.add((h, n))
    return [list(pair) for pair in sorted(sides)]


def build() -> dict:
    codes = drawing()
    sea = sorted(h for h, c in codes.items() if c == "~")
    samar = {h for h, c in codes.items() if c == "S"}
    land = {h for h, c in codes.items() if c != "~"}
    leyte = land - samar
    terrain = {h: CODES[c] for h, c in sorted(codes.items()) if c != "~" and CODES[c] != "clear"}
    prohibited = sorted([a, b] for a in sorted(leyte) for b in hexes.neighbours(a) if b in samar)
    areas = {
        "N": ["2428", "2528", "2628"],
        "E": ["1332", "1232", "1132", "1032"],
        "S": ["0610", "0511", "0512", "0513", "0514"],
        "Or": ["0808"],
        "0001": [hexes.hex_id(xx, 1) for xx in range(1, COLS + 1) if hexes.hex_id(xx, 1) in leyte],
        "0100": [hexes.hex_id(1, yy) for yy in range(1, ROWS + 1) if hexes.hex_id(1, yy) in leyte],
        "2900": [hexes.hex_id(COLS, yy) for yy in range(1, ROWS + 1) if hexes.hex_id(COLS, yy) in leyte],
    }
    beaches = areas["N"] + areas["E"] + areas["S"]
    edges = sorted(set(areas["0001"]) | set(areas["0100"]) | set(areas["2900"]))
    for field, chains in (("roads", ROADS), ("trails", TRAILS)):
        for waypoints in chains:
            wet = [h for h in chain(waypoints) if h not in leyte]
            assert not wet, f"{field} {waypoints[0]}-{waypoints[-1]} leaves the land of Leyte at {wet}"
    rivers = sorted({tuple(pair) for wp in RIVERS.values() for pair in river_sides(wp, leyte)})
    return {
        "cols": COLS,
        "rows": ROWS,
        "display": {"north": "right"},
        "source": SOURCE,
        "notes": NOTES,
        "terrain": terrain,
        "sea": sea,
        "rivers": [list(pair) for pair in rivers],
        "roads": [chain(wp) for wp in ROADS],
        "trails": [chain(wp) for wp in TRAILS],
        "prohibited": prohibited,
        "beaches": beaches,
        "edges": edges,
        "areas": areas,
        "exits": ["2925", "0531"],
        "places": dict(sorted(PLACES.items(), key=lambda item: (item[1], item[0]))),
    }


def _pack(items: list[str], width: int = 110) -> list[str]:
    """Rendered items joined with ", " into lines no longer than ``width`` (after a 4-space indent)."""
    lines, current = [], []
    for item in items:
        if current and 4 + len(", ".join(current + [item])) + 1 > width:
            lines.append(", ".join(current))
            current = []
        current.append(item)
    return lines + [", ".join(current)]


def _packed(items: list) -> str:
    """A JSON list of scalars written several items to a line."""
    return "[\n    " + ",\n    ".join(_pack([json.dumps(item) for item in items])) + "\n  ]"


def render(spec: dict) -> str:
    """Pretty JSON with a fixed key order: terrain one hexrow a line, hex lists packed."""
    out = ["{"]
    keys = list(spec)
    for i, key in enumerate(keys):
        value = spec[key]
        comma = "," if i < len(keys) - 1 else ""
        if key == "terrain":
            rows = {}
            for h, name in value.items():
                rows.setdefault(h[:2], []).append(f"{json.dumps(h)}: {json.dumps(name)}")
            body = ",\n    ".join(line for _, entries in sorted(rows.items()) for line in _pack(entries))
            out.append(f'  "terrain": {{\n    {body}\n  }}{comma}')
        elif key in ("notes", "places", "areas"):
            entries = [f"    {json.dumps(k)}: {json.dumps(v)}" for k, v in value.items()]
            out.append(f"  {json.dumps(key)}: {{\n" + ",\n".join(entries) + f"\n  }}{comma}")
        elif isinstance(value, list) and value and isinstance(value[0], list):
            body = ",\n    ".join(map(_chain, value)) if key in ("roads", "trails") else _pairs(value)
            out.append(f"  {json.dumps(key)}: [\n    {body}\n  ]{comma}")
        elif isinstance(value, list):
            out.append(f"  {json.dumps(key)}: {_packed(value)}{comma}")
        else:
            out.append(f"  {json.dumps(key)}: {json.dumps(value)}{comma}")
    out.append("}")
    return "\n".join(out) + "\n"


def _chain(hexes_: list[str]) -> str:
    """One road or trail chain, several hexes to a line."""
    return "[" + ",\n     ".join(_pack([json.dumps(h) for h in hexes_], width=105)) + "]"


def _pairs(pairs: list[list[str]]) -> str:
    per_line = 5
    rows = [", ".join(json.dumps(p) for p in pairs[i:i + per_line]) for i in range(0, len(pairs), per_line)]
    return ",\n    ".join(rows)


def main(argv: list[str]) -> int:
    target = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parent.parent / "map.json"
    text = render(build())
    json.loads(text)  # the renderer writes valid JSON or nothing
    temporary = target.with_name(f".{target.name}.tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, target)
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

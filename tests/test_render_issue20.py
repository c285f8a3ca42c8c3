"""Map details a player planning on the page met (issue 20): the beach's landing cost, tracks, zones of control."""

from __future__ import annotations

import colorsys
import xml.etree.ElementTree as ET

from pbem.render.scene import build_scene
from pbem.render.svg import STYLE, TRACK_COLOUR, render_svg
from tests.render_game import played_views

SVG = "{http://www.w3.org/2000/svg}"


def _hue(colour: str) -> float:
    r, g, b = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return colorsys.rgb_to_hsv(r, g, b)


def test_the_hex_panel_gives_the_cost_of_landing_on_a_beach():
    board, views = played_views(1)
    scene = build_scene(views["US"], board)
    beach = sorted(board.beaches)[0]
    assert "landing" in scene.hex_info(beach)["cost"] and "2 MP" in scene.hex_info(beach)["cost"] and "12.2" in scene.hex_info(beach)["cost"]
    inland = next(h for h in board.all_hexes if board.land(h) and h not in board.beaches)
    assert "landing" not in scene.hex_info(inland)["cost"]


def test_movement_tracks_are_not_the_blue_of_the_rivers():
    river = STYLE.split(".river {", 1)[1].split("stroke:", 1)[1].split(";", 1)[0].strip()
    h_river, _, _ = _hue(river)
    for kind in ("moved", "entered"):
        h, s, v = _hue(TRACK_COLOUR[kind])
        assert s < 0.2 or abs(h - h_river) > 0.15, f"{kind} tracks ({TRACK_COLOUR[kind]}) look like rivers ({river})"


def test_zone_of_control_hatching_shows_on_dark_hexes_too():
    board, views = played_views(3)
    root = ET.fromstring(render_svg(build_scene(views["US"], board, show_zoc=True)))
    pattern = next(e for e in root.iter(f"{SVG}pattern") if e.get("id") == "zoc-hatch")
    lines = list(pattern.iter(f"{SVG}line"))
    assert any(float(line.get("stroke-opacity", "1")) >= 0.85 for line in lines)
    assert {line.get("stroke") for line in lines} >= {"#ffffff"}, "a light stripe beside the dark one keeps it visible on dark terrain"


def test_a_defender_eliminated_because_its_retreat_was_blocked_is_drawn_eliminated():
    board, views = played_views(3)
    view = views["US"]
    combat = next(e for e in view["last"]["events"] if e["type"] == "combat")
    defender = combat["defenders"][0]
    where = view["state"]["locations"][defender]
    events = [dict(combat, result="D1"), {"type": "retreated", "unit": defender, "from": where, "path": [], "eliminated": True, "chosen_by": "system"}]
    view = {**view, "last": {**view["last"], "events": events}}
    scene = build_scene(view, board)
    assert scene.combats[0].badge == "elim." and defender in scene.combats[0].text
    root = ET.fromstring(render_svg(scene))
    mark = next(e for e in root.iter(f"{SVG}g") if e.get("class") == "combat")
    assert mark.get("data-result") == "D1" and mark.get("data-outcome") == "eliminated"
    assert [t.text for t in mark.iter(f"{SVG}text")] == ["elim."]
    # a retreat carried out keeps the table entry
    events[1] = {"type": "retreated", "unit": defender, "from": where, "path": ["0101"], "eliminated": False, "chosen_by": "system"}
    assert build_scene({**view, "last": {**view["last"], "events": events}}, board).combats[0].badge == "D1"

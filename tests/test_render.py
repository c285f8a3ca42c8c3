"""The maps of ``pbem show``: every hex, unit and feature of a view drawn, north up, and nothing the view does not hold."""

from __future__ import annotations

import copy
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pbem.engine.board import Board
from pbem.model.map import MapSpec
from pbem.render.html import render_html
from pbem.render.layout import Layout
from pbem.render.scene import build_scene
from pbem.render.svg import render_svg
from pbem.render.terminal import LEGEND, render, render_plain
from tests.render_game import played_views

GOLDEN = Path(__file__).resolve().parent / "golden" / "show-test-skirmish-us.txt"
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def game():
    return played_views()


def _classes(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if name in (e.get("class") or "").split()]


def _sides(sides, shown) -> set[str]:
    return {"-".join(sorted(s)) for s in sides if set(s) <= shown}


def _leyte_like() -> Board:
    """A synthetic board the size of the Leyte map, numbered like it: columns grow northward."""
    return Board(MapSpec(
        cols=29, rows=32, display={"north": "right"}, key={"swamp": {"cost": 2, "crt": "broken"}},
        sea=["2901", "2902", "2903"], terrain={"1510": "mountain", "1511": "rough", "1512": "swamp"},
        rivers=[["1510", "1511"], ["1510", "1610"], ["1409", "1410"]], prohibited=[["1611", "1612"]],
        roads=[["1410", "1510", "1610"]], trails=[["1511", "1512", "1513"]], beaches=["2720", "2721"],
        edges=["0101", "0102"], places={"Tacloban airfield": "2720", "Dagami": "1511"},
        areas={"N": ["2720", "2721"], "Or": ["1508"]}, exits=["1513"],
    ))


def _view_on(units: list[dict], locations: dict[str, str]) -> dict:
    return {"side": "US", "seq": 4, "over": False, "awaiting": "US", "last": None,
            "state": {"position": {"turn": 2, "phasing": "US", "phase": "movement", "gsp": {}}, "units": units, "locations": locations}}


def test_the_svg_draws_every_hex_unit_and_feature_of_the_view(game):
    board, views = game
    view = views["US"]
    root = ET.fromstring(render_svg(build_scene(view, board)))
    shown = set(board.all_hexes)
    assert {e.get("data-hex") for e in _classes(root, "hex")} == shown
    assert sorted(e.text for e in root.iter(f"{SVG}text") if e.get("class") == "hex-id") == sorted(shown)
    on_map = {u for u, h in view["state"]["locations"].items() if h not in ("offmap", "eliminated")}
    assert {e.get("data-unit") for e in _classes(root, "counter")} == on_map
    assert {e.get("data-hexside") for e in _classes(root, "river")} == _sides(board.rivers, shown)
    assert {e.get("data-hexside") for e in _classes(root, "road")} == _sides(board.road_sides, shown)
    assert {e.get("data-hexside") for e in _classes(root, "trail")} == _sides(board.trail_sides, shown)
    assert {e.get("data-hex") for e in _classes(root, "beach")} == set(board.beaches)
    assert {e.get("data-hex") for e in _classes(root, "edge")} == set(board.edges)
    assert {e.get("data-place") for e in _classes(root, "place")} == set(board.places)
    combats = [e for e in view["last"]["events"] if e["type"] == "combat"]
    drawn = _classes(root, "combat")
    assert [(c.get("data-combat"), c.get("data-result")) for c in drawn] == [(str(e["index"]), e["result"]) for e in combats]
    paths = [e for e in view["last"]["events"] if e["type"] in ("moved", "retreated", "advanced")]
    assert [(t.get("data-kind"), t.get("data-unit")) for t in _classes(root, "track")] == [(e["type"], e["unit"]) for e in paths]


def test_the_svg_of_a_leyte_sized_board_draws_areas_exits_prohibited_hexsides_and_airfields():
    board = _leyte_like()
    view = _view_on([{"id": "us-a", "side": "US", "kind": "infantry", "attack": 5, "defense": 5, "move": 5}], {"us-a": "1510"})
    root = ET.fromstring(render_svg(build_scene(view, board)))
    assert len(_classes(root, "hex")) == 29 * 32
    assert {e.get("data-hexside") for e in _classes(root, "prohibited")} == {"1611-1612"}
    assert {e.get("data-hex") for e in _classes(root, "exit")} == {"1513"}
    assert {(e.get("data-hex"), e.text) for e in _classes(root, "area-label")} == {("2720", "N"), ("2721", "N"), ("1508", "Or")}
    airfield = next(e for e in _classes(root, "place") if e.get("data-place") == "Tacloban airfield")
    assert airfield.find(f"{SVG}path") is not None and airfield.find(f"{SVG}circle") is None
    assert {e.get("data-hex") for e in _classes(root, "terrain-swamp")} == {"1512"}


def test_around_keeps_the_hexes_within_the_radius_and_the_features_between_them():
    board = _leyte_like()
    view = _view_on([{"id": "us-a", "side": "US", "kind": "infantry", "attack": 5, "defense": 5, "move": 5},
                     {"id": "us-far", "side": "US", "kind": "infantry", "attack": 5, "defense": 5, "move": 5}],
                    {"us-a": "1510", "us-far": "0101"})
    scene = build_scene(view, board, centre="1510", radius=2)
    root = ET.fromstring(render_svg(scene))
    shown = {e.get("data-hex") for e in _classes(root, "hex")}
    assert len(shown) == 19 and "1510" in shown and "1513" not in shown
    assert {e.get("data-unit") for e in _classes(root, "counter")} == {"us-a"}
    assert {e.get("data-hexside") for e in _classes(root, "river")} == _sides(board.rivers, shown)


def test_a_map_numbered_with_north_to_the_right_is_drawn_north_up():
    board = _leyte_like()
    layout = Layout(board.all_hexes, board.spec.display.north)
    x, y = layout.centre("1510")
    north_x, north_y = layout.centre("1610")  # one column north
    east_x, east_y = layout.centre("1511")  # one row east
    assert north_y < y and east_x > x and abs(east_y - y) < 1e-9
    assert not layout.flat_topped
    # Neighbours stay one hex apart on screen, whichever way the map is turned.
    for other in board.neighbours("1510"):
        ox, oy = layout.centre(other)
        assert abs(((ox - x) ** 2 + (oy - y) ** 2) ** 0.5 - 3 ** 0.5) < 1e-9


def test_the_terminal_map_matches_its_golden_rendering(game):
    board, views = game
    assert render_plain(build_scene(views["US"], board)) == GOLDEN.read_text(encoding="utf-8")


def test_the_terminal_map_is_plain_ascii_within_80_columns(game):
    board, views = game
    text = render_plain(build_scene(views["JP"], board, show_zoc=True))
    assert text.isascii()
    map_lines = text.split("\n\n")[0].splitlines()
    assert max(len(line) for line in map_lines + LEGEND) <= 80
    leyte = render_plain(build_scene(_view_on([], {}), _leyte_like(), centre="1510", radius=4))
    assert max(len(line) for line in leyte.split("\n\n")[0].splitlines()) <= 80


def test_the_colour_map_holds_the_same_characters_as_the_plain_one(game):
    board, views = game
    scene = build_scene(views["US"], board)
    assert [line.rstrip() for line in render(scene).plain.splitlines()[3:23]] == render_plain(scene).splitlines()[3:23]


def _cell(scene, hex_id: str) -> tuple[str, str]:
    """The two lines of a hex's cell in the plain map, with the character after each."""
    lines = render_plain(scene).splitlines()[3:]
    line, col = scene.layout.cell(hex_id, 6, 2)
    return lines[line][col:col + 6].ljust(6), lines[line + 1][col:col + 6].ljust(6)


def test_the_terminal_cells_show_counters_features_and_marks(game):
    board, views = game
    scene = build_scene(views["US"], board, show_zoc=True)
    assert _cell(scene, "0904") == ("0904X\\", "C5-5 /")  # us-7cav advanced into the hex of the combat
    assert _cell(scene, "0604")[0].startswith("0604r")  # where jp-1-9's retreat ended
    assert _cell(scene, "0605")[1].startswith("i2-3")  # Japanese counters in lower case
    assert _cell(scene, "0405")[1].startswith("=")  # the road, in an empty hex
    assert _cell(scene, "1104")[1].startswith("b*")  # Red Beach
    assert _cell(scene, "0806")[1][5] == "~"  # the river hexside between 0806 and 0907
    assert _cell(scene, "0505")[0][4] == "z" and _cell(scene, "0506")[0][4] == "."  # zones of control, in empty hexes only


def test_a_unit_the_view_leaves_vague_is_a_hidden_marker_everywhere(game):
    board, views = game
    view = copy.deepcopy(views["US"])
    for unit in view["state"]["units"]:
        if unit["id"] == "jp-2-9":
            for key in ("kind", "attack", "defense", "move", "name"):
                unit.pop(key, None)
    scene = build_scene(view, board)
    svg = ET.fromstring(render_svg(scene))
    marker = next(e for e in _classes(svg, "counter") if e.get("data-unit") == "jp-2-9")
    assert [e.text for e in marker.iter(f"{SVG}text")] == ["?"]
    assert "infantry" not in marker.find(f"{SVG}title").text
    assert _cell(scene, "0907")[1].startswith("?    ")
    page = render_html(scene)
    facts = json.loads(page.split('id="pbem-data">')[1].split("</script>")[0].replace("<\\/", "</"))
    assert facts["units"]["jp-2-9"] == {"id": "jp-2-9", "side": "JP", "hex": "0907", "kind": "hidden unit"}


def test_nothing_is_drawn_that_the_view_does_not_hold(game):
    board, views = game
    view = copy.deepcopy(views["US"])
    view["state"]["units"] = [u for u in view["state"]["units"] if u["id"] != "jp-1-33"]
    del view["state"]["locations"]["jp-1-33"]
    scene = build_scene(view, board)
    for drawing in (render_svg(scene), render_html(scene), render_plain(scene)):
        assert "jp-1-33" not in drawing
    assert "occupied" not in scene.hex_info("0605")["control"]


def test_the_terminal_draws_the_hexsides_of_a_north_up_leyte_map():
    board = _leyte_like()
    scene = build_scene(_view_on([], {}), board, centre="1510", radius=3)
    lines = render_plain(scene).splitlines()[3:]

    def at(hex_id: str, line: int, offset: int) -> str:
        top, left = scene.layout.cell(hex_id, 6, 2)
        return lines[top + line][left + offset]

    assert at("1510", 0, 5) == "~"  # 1510|1511, to the east
    assert at("1610", 1, -1) == "~"  # 1510|1610, the lower-left hexside of 1610
    assert at("1409", 0, 5) == "~"  # 1409|1410
    assert at("1611", 0, 5) == "#"  # 1611|1612, no crossing
    assert at("1509", 0, 5) == "|"  # no river between 1509 and 1510


def test_a_stack_shows_its_top_counter_and_how_many_more_and_draws_them_all():
    board = _leyte_like()
    infantry = {"kind": "infantry", "attack": 5, "defense": 5, "move": 5}
    view = _view_on([{"id": "us-a", "side": "US", **infantry}, {"id": "us-b", "side": "US", **infantry, "kind": "armor"},
                     {"id": "us-c", "side": "US", **infantry}], {"us-a": "1514", "us-b": "1514", "us-c": "1514"})
    scene = build_scene(view, board, centre="1514", radius=1)
    top, left = scene.layout.cell("1514", 6, 2)
    assert render_plain(scene).splitlines()[3 + top + 1][left:left + 4] == "I+2 "
    root = ET.fromstring(render_svg(scene))
    assert [e.get("data-unit") for e in _classes(root, "counter")] == ["us-c", "us-b", "us-a"]  # drawn bottom up: us-a on top
    assert {e.get("data-kind") for e in root.iter(f"{SVG}rect") if e.get("data-kind")} == {"infantry", "armor"}

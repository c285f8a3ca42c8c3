"""``pbem show`` of a Legion game (issue 39): the room draws the test island through the seam (``map_scene``).

One demo game of the test island (a few seconds), its turn files drawn as a
player draws them: the terminal map, the SVG and the offline page must show
what the side's view holds — terrain of the Terrain Effects Chart, steep and
cliff hex-sides, counters with their markers (Hit markers 9D.3, the CI side
9E), hex ownership (5B) and the objective hexes (20) — and nothing else.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from pbem.loading.turns import open_turn
from pbem.systems import system_of
from tests.games import run

ISLAND = "legion-test-island"


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    from pbem.bot.demo import run_demo

    return run_demo(ISLAND, tmp_path_factory.mktemp("legion-maps") / "demo", seed=1)


def _view(game, seq: int, side: str) -> dict:
    status, out, err = run("view", game.game / f"turn-{seq:04d}.pbem", "--key", game.keys[side], "--json")
    assert status == 0, err
    return json.loads(out)


def _marked(game) -> tuple[int, dict]:
    """The first turn file whose US view has a unit under Hit markers and hexes of both owners."""
    for seq in range(1, game.player_turns + 1):
        view = _view(game, seq, "US")
        state = view["state"]
        if state["hits"] and {"US", "JP"} <= set(state["owner"].values()):
            return seq, view
    raise AssertionError("no turn file of the demo has Hit markers")


def test_the_terminal_map_shows_ownership_counters_and_markers_with_the_legion_legend(game):
    seq, view = _marked(game)
    state = view["state"]
    status, out, err = run("show", game.game / f"turn-{seq:04d}.pbem", "--key", game.keys["US"], "--plain")
    assert status == 0, err
    assert all(len(line) <= 76 for line in out.splitlines())
    assert "(Legion rules)" in out and "u owned by US  j owned by JP (5B)" in out and "# cliff (no crossing)  ^ steep" in out
    assert "Ground Support" not in out and "G artillery" in out  # the Legion key, not the SPI legend
    hit, hits = next(iter(state["hits"].items()))
    line = next(line for line in out.splitlines() if line.split()[:1] == [hit])
    assert f"{hits} Hit marker(s) (9D.3)" in line and state["locations"][hit] in line
    grid = out.split("N ^  (north is up)")[1].split("Terrain (")[0]
    assert "^" in grid and "#" in grid  # the steep 0603-0703 and the cliff 0803-0903 hex-sides
    empty_owned = {h: side for h, side in state["owner"].items() if h not in state["locations"].values()}
    assert any(side == "US" for side in empty_owned.values()) and any(side == "JP" for side in empty_owned.values())
    assert "u" in grid and "j" in grid


def test_the_svg_draws_every_unit_of_the_view_each_owned_hex_and_the_objectives(game):
    seq, view = _marked(game)
    state = view["state"]
    loaded = open_turn(game.game / f"turn-{seq:04d}.pbem").scenario
    scene = system_of(loaded).map_scene(view, loaded)
    from pbem.render.svg import render_svg

    root = ET.fromstring(render_svg(scene))
    ns = "{http://www.w3.org/2000/svg}"
    on_map = {u for u, h in state["locations"].items() if h not in ("eliminated", "removed", "offmap")}
    assert {g.get("data-unit") for g in root.iter(f"{ns}g") if "counter" in (g.get("class") or "").split()} == on_map
    owned = {p.get("data-hex"): p.get("data-owner") for p in root.iter(f"{ns}polygon") if "owned" in (p.get("class") or "")}
    assert owned == {h: side for h, side in state["owner"].items() if h not in loaded.board.sea}
    terrains = {p.get("data-hex"): p.get("class") for p in root.iter(f"{ns}polygon") if (p.get("class") or "").startswith("hex ")}
    assert terrains["0504"] == "hex terrain-jungle" and terrains["0706"] == "hex terrain-swamp" and terrains["0101"] == "hex terrain-sea"
    sides = {(line.get("class"), line.get("data-hexside")) for line in root.iter(f"{ns}line") if line.get("data-hexside")}
    assert ("steep", "0603-0703") in sides and ("prohibited", "0803-0903") in sides and ("road", "0403-0404") in sides
    stars = {g.get("data-hex") for g in root.iter(f"{ns}g") if (g.get("class") or "").startswith("objective ")}
    assert stars == set(loaded.scenario.victory.objectives.values())
    hit, hits = next(iter(state["hits"].items()))
    counter = next(g for g in root.iter(f"{ns}g") if g.get("data-unit") == hit)
    assert f"{hits}H" in [t.text for t in counter.iter(f"{ns}text")]


def test_a_marker_the_view_gives_without_its_unit_is_drawn_as_a_hidden_counter(game):
    """19B: a view that lists a marker and not the unit (as the room's views do under limited intelligence) shows a
    '?' in the marker's hex, and nothing of the unit (its id, type or strengths) anywhere on the map."""
    view = _view(game, 0, "US")
    loaded = open_turn(game.game / "turn-0000.pbem").scenario
    state = view["state"]
    secret = "jp-recon"
    where = state["locations"].pop(secret)
    state["units"] = [u for u in state["units"] if u["id"] != secret]
    state["markers"] = [{"id": where, "side": "JP", "kind": "hidden", "hex": where}]
    scene = system_of(loaded).map_scene(view, loaded)
    from pbem.render.html import render_html
    from pbem.render.terminal import render_plain

    drawn = [c for c in scene.counters[where]]
    assert [c.hidden for c in drawn] == [True] and drawn[0].side == "JP"
    for text in (render_plain(scene), render_html(scene)):
        assert secret not in text and "1-1-5" not in text
    assert "hidden" in render_plain(scene)


def test_the_page_tells_a_hex_in_the_legion_charts_terms_and_around_off_the_map_is_refused(game, tmp_path):
    turn = game.game / "turn-0000.pbem"
    page = tmp_path / "map.html"
    status, _, err = run("show", turn, "--key", game.keys["JP"], "--html", page)
    assert status == 0, err
    data = json.loads(page.read_text(encoding="utf-8").split('id="pbem-data">')[1].split("</script>")[0])
    town = data["hexes"]["0805"]
    assert town["terrain"] == "town + jungle" and "infantry 2 MP" in town["cost"] and "(6A.1)" in town["cost"]
    assert "Assault DRM -1, Fire DRM -2 (9C" in town["line"]  # the better of town's and jungle's, not their sum
    assert town["control"].startswith("owned by JP (5B)")
    assert data["units"]["us-1-2"]["stacking"] == "3 SP (3A.4)"
    status, _, err = run("show", turn, "--key", game.keys["JP"], "--around", "1109")
    assert status == 2 and "--around 1109 is not a hex of this 10x8 map" in err and "Traceback" not in err
    status, out, err = run("show", turn, "--key", game.keys["JP"], "--around", "0504", "--radius", "1", "--plain")
    assert status == 0 and "0504" in out and "0101" not in out

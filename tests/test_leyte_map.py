"""The reconstructed map of northern Leyte held against what the rule text fixes (Leyte 12.2, 16.x, 17.2)."""

from collections import deque
from pathlib import Path

import pytest

from pbem.loading.datafiles import board_for
from pbem.engine import hexes
from pbem.loading.jsonfile import load_model, read_json
from pbem.model.map import MapSpec

MAP = Path(__file__).resolve().parent.parent / "scenarios" / "leyte" / "map.json"

# Every set-up hex of the five deployment cases, typed from the rule text.
SETUP = {
    "16.12": "2626 2426 2228 2327 2326 1623 1227 1130 1431 2526 1430 1224",
    "16.21": "2705 2507 2708 2610 2410 2312 2413 1423 1224 1530 2605 2606 1622 1024 1529 "
             "2706 2607 2609 2809 2712 2513 2414 1525 1225 1531",
    "16.22": "2207 2604 1406 1307 1310 2303 0723 1022 1322 1521 1721 1818 2505 2405 2407 2307 1904 1804 0808 "
             "2602 2106 1207 1108 1209",
    "16.31": "2402 2405 2307 2208 2110 2111 2011 1913 1914 1814 1716 1320 1022 0315 0415 0316 2201 2505 2406 1518 "
             "1222 0821 0516 0517 0417 2502 2503 2604 2507 2408 2410 2211 2115 2116 2016 1718 1522 1124 0216 0317 0318",
    "16.32": "2303 2204 2107 0515 2101 2102 2105 2106 0616 1120 1318 1910 1611 2203 0921 0720 0614 0808 2103 0817 "
             "1902 2104 1905 1808 0713",
}
SCENARIOS = {"American Assault": ("16.12",), "Mountain Barrier": ("16.21", "16.22"), "Final Collapse": ("16.31", "16.32")}
OBJECTIVES = ("2215", "2312", "2918")  # 16.14


@pytest.fixture(scope="module")
def spec() -> MapSpec:
    return load_model(MapSpec, read_json(MAP), str(MAP), "schemas/map.schema.json")


@pytest.fixture(scope="module")
def board(spec):
    return board_for(spec, [], str(MAP))


def reachable(board, start: str, step) -> set[str]:
    """Hexes reached from ``start`` by steps ``step(a, b)`` allows."""
    seen, todo = {start}, deque([start])
    while todo:
        here = todo.popleft()
        for there in board.neighbours(here):
            if there not in seen and step(here, there):
                seen.add(there)
                todo.append(there)
    return seen


def by_road(board):
    return lambda a, b: board.road_between(a, b)


def over_land(board):
    return lambda a, b: board.passable(a, b)


def low_ground(board):
    """A step onto land that is neither rough nor mountain, ignoring roads and trails."""
    return lambda a, b: board.passable(a, b) and not board.rough_or_mountain(b)


def test_the_grid_is_29_by_32_the_published_928_hexes(board):
    assert (board.cols, board.rows) == (29, 32)
    assert len(board.all_hexes) == 928
    assert board.all_hexes[0] == "0101" and board.all_hexes[-1] == "2932"


def test_beach_areas_ormoc_and_exits_are_as_the_text_gives_them(spec):
    assert spec.areas["N"] == ["2428", "2528", "2628"]
    assert spec.areas["E"] == ["1332", "1232", "1132", "1032"]
    assert spec.areas["S"] == ["0610", "0511", "0512", "0513", "0514"]
    assert spec.areas["Or"] == ["0808"] and spec.places["Ormoc"] == "0808"
    assert sorted(spec.beaches) == sorted(spec.areas["N"] + spec.areas["E"] + spec.areas["S"])
    assert spec.exits == ["2925", "0531"]


def test_exit_2925_is_on_the_northern_edge(spec):
    assert hexes.parse("2925")[0] == spec.cols


@pytest.mark.parametrize("case", sorted(SETUP))
def test_every_set_up_hex_is_land_on_leyte(board, case):
    leyte = reachable(board, "0808", over_land(board))
    assert [h for h in SETUP[case].split() if h not in leyte] == []


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_no_two_set_up_units_of_a_scenario_share_a_hex(scenario):
    placed = [h for case in SCENARIOS[scenario] for h in SETUP[case].split()]
    assert sorted({h for h in placed if placed.count(h) > 1}) == []


def test_objectives_airfields_and_every_named_place_are_on_land(board, spec):
    assert all(board.land(h) for h in OBJECTIVES)
    assert all(board.land(h) for h in spec.places.values())
    airfields = {name for name in spec.places if "airfield" in name}
    assert {"Tacloban airfield", "Dulag airfield"} <= airfields
    assert {"Carigara", "Limon", "Tacloban", "Palo", "Dulag", "Burauen", "Jaro"} <= set(spec.places)


def test_roads_and_trails_run_over_land_only(board, spec):
    wet = [h for chain in spec.roads + spec.trails for h in chain if not board.land(h)]
    assert wet == []


def test_the_road_net_joins_carigara_limon_ormoc_the_beaches_and_the_exits(board, spec):
    net = reachable(board, spec.places["Carigara"], by_road(board))
    for name in ("Limon", "Ormoc", "Jaro", "Tacloban", "Palo", "Dulag", "Burauen", "Dagami"):
        assert spec.places[name] in net, name
    for area in ("N", "E", "S"):
        assert set(spec.areas[area]) & net, area
    assert set(spec.exits) <= net


def test_japanese_lines_of_communications_can_run_off_the_western_edge(board, spec):
    """16.34 scores Japanese units tracing a line off the western edge: roads or trails must lead there."""
    net = reachable(board, spec.places["Ormoc"], lambda a, b: board.road_between(a, b) or board.trail_between(a, b))
    assert set(spec.areas["0001"]) & net


def test_trails_cross_the_mountains(board, spec):
    """17.2: the Japanese use interior roads and trails through the main range."""
    over_trails = reachable(board, spec.places["Burauen"], lambda a, b: board.road_between(a, b) or board.trail_between(a, b))
    assert spec.places["Ormoc"] in over_trails
    assert any(board.terrain(h).name == "mountain" for chain in spec.trails for h in chain)


def test_the_central_range_parts_the_ormoc_valley_from_the_leyte_valley(board, spec):
    """17.2: the Americans cross the Leyte Valley, then must push through the main range into the Ormoc Valley."""
    ormoc_valley = reachable(board, spec.places["Ormoc"], low_ground(board))
    leyte_valley = reachable(board, spec.areas["E"][0], low_ground(board))
    assert spec.places["Limon"] in ormoc_valley
    for name in ("Dulag", "Burauen", "Dagami", "Palo", "Tacloban", "Jaro", "Carigara"):
        assert spec.places[name] in leyte_valley, name
    assert ormoc_valley.isdisjoint(leyte_valley)


def test_the_mountain_barrier_front_lies_in_rough_ground(board):
    """17.2: the Japanese line is 'entrenched in rough terrain': most Japanese set-up hexes of 16.22
    within two hexes of an American one (16.21) are rough or mountain."""
    american = SETUP["16.21"].split()
    front = [h for h in SETUP["16.22"].split() if any(hexes.distance(h, u) <= 2 for u in american)]
    assert len(front) >= 6
    assert sum(board.rough_or_mountain(h) for h in front) * 3 >= len(front) * 2


def test_the_coasts_the_scenarios_name(board, spec):
    """Carigara on Carigara Bay, Ormoc on Ormoc Bay, and sea beside the N and S beaches."""
    def coastal(h):
        return any(n in board.sea for n in board.neighbours(h))
    assert coastal(spec.places["Carigara"]) and coastal(spec.places["Ormoc"])
    assert all(coastal(h) for h in spec.areas["N"] + spec.areas["S"])
    assert all(hexes.parse(h)[1] == spec.rows for h in spec.areas["E"])  # Leyte Gulf lies just off the eastern edge


def test_entry_edges_are_the_land_of_leyte_on_each_map_edge(board, spec):
    leyte = reachable(board, "0808", over_land(board))
    west = [hexes.hex_id(xx, 1) for xx in range(1, 30)]
    south = [hexes.hex_id(1, yy) for yy in range(1, 33)]
    north = [hexes.hex_id(29, yy) for yy in range(1, 33)]
    assert spec.areas["0001"] == [h for h in west if h in leyte]
    assert spec.areas["0100"] == [h for h in south if h in leyte]
    assert spec.areas["2900"] == [h for h in north if h in leyte]
    assert set(spec.edges) == set(spec.areas["0001"] + spec.areas["0100"] + spec.areas["2900"])
    assert "2925" in spec.areas["2900"] and "2918" in spec.areas["2900"]


def test_the_reconstruction_says_so(spec):
    assert spec.source.startswith("assumed:")
    for group in ("coastline", "mountains", "roads", "trails", "rivers", "towns", "airfields"):
        assert spec.notes[group].startswith("assumed:"), group

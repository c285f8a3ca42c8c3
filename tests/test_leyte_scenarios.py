"""The Leyte scenario files against the rule text, line by line (16.1-16.3, 18.1, 18.2, 12.42, 15.4).

The tables below are typed again from the rule text, in the text's own shape
(a unit-type line and its hexes; a Game-Turn and its arrivals), independently
of the files, so that a slip in either shows.
"""

from __future__ import annotations

from collections import Counter

import pytest

from pbem.loading.datafiles import load_scenario
from pbem.engine.sequence import opening
from pbem.game.narrate import strengths

SETUP = {
    ("leyte-assault", "JP"): {  # 16.12
        "2-3-6": "2626 2426 2228 2327 2326 1623 1227 1130 1431",
        "1-3-3/2-5": "2526 1430",
        "2-1-10": "1224",
    },
    ("leyte-assault", "US"): {},  # 16.11: no U.S. unit on the map
    ("leyte-mountain-barrier", "US"): {  # 16.21
        "5-5-5": "2705 2507 2708 2610 2410 2312 2413 1423 1224 1530",
        "3-2-5": "2605 2606 1622 1024 1529",
        "2-3-5/1-4": "2706 2607 2609 2809 2712 2513 2414 1525 1225 1531",
    },
    ("leyte-mountain-barrier", "JP"): {  # 16.22
        "6-8-5": "2207",
        "4-6-5": "2604 1406 1307 1310",
        "4-2-10": "2303",
        "2-3-6": "0723 1022 1322 1521 1721 1818 2505 2405 2407 2307",
        "2-2-8": "1904",
        "1-2-8": "1804",
        "1-2-6": "0808",
        "1-3-3/2-5": "2602 2106 1207 1108 1209",
    },
    ("leyte-final-collapse", "US"): {  # 16.31
        "5-5-5": "2402 2405 2307 2208 2110 2111 2011 1913 1914 1814 1716 1320 1022 0315 0415 0316",
        "3-2-5": "2201 2505 2406 1518 1222 0821 0516 0517 0417",
        "2-3-5/1-4": "2502 2503 2604 2507 2408 2410 2211 2115 2116 2016 1718 1522 1124 0216 0317 0318",
    },
    ("leyte-final-collapse", "JP"): {  # 16.32
        "4-6-5": "2303 2204 2107",
        "2-5-6": "0515",
        "2-3-6": "2101 2102 2105 2106 0616 1120 1318 1910 1611",
        "2-2-8": "2203 0921",
        "1-2-6": "0720 0614 0808",
        "1-2-8": "2103 0817",
        "1-3-3/2-5": "1902 2104 1905 1808 0713",
    },
}

# 18.1 and 18.2: Game-Turn -> (side, how many, strengths, entry) per line, within each scenario's span.
US_ARRIVALS = [
    (1, 3, "5-5-5", "N"), (1, 2, "5-5-5", "N"), (1, 4, "5-5-5", "E"), (1, 2, "3-2-5", "N"), (1, 1, "3-2-5", "E"),
    (1, 5, "2-3-5/1-4", "N"), (1, 4, "2-3-5/1-4", "E"),
    (2, 1, "5-5-5", "N"), (2, 2, "5-5-5", "S"), (2, 4, "3-2-5", "S"), (2, 1, "2-3-5/1-4", "N"), (2, 2, "2-3-5/1-4", "S"),
    (6, 1, "5-5-5", "N"), (6, 1, "3-2-5", "N"), (6, 1, "2-3-5/1-4", "N"),
    (11, 1, "5-5-5", "N"), (11, 1, "3-2-5", "0001"), (11, 1, "2-3-5/1-4", "N"),
    (12, 1, "5-5-5", "0100"), (12, 1, "3-2-5", "0100"), (12, 1, "2-3-5/1-4", "0100"),
    (13, 2, "5-5-5", "0100"), (13, 2, "3-2-5", "0100"), (13, 2, "2-3-5/1-4", "0100"),
    (18, 2, "5-5-5", "S"), (18, 1, "3-2-5", "S"), (18, 2, "3-2-5", "E"), (18, 1, "2-3-5/1-4", "S"),
    (19, 1, "5-5-5", "S"), (19, 2, "3-2-5", "S"), (19, 1, "2-3-5/1-4", "S"),
]
JP_ARRIVALS = [  # entry 'Or' where 18.2 gives none (assumed), '0001' where it does
    (3, 1, "2-3-6", "Or"), (4, 1, "4-6-5", "Or"), (4, 1, "2-3-6", "Or"), (5, 2, "2-3-6", "Or"), (6, 1, "1-2-6", "Or"),
    (7, 1, "6-8-5", "Or"), (7, 1, "1-3-3/2-5", "Or"),
    (8, 3, "4-6-5", "Or"), (8, 1, "4-2-10", "Or"), (8, 1, "2-2-8", "Or"), (8, 1, "1-2-8", "Or"), (8, 3, "1-3-3/2-5", "Or"),
    (10, 3, "2-3-6", "Or"),
    (11, 1, "2-5-6", "Or"), (11, 1, "2-2-8", "Or"), (11, 2, "1-2-6", "Or"), (11, 1, "1-2-8", "Or"),
    (15, 1, "2-3-6", "0001"),
    (20, 2, "4-6-5", "0001"), (20, 1, "2-3-6", "0001"),
]
SPANS = {"leyte-assault": (1, 8), "leyte-mountain-barrier": (9, 17), "leyte-final-collapse": (18, 26)}


def counter(unit) -> str:
    return strengths(unit.model_dump())


@pytest.mark.parametrize(("sid", "side"), sorted(SETUP))
def test_initial_deployment_line_by_line(sid, side):
    scenario = load_scenario(sid).scenario
    placed = [u for u in scenario.units if u.side == side and u.hex is not None]
    expected = {(typ, h) for typ, hexes in SETUP[(sid, side)].items() for h in hexes.split()}
    assert {(counter(u), u.hex) for u in placed} == expected
    assert len(placed) == len(expected)
    for u in placed:
        assert u.source.startswith(("16.12", "16.21", "16.22", "16.31", "16.32"))


@pytest.mark.parametrize("sid", sorted(SPANS))
def test_order_of_appearance_within_the_span(sid):
    first, last = SPANS[sid]
    scenario = load_scenario(sid).scenario
    for side, table in (("US", US_ARRIVALS), ("JP", JP_ARRIVALS)):
        expected = Counter()
        for turn, count, typ, entry in table:
            if first <= turn <= last:
                expected[(turn, typ, entry)] += count
        got = Counter((u.arrives, counter(u), u.entry) for u in scenario.units if u.side == side and u.arrives is not None and u.kind != "airassault")
        assert got == expected, side


def test_every_number_says_where_it_came_from():
    for sid in SPANS:
        scenario = load_scenario(sid).scenario
        for u in scenario.units:
            assert u.source and u.source[:2] in ("16", "18"), u.id
            if u.entry == "Or" or "Air Assault" in u.source:
                assert "assumed:" in u.source, u.id  # no entry or no strength in the text
        for row in scenario.ground_support:
            # 3.0's example of the track is the one value the text gives (Game-Turn 26: 3/0); every other row is assumed.
            assert row.source.startswith("3.0" if row.turn == 26 else "assumed:"), (sid, row.turn)
        for u in scenario.units:
            strengths_assumed = u.source.split("assumed:", 1)[-1] if "assumed:" in u.source else ""
            if u.id == "jp-13-inf" and u.arrives is not None:  # 16.32 gives the regiment's 2-5-6: only its entry (Or) is assumed
                assert "2-5-6" not in strengths_assumed and "entry Or" in strengths_assumed, u.source
        for objective in scenario.objectives:
            assert objective.source.startswith(("15.", "16."))
        assert scenario.map.source.startswith("assumed:")


def test_special_rules():
    assault = load_scenario("leyte-assault")
    assert (assault.scenario.first_player, assault.scenario.first_turn, assault.scenario.last_turn) == ("US", 1, 8)
    assert [(r.hex, r.side, r.reenter_after, r.reenter_entry) for r in assault.scenario.exits] == [("2925", "US", 4, "2900")]
    [req] = assault.scenario.exit_requirements
    assert (req.hex, req.side, req.kind, req.attack, req.defense, req.move, req.by_turn) == ("0531", "US", "infantry", 3, 2, 5, 3)
    assert assault.board.exits == {"2925": frozenset({"US"}), "0531": frozenset({"US"})}
    barrier = load_scenario("leyte-mountain-barrier")
    assert (barrier.scenario.first_turn, barrier.scenario.last_turn) == (9, 17)
    assert barrier.board.closed["JP"] == barrier.board.areas["0100"]
    assert barrier.board.exits == {}
    collapse = load_scenario("leyte-final-collapse")
    assert (collapse.scenario.first_turn, collapse.scenario.last_turn) == (18, 26)
    [aab] = [u for u in collapse.scenario.units if u.kind == "airassault"]
    assert aab.arrives == 18 and aab.side == "JP"
    assert opening(collapse.scenario).locations[aab.id] == "offmap"  # available on the first turn, may not be withheld (12.42)


def test_victory_terms():
    assault = load_scenario("leyte-assault").scenario
    places = load_scenario("leyte-assault").board.places
    assert {(o.side, o.hex, o.points, o.loc) for o in assault.objectives} == {
        ("JP", places["Carigara"], 15, False), ("US", "2215", 15, True), ("US", "2312", 15, True), ("US", "2918", 15, True)}
    assert {(t.kind, t.side, t.points) for t in assault.victory} == {("airfields", "JP", 10), ("beaches", "JP", 40), ("cut-off", "JP", None)}
    barrier = load_scenario("leyte-mountain-barrier").scenario
    assert {(o.side, o.hex, o.points) for o in barrier.objectives} == {("JP", places["Limon"], 15)}
    assert [(t.kind, t.max_col, t.max_row) for t in barrier.victory if t.kind == "region"] == [("region", 23, 6)]
    collapse = load_scenario("leyte-final-collapse").scenario
    assert {(o.side, o.hex, o.points, o.at_end_of_turn) for o in collapse.objectives} == {("JP", "0808", 10, 22)}
    assert [(t.kind, t.side, t.other_side, t.area) for t in collapse.victory if t.kind == "edge-loc"] == [("edge-loc", "JP", "US", "0001")]
    for s in (assault, barrier, collapse):
        assert [(t.areas, t.points) for t in s.victory if t.kind == "beaches"] == [(["N", "E"], 40)]  # 15.22 in every scenario


def test_mountain_barrier_opening_scored_by_hand():
    """Scored as if it ended at once: Japan holds Limon (2405, the 169th battalion): 15 (16.24).
    No U.S. unit stands south of hexrow 2400 and west of 0007; no Japanese unit on a N or E beach;
    every U.S. unit traces a Line of Communications to the N or E beaches, so Japan scores nothing
    for cut-off units. U.S. 0 : Japan 15."""
    from pbem.engine.scoring import victory_report

    loaded = load_scenario("leyte-mountain-barrier")
    report = victory_report(loaded.board, loaded.scenario, opening(loaded.scenario), final=True).as_dict()
    assert report["points"] == {"US": 0, "JP": 15}
    assert report["level"] == "Japanese Decisive"


def test_3_0_ground_support_on_game_turn_26_is_the_texts_3_0():
    """The standard rules' example of the Turn Record Track (3.0): Game-Turn 26, Ground Support Points 3/0."""
    scenario = load_scenario("leyte-final-collapse").scenario
    assert scenario.gsp_for(26) == {"US": 3, "JP": 0}


@pytest.mark.parametrize("sid", sorted(SPANS))
def test_15_31_active_beaches_are_where_the_scenarios_us_reinforcements_land(sid):
    """docs/leyte.md's reading of 15.31: a scenario's active beaches are the beach areas its U.S. reinforcements land on."""
    loaded = load_scenario(sid)
    beach_areas = {name for name, members in loaded.scenario.map.areas.items() if set(members) <= loaded.board.beaches}
    landed = {u.entry for u in loaded.scenario.units if u.side == "US" and u.arrives is not None and u.entry in beach_areas}
    assert set(loaded.scenario.loc_beaches) == landed
    assert loaded.scenario.loc_beaches_source.startswith("assumed:")


def test_12_2_ormoc_entry_cost_is_marked_assumed():
    spec = load_scenario("leyte-final-collapse").scenario.map
    assert spec.notes["ormoc-entry"].startswith("assumed:") and "12.2" in spec.notes["ormoc-entry"]

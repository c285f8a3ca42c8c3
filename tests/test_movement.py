"""Movement (5.1-5.3), zones of control (6.0-6.2) and reinforcement entry (12.1-12.2, I10, I11)."""

from tests.casebuilder import case, inf, rules, run, where


def move(unit, *path, enter=None):
    m = {"unit": unit, "path": list(path)}
    if enter:
        m["enter"] = enter
    return m


# -- 5.1 restrictions ------------------------------------------------------------

def test_5_12_no_unit_enters_an_enemy_hex():
    # 0507 is enemy-controlled, so 6.0 is broken too; 0508 itself holds the enemy.
    out = run(case([inf("us-1", "US", "0505"), inf("jp-1", "JP", "0508")], moves=[move("us-1", "0506", "0507", "0508")]))
    assert not out["valid"]
    assert {"5.12", "6.0"} <= rules(out)


def test_5_13_a_unit_may_not_spend_more_than_its_allowance():
    out = run(case([inf("us-1", "US", "0501", m=5)], moves=[move("us-1", "0502", "0503", "0504", "0505", "0506", "0507")]))
    assert rules(out) == {"5.13"}
    assert where(out, "us-1") == "0501"  # rejected orders change nothing


def test_5_13_exactly_the_allowance_is_fine():
    out = run(case([inf("us-1", "US", "0501", m=5)], moves=[move("us-1", "0502", "0503", "0504", "0505", "0506")]))
    assert out["valid"] and where(out, "us-1") == "0506"


def test_5_14_an_american_unit_never_leaves_a_japanese_controlled_hex():
    out = run(case([inf("us-1", "US", "0506"), inf("jp-1", "JP", "0507")], moves=[move("us-1", "0505")]))
    assert rules(out) >= {"5.14"}


def test_5_15_japanese_artillery_never_leaves_an_american_controlled_hex():
    units = [inf("us-1", "US", "0506"), {"id": "jp-a", "side": "JP", "kind": "artillery", "barrage": 1, "fpf": 2, "range": 3, "defense": 1, "move": 4, "hex": "0507"}]
    out = run(case(units, moves=[move("jp-a", "0508")], phasing="JP"))
    assert "5.15" in rules(out)


def test_5_15_japanese_armor_never_leaves_an_american_controlled_hex():
    units = [inf("us-1", "US", "0506"), inf("jp-t", "JP", "0507", kind="armor")]
    out = run(case(units, moves=[move("jp-t", "0508")], phasing="JP"))
    assert "5.15" in rules(out)


def test_6_13_other_japanese_kinds_may_not_leave_either():
    units = [inf("us-1", "US", "0506"), inf("jp-r", "JP", "0507", kind="recon")]
    out = run(case(units, moves=[move("jp-r", "0508")], phasing="JP"))
    assert "6.13" in rules(out)


def test_5_16_one_move_per_unit():
    out = run(case([inf("us-1", "US", "0501")], moves=[move("us-1", "0502"), move("us-1", "0503")]))
    assert "5.16" in rules(out)


def test_5_11_only_the_phasing_side_moves():
    out = run(case([inf("us-1", "US", "0501"), inf("jp-1", "JP", "0909")], moves=[move("jp-1", "0908")]))
    assert "5.11" in rules(out)


def test_5_11_nothing_moves_in_the_combat_phase():
    doc = case([inf("us-1", "US", "0501")], moves=[move("us-1", "0502")], phase="combat")
    out = run(doc)
    assert "5.11" in rules(out)


def test_path_must_be_contiguous():
    out = run(case([inf("us-1", "US", "0501")], moves=[move("us-1", "0503")]))
    assert "5.0" in rules(out)


def test_unknown_unit_is_reported_not_raised():
    out = run(case([inf("us-1", "US", "0501")], moves=[move("us-9", "0502")]))
    assert not out["valid"] and out["errors"][0]["unit"] == "us-9"


# -- 5.2 terrain -----------------------------------------------------------------

def test_5_21_off_the_board_sea_and_prohibited_hexsides():
    doc = case(
        [inf("us-1", "US", "0509"), inf("us-2", "US", "0201"), inf("us-3", "US", "0801")],
        moves=[move("us-1", "0510", "0511"), move("us-2", "0202"), move("us-3", "0802")],
        sea=["0202"],
        prohibited=[["0801", "0802"]],
    )
    out = run(doc)
    assert [e["rule"] for e in out["errors"]] == ["5.21", "5.21", "5.21"]
    assert {e["unit"] for e in out["errors"]} == {"us-1", "us-2", "us-3"}


def test_terrain_costs_add_up():
    # broken (2) + rough (3) = 5 of 5.
    doc = case([inf("us-1", "US", "0501", m=5)], moves=[move("us-1", "0502", "0503")], terrain={"0502": "broken", "0503": "rough"})
    assert run(doc)["valid"]
    doc = case([inf("us-1", "US", "0501", m=4)], moves=[move("us-1", "0502", "0503")], terrain={"0502": "broken", "0503": "rough"})
    assert rules(run(doc)) == {"5.13"}


def test_river_hexside_adds_its_cost():
    doc = case([inf("us-1", "US", "0505", m=2)], moves=[move("us-1", "0506")], rivers=[["0505", "0506"]])
    assert run(doc)["valid"]  # 1 + 1
    doc = case([inf("us-1", "US", "0505", m=2)], moves=[move("us-1", "0506", "0507")], rivers=[["0505", "0506"]])
    assert rules(run(doc)) == {"5.13"}  # 1 + 1 + 1


def test_5_22_road_costs_half_across_a_road_hexside_only():
    # Along the road: 4 x 1/2 = 2 MP; then off the road into clear: +1 = 3 of 3.
    doc = case(
        [inf("us-1", "US", "0501", m=3)],
        moves=[move("us-1", "0502", "0503", "0504", "0505", "0506")],
        roads=[["0501", "0502", "0503", "0504", "0505"]],
        terrain={"0506": "clear"},
    )
    assert run(doc)["valid"]


def test_5_22_road_ignores_the_river_it_crosses():
    doc = case(
        [inf("us-1", "US", "0501", m=1)],
        moves=[move("us-1", "0502", "0503")],
        roads=[["0501", "0502", "0503"]],
        rivers=[["0502", "0503"]],
        terrain={"0502": "mountain", "0503": "mountain"},
    )
    assert run(doc)["valid"]


def test_5_23_trail_costs_one_whatever_the_terrain():
    terrain = {f"05{r:02d}": "mountain" for r in range(1, 8)}
    trail = [[f"05{r:02d}" for r in range(1, 8)]]
    ok = case([inf("us-1", "US", "0501", m=4)], moves=[move("us-1", "0502", "0503", "0504", "0505")], terrain=terrain, trails=trail)
    assert run(ok)["valid"]
    over = case([inf("us-1", "US", "0501", m=4)], moves=[move("us-1", "0502", "0503", "0504", "0505", "0506")], terrain=terrain, trails=trail)
    assert rules(run(over)) == {"5.13"}


def test_5_25_armor_enters_broken_terrain_only_along_a_road():
    blocked = case([inf("us-t", "US", "0501", kind="armor", m=6)], moves=[move("us-t", "0502")], terrain={"0502": "broken"})
    assert rules(run(blocked)) == {"5.25"}
    on_road = case([inf("us-t", "US", "0501", kind="armor", m=6)], moves=[move("us-t", "0502")], terrain={"0502": "broken"}, roads=[["0501", "0502"]])
    assert run(on_road)["valid"]
    town = case([inf("us-t", "US", "0501", kind="armor", m=6)], moves=[move("us-t", "0502")], terrain={"0502": "town"})
    assert run(town)["valid"]


def test_a_case_may_add_a_terrain_to_the_key():
    doc = case(
        [inf("us-1", "US", "0501", m=3)],
        moves=[move("us-1", "0502", "0503")],
        terrain={"0502": "swamp"},
        key={"swamp": {"cost": 3, "crt": "broken"}},
    )
    assert rules(run(doc)) == {"5.13"}


# -- 5.3 other friendly units ------------------------------------------------------

def test_5_31_moving_through_friends_is_free_but_ending_stacked_is_not():
    through = case([inf("us-1", "US", "0501"), inf("us-2", "US", "0502")], moves=[move("us-1", "0502", "0503")])
    assert run(through)["valid"]
    stacked = case([inf("us-1", "US", "0501"), inf("us-2", "US", "0503")], moves=[move("us-1", "0502", "0503")])
    out = run(stacked)
    assert rules(out) == {"5.31"}


def test_5_31_two_movers_ending_in_one_hex():
    doc = case([inf("us-1", "US", "0501"), inf("us-2", "US", "0701")], moves=[move("us-1", "0601"), move("us-2", "0601")])
    out = run(doc)
    assert rules(out) == {"5.31"} and {e["unit"] for e in out["errors"]} == {"us-1", "us-2"}


def test_stacking_is_judged_on_the_final_position():
    # us-2 leaves 0502 and us-1 takes its place: no stacking at the end.
    doc = case([inf("us-1", "US", "0501"), inf("us-2", "US", "0502")], moves=[move("us-1", "0502"), move("us-2", "0503")])
    assert run(doc)["valid"]


# -- 6.0 zones of control -----------------------------------------------------------

def test_6_11_zones_extend_across_every_hexside():
    # A prohibited hexside does not stop a zone of control (6.15): us-1 must stop in 0507.
    doc = case(
        [inf("us-1", "US", "0505"), inf("jp-1", "JP", "0607")],
        moves=[move("us-1", "0506", "0507", "0508")],
        prohibited=[["0507", "0607"]],
    )
    assert "6.0" in rules(run(doc))


def test_6_14_japanese_infantry_may_step_exactly_one_hex_out():
    units = [inf("us-1", "US", "0506"), inf("jp-1", "JP", "0507", a=2, d=3, m=6)]
    one = run(case(units, moves=[move("jp-1", "0508")], phasing="JP"))
    assert one["valid"] and where(one, "jp-1") == "0508"
    two = run(case(units, moves=[move("jp-1", "0508", "0509")], phasing="JP"))
    # I20: with its move faulty, jp-1 stands in 0507 for the combat check, next to us-1.
    assert rules(two) == {"6.14", "7.11", "7.12"}


def test_6_14_engineers_too_and_the_step_is_paid_for():
    units = [inf("us-1", "US", "0506"), inf("jp-e", "JP", "0507", kind="engineer", a=1, d=2, m=2)]
    ok = run(case(units, moves=[move("jp-e", "0508")], phasing="JP", terrain={"0508": "broken"}))
    assert ok["valid"]
    over = run(case(units, moves=[move("jp-e", "0508")], phasing="JP", terrain={"0508": "rough"}))
    assert rules(over) == {"5.13", "7.11", "7.12"}  # I20: jp-e stays in 0507, next to us-1


# -- 12.2 reinforcements ----------------------------------------------------------

def reinforcement(uid, entry, m=5, side="US", kind="infantry"):
    return {"id": uid, "side": side, "kind": kind, "attack": 5, "defense": 5, "move": m, "hex": "offmap", "entry": entry}


def test_12_21_beach_entry_costs_two_whatever_the_terrain():
    ok = case([reinforcement("us-9", "beach")], moves=[move("us-9", "0102", "0103", "0104", enter="0101")], beaches=["0101"], terrain={"0101": "rough"})
    out = run(ok)
    assert out["valid"] and where(out, "us-9") == "0104"  # 2 + 3 = 5
    over = case([reinforcement("us-9", "beach")], moves=[move("us-9", "0102", "0103", "0104", "0105", enter="0101")], beaches=["0101"])
    assert rules(run(over)) == {"5.13"}


def test_12_21_only_a_beach_hex_will_do():
    doc = case([reinforcement("us-9", "beach")], moves=[move("us-9", enter="0201")], beaches=["0101"])
    assert rules(run(doc)) == {"12.21"}


def test_12_23_edge_entry_pays_the_hex_cost():
    ok = case([reinforcement("us-9", "edge", m=4)], moves=[move("us-9", "0109", enter="0110")], edges=["0110"], terrain={"0110": "rough"})
    assert run(ok)["valid"]  # 3 + 1
    over = case([reinforcement("us-9", "edge", m=4)], moves=[move("us-9", "0109", "0108", enter="0110")], edges=["0110"], terrain={"0110": "rough"})
    assert rules(run(over)) == {"5.13"}


def test_12_22_arriving_in_an_enemy_zone_ends_the_move_and_obliges_an_attack():
    units = [reinforcement("us-9", "beach"), inf("jp-1", "JP", "0102", a=2, d=3)]
    moving_on = run(case(units, moves=[move("us-9", "0201", enter="0101")], beaches=["0101"]))
    assert "12.22" in rules(moving_on)
    no_attack = run(case(units, moves=[move("us-9", enter="0101")], beaches=["0101"]))
    assert {"12.22", "7.12"} <= rules(no_attack)
    attacking = run(
        case(units, moves=[move("us-9", enter="0101")], attacks=[{"attackers": ["us-9"], "defenders": ["jp-1"]}], beaches=["0101"], dice=[4])
    )
    assert attacking["valid"]


def test_a_reinforcement_must_name_its_entry_hex():
    doc = case([reinforcement("us-9", "beach")], moves=[move("us-9", "0102")], beaches=["0101"])
    assert rules(run(doc)) == {"12.2"}


def test_reinforcements_not_brought_in_stay_off_the_map():
    out = run(case([reinforcement("us-9", "beach"), inf("us-1", "US", "0505")], moves=[], beaches=["0101"]))
    assert out["valid"] and out["units"]["us-9"] == {"hex": "offmap"}


def test_12_1_reinforcements_move_after_units_on_the_map():
    # The reinforcement lands where us-1 stood; listed first, it is still legal.
    units = [reinforcement("us-9", "beach"), inf("us-1", "US", "0101")]
    out = run(case(units, moves=[move("us-9", enter="0101"), move("us-1", "0102")], beaches=["0101"]))
    assert out["valid"]
    assert [e["unit"] for e in out["events"] if e["type"] in ("moved", "entered")] == ["us-1", "us-9"]


# -- reporting --------------------------------------------------------------------

def test_every_problem_is_reported_not_only_the_first():
    doc = case(
        [inf("us-1", "US", "0501", m=1), inf("us-2", "US", "0801"), inf("jp-1", "JP", "0909")],
        moves=[move("us-1", "0502", "0503"), move("us-2", "0803"), move("jp-1", "0908")],
    )
    out = run(doc)
    assert rules(out) == {"5.13", "5.0", "5.11"}
    assert all(e["message"] for e in out["errors"])


# -- I20: a move followed step by step; a faulty move leaves its unit where it started ----

def _errors(out):
    return sorted((e["rule"], e["unit"]) for e in out["errors"])


def test_i20_the_failing_step_is_reported_under_every_rule_it_breaks():
    units = [inf("us-1", "US", "0504"), inf("jp-1", "JP", "0507", a=2, d=3)]
    # Into jp-1's zone at 0506, then into the sea at 0405: 6.0 and 5.21; nothing after it is followed.
    zoc_then_sea = run(case(units, moves=[move("us-1", "0505", "0506", "0405", "0909")], sea=["0405"]))
    assert _errors(zoc_then_sea) == [("5.21", "us-1"), ("6.0", "us-1")]
    # A jump to a sea hex breaks both 5.0 and 5.21.
    jump = run(case(units, moves=[move("us-1", "0302")], sea=["0302"]))
    assert _errors(jump) == [("5.0", "us-1"), ("5.21", "us-1")]


def test_i20_steps_before_the_failing_one_are_paid_for_and_none_after():
    units = [inf("us-1", "US", "0502", m=2), inf("jp-1", "JP", "0909", a=2, d=3)]
    over = run(case(units, moves=[move("us-1", "0503", "0504")], terrain={"0503": "rough"}, sea=["0504"]))
    assert _errors(over) == [("5.13", "us-1"), ("5.21", "us-1")]
    # The rough hex after the sea is never reached, so no MP problem.
    short = run(case(units, moves=[move("us-1", "0503", "0504", "0505")], sea=["0503"], terrain={"0505": "mountain"}))
    assert _errors(short) == [("5.21", "us-1")]


def test_i20_6_14_counts_only_steps_that_are_taken():
    units = [inf("us-1", "US", "0506"), inf("jp-1", "JP", "0507", a=2, d=3, m=6)]
    out = run(case(units, moves=[move("jp-1", "0509", "0510")], phasing="JP", attacks=[{"attackers": ["jp-1"], "defenders": ["us-1"]}], dice=[3]))
    assert _errors(out) == [("5.0", "jp-1")]


def test_i20_a_faulty_move_leaves_its_unit_where_it_started():
    # us-1's move is over its allowance: it stays in 0502, so us-2, moving in, stacks with it (5.31),
    # and it is not next to jp-1 (0507) for the combat check.
    units = [inf("us-1", "US", "0502", m=1), inf("us-2", "US", "0501"), inf("jp-1", "JP", "0507", a=2, d=3)]
    out = run(case(units, moves=[move("us-1", "0503", "0504", "0505", "0506"), move("us-2", "0502")], attacks=[]))
    assert _errors(out) == [("5.13", "us-1"), ("5.31", "us-2")]


def test_i20_a_faulty_reinforcement_stays_off_the_map():
    units = [inf("us-r", "US", "offmap", entry="beach", m=1), inf("jp-1", "JP", "0507", a=2, d=3)]
    out = run(case(units, moves=[move("us-r", "0506", enter="0505")], attacks=[], beaches=["0505"]))
    assert _errors(out) == [("5.13", "us-r")]  # not next to jp-1: no 7.11, 7.12 or 12.22
    assert where(out, "us-r") == "offmap"


# -- Leyte 12.42 air assault (I21) ---------------------------------------------------

LEYTE = {"edition": "dg-2009", "exclusive": "leyte"}


def air_assault(entry=None):
    extra = {"entry": entry} if entry else {}
    return inf("jp-aa", "JP", "offmap", a=2, d=2, kind="airassault", **extra)


def test_i21_air_assault_lands_anywhere_empty_under_leyte_only():
    units = [air_assault("edge"), inf("us-1", "US", "0909")]
    leyte = run(case(units, moves=[move("jp-aa", "0504", enter="0505")], phasing="JP", edges=["0101"], ruleset=LEYTE))
    assert leyte["valid"] and where(leyte, "jp-aa") == "0504"
    plain = run(case(units, moves=[move("jp-aa", "0504", enter="0505")], phasing="JP", edges=["0101"]))
    assert rules(plain) == {"12.23"}
    no_entry = run(case([air_assault(), inf("us-1", "US", "0909")], moves=[move("jp-aa", enter="0505")], phasing="JP"))
    assert rules(no_entry) == {"12.2"}


def test_i21_air_assault_full_allowance_after_landing_and_12_22_in_enemy_control():
    units = [air_assault(), inf("us-1", "US", "0507")]
    far = run(case(units, moves=[move("jp-aa", "0102", "0103", "0104", "0105", "0106", "0107", enter="0101")], phasing="JP", ruleset=LEYTE))
    assert rules(far) == {"5.13"}  # 6 MP against its allowance of 5: the landing itself costs nothing
    close = run(case(units, moves=[move("jp-aa", "0505", enter="0506")], phasing="JP", ruleset=LEYTE))
    assert rules(close) == {"12.22"}  # its move faulty, it stays off the map: nothing else follows (I20)
    assert where(close, "jp-aa") == "offmap"


def test_i21_air_assault_needs_an_empty_hex_at_that_moment():
    # jp-1 moves out of 0505 before reinforcements come in (12.1), so jp-aa may land there; jp-2 stays in 0305.
    units = [air_assault(), inf("jp-1", "JP", "0505", a=2, d=3), inf("jp-2", "JP", "0305", a=2, d=3), inf("us-1", "US", "0909")]
    moves = [move("jp-aa", enter="0505"), move("jp-1", "0504")]
    assert run(case(units, moves=moves, phasing="JP", ruleset=LEYTE))["valid"]
    assert _errors(run(case(units, moves=[move("jp-aa", enter="0305")], phasing="JP", ruleset=LEYTE))) == [("12.42", "jp-aa")]
    assert _errors(run(case(units, moves=[move("jp-aa", enter="0909")], phasing="JP", ruleset=LEYTE))) == [("5.12", "jp-aa")]
    assert _errors(run(case(units, moves=[], phasing="JP", ruleset=LEYTE))) == [("12.42", "jp-aa")]


# -- I22, I23: entry hexes -------------------------------------------------------------

def test_i23_an_enemy_in_the_entry_hex_breaks_12_21_on_a_beach_and_5_12_on_an_edge():
    units = [inf("us-b", "US", "offmap", entry="beach"), inf("us-e", "US", "offmap", entry="edge"), inf("jp-1", "JP", "0101", a=2, d=3)]
    out = run(case(units, moves=[move("us-b", enter="0101"), move("us-e", enter="0101")], beaches=["0101"], edges=["0101"]))
    assert _errors(out) == [("12.21", "us-b"), ("5.12", "us-e")]

"""Which attacks are allowed and required (7.1, 7.2, 8.1, 8.3, 9.1, 10.0, 12.22; I13, I18).

Geometry used throughout: 0507's neighbours are 0506 0508 0406 0407 0606 0607;
0506's are 0505 0507 0405 0406 0605 0606.
"""

from tests.casebuilder import art, case, inf, rules, run


def attack(attackers=(), defenders=(), **extra):
    return {"attackers": list(attackers), "defenders": list(defenders), **extra}


def test_7_11_and_7_12_adjacent_units_must_fight():
    out = run(case([inf("us-1", "US", "0506"), inf("jp-1", "JP", "0507")], attacks=[]))
    assert rules(out) == {"7.11", "7.12"}


def test_7_12_every_phasing_unit_in_an_enemy_zone_attacks():
    # Public case IW-CBT-003 in another form: us-2 at 0406 also touches jp-1.
    units = [inf("us-1", "US", "0506"), inf("us-2", "US", "0406"), inf("jp-1", "JP", "0507")]
    out = run(case(units, attacks=[attack(["us-1"], ["jp-1"])], dice=[3]))
    assert rules(out) == {"7.12"}
    assert out["errors"][0]["unit"] == "us-2"


def test_7_14_no_unit_attacks_twice_and_none_is_attacked_twice():
    units = [inf("us-1", "US", "0506"), inf("us-2", "US", "0406"), inf("jp-1", "JP", "0507")]
    twice = run(case(units, attacks=[attack(["us-1"], ["jp-1"]), attack(["us-2"], ["jp-1"])], dice=[3, 3]))
    assert "7.14" in rules(twice)
    units = [inf("us-1", "US", "0506"), inf("jp-1", "JP", "0507"), inf("jp-2", "JP", "0505")]
    attacker_twice = run(case(units, attacks=[attack(["us-1"], ["jp-1"]), attack(["us-1"], ["jp-2"])], dice=[3, 3]))
    assert "7.14" in rules(attacker_twice)


def test_7_15_non_artillery_attacks_only_from_an_adjacent_hex():
    units = [inf("us-1", "US", "0506"), inf("us-2", "US", "0503"), inf("jp-1", "JP", "0507")]
    out = run(case(units, attacks=[attack(["us-1", "us-2"], ["jp-1"])], dice=[3]))
    assert rules(out) == {"7.15"} and out["errors"][0]["unit"] == "us-2"


def test_i20_a_unit_in_contact_aimed_only_at_distant_units_breaks_7_15_not_7_12():
    # us-1 (0506) touches jp-1 (0507) but is listed against jp-2 (0509) alone: it attacks (I20),
    # wrongly (7.15); jp-1, next to units that attack elsewhere, is left unattacked (7.21, 7.11).
    units = [inf("us-1", "US", "0506"), inf("us-2", "US", "0508"), inf("jp-1", "JP", "0507"), inf("jp-2", "JP", "0509")]
    out = run(case(units, attacks=[attack(["us-1", "us-2"], ["jp-2"])], dice=[3]))
    assert rules(out) == {"7.15", "7.11", "7.21"}
    assert {(e["rule"], e["unit"]) for e in out["errors"]} == {("7.15", "us-1"), ("7.11", "jp-1"), ("7.21", "jp-1")}


def test_7_21_an_adjacent_enemy_left_unattacked():
    # us-1 in 0506 touches jp-1 (0507) and jp-2 (0405) but attacks only jp-1.
    units = [inf("us-1", "US", "0506"), inf("jp-1", "JP", "0507"), inf("jp-2", "JP", "0405")]
    out = run(case(units, attacks=[attack(["us-1"], ["jp-1"])], dice=[3]))
    assert rules(out) == {"7.21", "7.11"}
    both = run(case(units, attacks=[attack(["us-1"], ["jp-1", "jp-2"])], dice=[3]))
    assert both["valid"]


def test_7_23_every_attacker_must_touch_every_defender():
    # us-2 in 0407 touches jp-1 (0507) but not jp-2 (0405).
    units = [inf("us-1", "US", "0406"), inf("us-2", "US", "0407"), inf("jp-1", "JP", "0507"), inf("jp-2", "JP", "0405")]
    out = run(case(units, attacks=[attack(["us-1", "us-2"], ["jp-1", "jp-2"])], dice=[3]))
    assert "7.23" in rules(out)
    assert {e["unit"] for e in out["errors"] if e["rule"] == "7.23"} == {"us-2"}


def test_8_11_barrage_needs_range():
    units = [art("us-a", "US", "0901", r=3), inf("jp-1", "JP", "0507")]
    out = run(case(units, attacks=[{"barrage": ["us-a"], "defenders": ["jp-1"]}], dice=[3]))
    assert rules(out) == {"8.11"}
    near = [art("us-a", "US", "0504", r=3), inf("jp-1", "JP", "0507")]
    assert run(case(near, attacks=[{"barrage": ["us-a"], "defenders": ["jp-1"]}], dice=[3]))["valid"]


def test_8_13_a_barrage_alone_strikes_one_hex():
    units = [art("us-a", "US", "0502", r=6), inf("jp-1", "JP", "0507"), inf("jp-2", "JP", "0508")]
    out = run(case(units, attacks=[{"barrage": ["us-a"], "defenders": ["jp-1", "jp-2"]}], dice=[3]))
    assert "8.13" in rules(out)


def test_8_22_a_combined_attack_needs_range_to_one_defender_only():
    # us-a reaches 0507 (distance 5 from 0502) but not 0508 (6): enough in a combined attack.
    units = [
        art("us-a", "US", "0502", r=5),
        inf("us-1", "US", "0407"),
        inf("jp-1", "JP", "0507"),
        inf("jp-2", "JP", "0508"),
    ]
    out = run(case(units, attacks=[{"attackers": ["us-1"], "barrage": ["us-a"], "defenders": ["jp-1", "jp-2"]}], dice=[3]))
    assert out["valid"]


def test_8_31_adjacent_artillery_must_attack_an_adjacent_enemy():
    units = [art("us-a", "US", "0506"), inf("us-1", "US", "0406"), inf("jp-1", "JP", "0507")]
    out = run(case(units, attacks=[attack(["us-1"], ["jp-1"])], dice=[3]))
    assert rules(out) == {"8.31"}
    joined = run(case(units, attacks=[attack(["us-1", "us-a"], ["jp-1"])], dice=[3]))
    assert joined["valid"]


def test_8_31_adjacent_artillery_must_attack():
    units = [art("us-a", "US", "0506"), inf("us-1", "US", "0406"), inf("jp-1", "JP", "0507"), inf("jp-2", "JP", "0509")]
    out = run(case(units, attacks=[attack(["us-1"], ["jp-1"])], dice=[3]))
    assert rules(out) == {"8.31"} and out["errors"][0]["unit"] == "us-a"


def test_8_32_adjacent_artillery_attacks_only_units_it_touches():
    # us-a in 0406 touches jp-1 (0507) but not jp-2 (0508).
    units = [art("us-a", "US", "0406"), inf("us-1", "US", "0407"), inf("jp-1", "JP", "0507"), inf("jp-2", "JP", "0508")]
    out = run(case(units, attacks=[attack(["us-1", "us-a"], ["jp-1", "jp-2"])], dice=[3]))
    assert "8.32" in rules(out)


def test_9_1_ground_support_within_the_allotment():
    units = [inf("us-1", "US", "0506"), inf("jp-1", "JP", "0507")]
    over = run(case(units, attacks=[attack(["us-1"], ["jp-1"], gsp=3)], gsp={"US": 2}, dice=[3]))
    assert rules(over) == {"9.1"}
    within = run(case(units, attacks=[attack(["us-1"], ["jp-1"], gsp=2)], gsp={"US": 2}, dice=[3]))
    assert within["valid"] and within["combats"][0]["attack"] == 7


def test_9_1_ground_support_alone_is_dg_only_refused():
    units = [inf("us-1", "US", "0101"), inf("jp-1", "JP", "0507")]
    alone = {"defenders": ["jp-1"], "gsp": 3}
    dg = run(case(units, attacks=[alone], gsp={"US": 3}, dice=[3]))
    assert rules(dg) == {"9.1"}
    spi = run(case(units, attacks=[alone], gsp={"US": 3}, dice=[3], ruleset={"edition": "spi-1975"}))
    assert spi["valid"]
    assert spi["combats"][0]["attack"] == 3


def test_8_13_ground_support_alone_strikes_a_single_hex_in_spi():
    """9.0 uses Ground Support exactly as artillery, and 8.13 lets a barrage with no unit attacking from an adjacent
    hex strike one hex only: six points at 0505 and 0506 as one attack are refused in spi-1975 (issue 40)."""
    units = [inf("us-1", "US", "0101"), inf("jp-1", "JP", "0505"), inf("jp-2", "JP", "0506")]
    two_hexes = {"defenders": ["jp-1", "jp-2"], "gsp": 6}
    spi = run(case(units, attacks=[two_hexes], gsp={"US": 6}, dice=[3], ruleset={"edition": "spi-1975"}))
    assert not spi["valid"] and rules(spi) == {"8.13"}
    assert "Ground Support" in spi["errors"][0]["message"] and "single hex" in spi["errors"][0]["message"]
    # dg-2009 refuses Ground Support alone outright (9.1), and says so once, not again under 8.13.
    dg = run(case(units, attacks=[two_hexes], gsp={"US": 6}, dice=[3]))
    assert rules(dg) == {"9.1"}
    # Each hex alone is a legal Ground Support attack in spi-1975 (9.12: the points may be split between targets).
    split = run(case(units, attacks=[{"defenders": ["jp-1"], "gsp": 3}, {"defenders": ["jp-2"], "gsp": 3}], gsp={"US": 6},
                     dice=[3, 3], ruleset={"edition": "spi-1975"}))
    assert split["valid"] and [c["attack"] for c in split["combats"]] == [3, 3]


def test_8_13_ground_support_joins_a_combined_attack_on_two_hexes():
    """8.13's exception: with a unit attacking from a hex adjacent to both defenders, Ground Support adds to an attack
    on two hexes (spi-1975 and dg-2009 alike)."""
    units = [inf("us-1", "US", "0405"), inf("jp-1", "JP", "0505"), inf("jp-2", "JP", "0406")]
    both = {"attackers": ["us-1"], "defenders": ["jp-1", "jp-2"], "gsp": 6}
    for ruleset in ({"edition": "spi-1975"}, {"edition": "dg-2009"}):
        out = run(case(units, attacks=[both], gsp={"US": 6}, dice=[3], ruleset=ruleset))
        assert out["valid"], ruleset
        assert out["combats"][0]["attack"] == 5 + 6


def test_10_0_banzai_is_japanese_and_needs_infantry_or_engineers():
    units = [inf("us-1", "US", "0506"), inf("jp-1", "JP", "0507", a=2, d=3)]
    american = run(case(units, attacks=[attack(["us-1"], ["jp-1"], banzai=True)], dice=[3]))
    assert "10.0" in rules(american)
    tanks = [inf("us-1", "US", "0506"), inf("jp-t", "JP", "0507", kind="armor", a=4, d=2)]
    armor_only = run(case(tanks, attacks=[attack(["jp-t"], ["us-1"], banzai=True)], phasing="JP", dice=[3]))
    assert "10.0" in rules(armor_only)


def test_an_attack_against_a_friendly_unit_is_refused():
    units = [inf("us-1", "US", "0506"), inf("us-2", "US", "0507")]
    out = run(case(units, attacks=[attack(["us-1"], ["us-2"])], dice=[3]))
    assert not out["valid"]


def test_7_94_barraging_artillery_never_advances():
    # 5 + 2 - 1 = +6, die 1 on Clear +6,7: D3 — the artillery's advance order is not carried out.
    from tests.casebuilder import where

    units = [art("us-a", "US", "0504", r=4), inf("us-1", "US", "0506"), inf("jp-1", "JP", "0507", d=1)]
    orders = [{"attackers": ["us-1"], "barrage": ["us-a"], "defenders": ["jp-1"], "advance": [{"unit": "us-a", "to": 1}]}]
    out = run(case(units, attacks=orders, dice=[1]))
    assert out["valid"] and out["combats"][0]["result"] == "D3"
    assert where(out, "us-a") == "0504"


def test_i18_adjacent_artillery_listed_against_a_unit_it_does_not_touch_breaks_8_32():
    # us-a in 0506 touches jp-1 (0507) but barrages jp-2 (0509) instead: 8.32, and not 8.31
    # again, for a unit an attack lists attacks (I20).
    units = [art("us-a", "US", "0506"), inf("us-1", "US", "0406"), inf("jp-1", "JP", "0507"), inf("jp-2", "JP", "0509")]
    out = run(case(units, attacks=[attack(["us-1"], ["jp-1"]), {"barrage": ["us-a"], "defenders": ["jp-2"]}], dice=[3, 3]))
    assert rules(out) == {"8.32"}


# -- I20: every problem, once ------------------------------------------------------

def _errors(out):
    return {(e["rule"], e["unit"]) for e in out["errors"]}


def test_i20_a_unit_attacking_twice_is_checked_in_its_second_attack():
    # us-1 (0506) and us-2 (0508) take jp-1 (0507), then both go again for jp-2 (0509), which us-1 does not touch.
    units = [inf("us-1", "US", "0506"), inf("us-2", "US", "0508"), inf("jp-1", "JP", "0507"), inf("jp-2", "JP", "0509")]
    out = run(case(units, attacks=[attack(["us-1", "us-2"], ["jp-1"]), attack(["us-2", "us-1"], ["jp-2"])], dice=[3, 3]))
    assert _errors(out) == {("7.14", "us-1"), ("7.14", "us-2"), ("7.15", "us-1")}


def test_i20_a_defender_attacked_twice_still_counts_for_7_23():
    # us-2 (0607) touches jp-1 (0507, already attacked) but not jp-3 (0609): 7.23, not 7.15, and no 7.12.
    units = [inf("us-1", "US", "0506"), inf("us-2", "US", "0607"), inf("jp-1", "JP", "0507"), inf("jp-2", "JP", "0405"), inf("jp-3", "JP", "0609")]
    out = run(case(units, attacks=[attack(["us-1"], ["jp-1", "jp-2"]), attack(["us-2"], ["jp-1", "jp-3"])], dice=[3, 3]))
    assert _errors(out) == {("7.14", "jp-1"), ("7.23", "us-2")}


def test_i20_a_unit_attacking_twice_still_makes_its_banzai_and_its_combined_barrage_legal():
    # jp-1 (0506) attacks us-1 (0507), then again in a Banzai with a barrage on us-2 (0405) and us-3 (0605),
    # both next to it: it is an adjacent infantry unit of that attack, so neither 10.0 nor 8.13 is owed.
    units = [inf("us-1", "US", "0507"), inf("us-2", "US", "0405"), inf("us-3", "US", "0605"),
             inf("jp-1", "JP", "0506", a=2, d=3), art("jp-a", "JP", "0502", r=6)]
    out = run(case(units, phasing="JP", attacks=[
        attack(["jp-1"], ["us-1"]),
        {"attackers": ["jp-1"], "barrage": ["jp-a"], "defenders": ["us-2", "us-3"], "banzai": True},
    ], dice=[3, 3]))
    assert _errors(out) == {("7.14", "jp-1")}


def test_i20_12_22_holds_artillery_reinforcements_too_and_not_those_that_attack():
    units = [art("us-a", "US", "offmap", entry="beach"), inf("us-1", "US", "offmap", entry="beach"), inf("jp-1", "JP", "0506", a=2, d=3)]
    moves = [{"unit": "us-a", "enter": "0505", "path": []}, {"unit": "us-1", "enter": "0507", "path": []}]
    idle = run(case(units, moves=moves, attacks=[], beaches=["0505", "0507"]))
    assert _errors(idle) == {("8.31", "us-a"), ("12.22", "us-a"), ("7.12", "us-1"), ("12.22", "us-1"), ("7.11", "jp-1")}
    fighting = run(case(units, moves=moves, attacks=[attack(["us-a", "us-1"], ["jp-1"])], beaches=["0505", "0507"], dice=[3]))
    assert fighting["valid"]

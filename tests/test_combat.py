"""Combat resolution (7.4-7.6, 8.1-8.4, 9.0, 10.0, Leyte 13-14; I1-I5, I9, I12-I15).

Around 0507: 0506 0508 0406 0407 0606 0607.  Die rows are read from 7.61 by hand
in each test's comment.
"""

from tests.casebuilder import art, case, combat, events_of, inf, run, where

LEYTE = {"exclusive": "leyte"}
SPI = {"edition": "spi-1975"}


def attack(attackers=(), defenders=(), **extra):
    return {"attackers": list(attackers), "defenders": list(defenders), **extra}


# -- strengths and lines (I3, I4) --------------------------------------------------

def test_i4_strength_adds_attack_barrage_and_gsp():
    units = [inf("us-1", "US", "0506", a=5), art("us-a", "US", "0504", b=2, r=4), inf("jp-1", "JP", "0507", d=3)]
    out = run(case(units, attacks=[{"attackers": ["us-1"], "barrage": ["us-a"], "gsp": 1, "defenders": ["jp-1"]}], gsp={"US": 1}, dice=[4]))
    c = combat(out)
    assert (c["attack"], c["defense"], c["differential"]) == (8, 3, 5)
    # Clear +4,5 is the 9th column; die 4 there is D1.
    assert (c["column"], c["result"]) == ("+4,5", "D1")


def test_7_45_the_best_line_among_defenders():
    # us-1 (0407) and us-2 (0607) both touch 0507 (clear) and 0508 (rough).
    units = [inf("us-1", "US", "0407"), inf("us-2", "US", "0607"), inf("jp-1", "JP", "0507", d=2), inf("jp-2", "JP", "0508", d=2)]
    out = run(case(units, attacks=[attack(["us-1", "us-2"], ["jp-1", "jp-2"])], terrain={"0508": "rough"}, dice=[5], defense={"retreats": []}))
    assert combat(out)["terrain"] == "rough"


def test_i3_river_only_when_every_adjacent_non_artillery_attacker_crosses_it():
    units = [inf("us-1", "US", "0506"), inf("us-2", "US", "0406"), inf("jp-1", "JP", "0507", d=3)]
    one_river = run(case(units, attacks=[attack(["us-1", "us-2"], ["jp-1"])], rivers=[["0506", "0507"]], dice=[5]))
    assert combat(one_river)["terrain"] == "clear"


def test_i3_adjacent_artillery_does_not_spoil_the_river():
    units = [inf("us-1", "US", "0506"), art("us-a", "US", "0406"), inf("jp-1", "JP", "0507", d=3)]
    out = run(case(units, attacks=[attack(["us-1", "us-a"], ["jp-1"])], rivers=[["0506", "0507"]], dice=[5]))
    assert combat(out)["terrain"] == "river"


def test_7_44_terrain_is_not_cumulative():
    units = [inf("us-1", "US", "0506"), inf("jp-1", "JP", "0507", d=3)]
    out = run(case(units, attacks=[attack(["us-1"], ["jp-1"])], rivers=[["0506", "0507"]], terrain={"0507": "broken"}, dice=[5]))
    assert combat(out)["terrain"] == "broken"


def test_8_62_a_barrage_alone_gets_no_river_benefit():
    units = [art("us-a", "US", "0504", b=4, r=4), inf("jp-1", "JP", "0507", d=3)]
    out = run(case(units, attacks=[{"barrage": ["us-a"], "defenders": ["jp-1"]}], rivers=[["0506", "0507"]], dice=[5]))
    assert combat(out)["terrain"] == "clear"


# -- artillery-only attacks (8.15, I5) -------------------------------------------------

def test_8_15_a_barrage_alone_applies_d2():
    # 12 - 3 = +9: Clear +8,9 column; die 3 gives D2.
    units = [art("us-a", "US", "0504", b=12, r=4), inf("jp-1", "JP", "0507", d=3)]
    out = run(case(units, attacks=[{"barrage": ["us-a"], "defenders": ["jp-1"]}], dice=[3], defense={"retreats": [{"unit": "jp-1", "path": ["0508", "0509"]}]}))
    assert combat(out)["result"] == "D2"
    assert where(out, "jp-1") == "0509"


def test_i5_adjacent_artillery_alone_by_edition():
    # us-a (barrage 4) is adjacent; 4 - 3 = +1, die 1: D1.  dg-2009 applies it; spi-1975 does not.
    units = [art("us-a", "US", "0506", b=4), inf("jp-1", "JP", "0507", d=3)]
    orders = [attack(["us-a"], ["jp-1"])]
    dg = run(case(units, attacks=orders, dice=[1], defense={"retreats": [{"unit": "jp-1", "path": ["0508"]}]}))
    assert combat(dg)["result"] == "D1" and where(dg, "jp-1") == "0508"
    spi = run(case(units, attacks=orders, dice=[1], ruleset=SPI))
    assert combat(spi)["result"] == "D1" and where(spi, "jp-1") == "0507"


def test_8_33_adjacent_artillery_suffers_attacker_results():
    # +1 on Clear, die 6: A1.  The adjacent artillery retreats in both editions.
    units = [art("us-a", "US", "0506", b=4), inf("jp-1", "JP", "0507", d=3)]
    for ruleset in (None, SPI):
        out = run(case(units, attacks=[attack(["us-a"], ["jp-1"])], dice=[6], ruleset=ruleset))
        assert combat(out)["result"] == "A1"
        assert where(out, "us-a") != "0506"


def test_8_14_barraging_artillery_never_suffers():
    # 2 - 9 = -7: die 6 is Ae; barraging artillery is untouched.
    units = [art("us-a", "US", "0504", b=2, r=4), inf("jp-1", "JP", "0507", d=9)]
    out = run(case(units, attacks=[{"barrage": ["us-a"], "defenders": ["jp-1"]}], dice=[6], ruleset=SPI))
    assert combat(out)["result"] == "Ae" and where(out, "us-a") == "0504"


# -- FPF (8.4, 13.1, I12) ---------------------------------------------------------------

def _fpf_position(**jp_art):
    return [
        inf("us-1", "US", "0506", a=5),
        inf("us-2", "US", "0406", a=5),
        inf("jp-1", "JP", "0507", a=2, d=3),
        art("jp-a1", "JP", "0709", b=1, f=3, r=3, d=2, **jp_art),
        art("jp-a2", "JP", "0309", b=1, f=3, r=3, d=2),
    ]


def test_8_43_without_leyte_several_artillery_units_fire_fpf():
    out = run(case(_fpf_position(), attacks=[attack(["us-1", "us-2"], ["jp-1"])], dice=[3],
                   defense={"fpf": [{"artillery": "jp-a1", "defender": "jp-1"}, {"artillery": "jp-a2", "defender": "jp-1"}], "retreats": []}))
    assert combat(out)["defense"] == 9


def test_13_11_leyte_allows_one_fpf_per_attacked_hex():
    out = run(case(_fpf_position(), attacks=[attack(["us-1", "us-2"], ["jp-1"])], dice=[3], ruleset=LEYTE,
                   defense={"fpf": [{"artillery": "jp-a2", "defender": "jp-1"}, {"artillery": "jp-a1", "defender": "jp-1"}], "retreats": []}))
    assert combat(out)["defense"] == 6
    assert [e["artillery"] for e in events_of(out, "fpf")] == ["jp-a2"]


def test_8_42_fpf_needs_range_to_the_defender():
    units = _fpf_position()
    units[3] = art("jp-a1", "JP", "0709", b=1, f=3, r=2, d=2)  # 0709 is three hexes from 0507
    out = run(case(units, attacks=[attack(["us-1", "us-2"], ["jp-1"])], dice=[3], defense={"fpf": [{"artillery": "jp-a1", "defender": "jp-1"}]}))
    assert combat(out)["defense"] == 3


def test_8_41_no_fpf_after_an_adverse_result_last_phase():
    out = run(case(_fpf_position(no_fpf=True), attacks=[attack(["us-1", "us-2"], ["jp-1"])], dice=[3], defense={"fpf": [{"artillery": "jp-a1", "defender": "jp-1"}]}))
    assert combat(out)["defense"] == 3


def test_8_41_no_fpf_from_artillery_next_to_an_enemy():
    units = _fpf_position()
    units.append(inf("us-3", "US", "0809"))  # 0809 touches 0709
    attacks = [attack(["us-1", "us-2"], ["jp-1"]), attack(["us-3"], ["jp-a1"])]
    out = run(case(units, attacks=attacks, dice=[3, 4], defense={"fpf": [{"artillery": "jp-a1", "defender": "jp-1"}], "retreats": []}))
    assert combat(out, 1)["defense"] == 3


def test_8_45_no_fpf_against_artillery_and_ground_support_alone():
    units = [art("us-a", "US", "0504", b=4, r=4), inf("jp-1", "JP", "0507", d=3), art("jp-a1", "JP", "0709", f=3, r=3)]
    out = run(case(units, attacks=[{"barrage": ["us-a"], "defenders": ["jp-1"]}], dice=[5], defense={"fpf": [{"artillery": "jp-a1", "defender": "jp-1"}]}))
    assert combat(out)["defense"] == 3


def test_i12_an_artillery_unit_gives_fpf_once_per_phase():
    # jp-2 (0711) is two hexes from jp-a1 (0709) and touches only us-3 (0712).
    units = _fpf_position() + [inf("us-3", "US", "0712"), inf("jp-2", "JP", "0711", d=3)]
    fpf = [{"artillery": "jp-a1", "defender": "jp-1"}, {"artillery": "jp-a1", "defender": "jp-2"}]
    out = run(case(units, attacks=[attack(["us-1", "us-2"], ["jp-1"]), attack(["us-3"], ["jp-2"])], dice=[3, 5], rows=14, defense={"fpf": fpf, "retreats": []}))
    assert combat(out, 1)["defense"] == 6
    assert combat(out, 2)["defense"] == 3


def test_i12_an_artillery_unit_made_to_retreat_gives_no_fpf_later():
    # Combat 1: 10 - 1 = +9, die 6: D1 — jp-a retreats.  Combat 2: its FPF entry is dropped.
    units = [
        inf("us-1", "US", "0506", a=10),
        art("jp-a", "JP", "0507", f=3, r=9, d=1),
        inf("us-2", "US", "0901"),
        inf("jp-1", "JP", "0902", d=3),
    ]
    out = run(case(units, attacks=[attack(["us-1"], ["jp-a"]), attack(["us-2"], ["jp-1"])], dice=[6, 5],
                   defense={"fpf": [{"artillery": "jp-a", "defender": "jp-1"}]}))
    assert combat(out, 1)["result"] == "D1"
    assert where(out, "jp-a") != "0507"
    assert combat(out, 2)["defense"] == 3


def test_gsp_as_fpf_without_leyte_and_never_with_it():
    units = [inf("us-1", "US", "0506"), inf("jp-1", "JP", "0507", d=3)]
    defense = {"gsp_fpf": [{"defender": "jp-1", "points": 2}], "retreats": []}
    plain = run(case(units, attacks=[attack(["us-1"], ["jp-1"])], gsp={"JP": 2}, dice=[5], defense=defense))
    assert combat(plain)["defense"] == 5
    leyte = run(case(units, attacks=[attack(["us-1"], ["jp-1"])], gsp={"JP": 2}, dice=[5], defense=defense, ruleset=LEYTE))
    assert combat(leyte)["defense"] == 3


def test_i13_gsp_fpf_beyond_the_allotment_is_dropped():
    units = [inf("us-1", "US", "0506"), inf("jp-1", "JP", "0507", d=3)]
    out = run(case(units, attacks=[attack(["us-1"], ["jp-1"])], gsp={"JP": 1}, dice=[5], defense={"gsp_fpf": [{"defender": "jp-1", "points": 2}]}))
    assert combat(out)["defense"] == 3


def test_the_fpf_policy_helps_when_it_changes_the_odds():
    # No standing choice: the system gives FPF (3) and moves 8-3=+5 to 8-6=+2.
    units = [inf("us-1", "US", "0506", a=5), inf("us-2", "US", "0406", a=3), inf("jp-1", "JP", "0507", d=3), art("jp-a1", "JP", "0709", f=3, r=3)]
    out = run(case(units, attacks=[attack(["us-1", "us-2"], ["jp-1"])], dice=[3]))
    assert combat(out)["defense"] == 6
    assert events_of(out, "fpf")[0]["chosen_by"] == "system"


# -- Banzai (10.0, I14) ------------------------------------------------------------------

def _banzai_position():
    return [
        inf("us-1", "US", "0507", a=5, d=3),
        inf("jp-1", "JP", "0506", a=2, d=3),
        inf("jp-2", "JP", "0406", a=3, d=3),
        inf("jp-3", "JP", "0606", a=1, d=2, kind="engineer"),
    ]


def test_10_banzai_doubles_infantry_and_engineers_and_costs_the_fewest_units():
    # (2+3+1) x 2 = 12 against 3: +9, die 6 on Clear +8,9 is D1.
    out = run(case(_banzai_position(), phasing="JP", attacks=[attack(["jp-1", "jp-2", "jp-3"], ["us-1"], banzai=True)], dice=[6]))
    c = combat(out)
    assert (c["attack"], c["result"]) == (12, "D1")
    assert where(out, "jp-2") == "eliminated"  # one unit of 3 covers the debt of 3
    assert where(out, "jp-1") == "0506" and where(out, "jp-3") == "0606"
    assert where(out, "us-1") == "0508"  # the one hex free of Japanese control


def test_10_banzai_losses_in_the_players_order_in_spi():
    order = ["jp-1", "jp-3", "jp-2"]
    out = run(case(_banzai_position(), phasing="JP", ruleset=SPI,
                   attacks=[attack(["jp-1", "jp-2", "jp-3"], ["us-1"], banzai=True, banzai_losses=order)], dice=[6]))
    assert {u for u in ("jp-1", "jp-2", "jp-3") if where(out, u) == "eliminated"} == {"jp-1", "jp-3"}


def test_i14_a_players_entry_out_of_10_12s_order_is_dropped_for_good():
    # Debt 5. jp-t comes first in the list while infantry is left: dropped. jp-1 and jp-2 pay 3;
    # the 2 still owed falls to the dg-2009 rule among the armor: the smaller jp-t2 (3), not jp-t.
    units = [inf("us-1", "US", "0507", d=5), inf("jp-1", "JP", "0506", a=2), inf("jp-2", "JP", "0406", a=1),
             inf("jp-t", "JP", "0606", a=4, kind="armor"), inf("jp-t2", "JP", "0607", a=3, kind="armor")]
    order = ["jp-t", "jp-1", "jp-2"]
    out = run(case(units, phasing="JP", ruleset=SPI, defense={"retreats": []},
                   attacks=[attack(["jp-1", "jp-2", "jp-t", "jp-t2"], ["us-1"], banzai=True, banzai_losses=order)], dice=[6]))
    assert combat(out)["attack"] == 13
    assert {u for u in ("jp-1", "jp-2", "jp-t", "jp-t2") if where(out, u) == "eliminated"} == {"jp-1", "jp-2", "jp-t2"}


def test_10_12_armor_is_given_up_after_infantry_falls_short():
    units = [inf("us-1", "US", "0507", d=3), inf("jp-1", "JP", "0506", a=1), inf("jp-t", "JP", "0406", a=4, kind="armor")]
    # 1 x 2 + 4 = 6 against 3: +3, die 1 on Clear +2,3 is D2.
    out = run(case(units, phasing="JP", attacks=[attack(["jp-1", "jp-t"], ["us-1"], banzai=True)], dice=[1], defense={"retreats": []}))
    assert combat(out)["attack"] == 6
    assert where(out, "jp-1") == "eliminated" and where(out, "jp-t") == "eliminated"


def test_i14_equal_units_the_earliest_listed_is_lost():
    units = [inf("us-1", "US", "0507", d=3), inf("jp-1", "JP", "0506", a=3), inf("jp-2", "JP", "0406", a=3)]
    out = run(case(units, phasing="JP", attacks=[attack(["jp-2", "jp-1"], ["us-1"], banzai=True)], dice=[6], defense={"retreats": []}))
    assert where(out, "jp-2") == "eliminated" and where(out, "jp-1") == "0506"


# -- Leyte 14.1 (I15) ---------------------------------------------------------------------

def test_14_1_japanese_attackers_in_rough_ignore_a1():
    # 2 - 5 = -3: Clear -4,3 column, die 2 is A1.
    units = [inf("us-1", "US", "0507", d=5), inf("jp-1", "JP", "0506", a=2)]
    plain = run(case(units, phasing="JP", attacks=[attack(["jp-1"], ["us-1"])], dice=[2], terrain={"0506": "rough"}))
    assert combat(plain)["result"] == "A1" and where(plain, "jp-1") != "0506"
    leyte = run(case(units, phasing="JP", attacks=[attack(["jp-1"], ["us-1"])], dice=[2], terrain={"0506": "rough"}, ruleset=LEYTE))
    assert combat(leyte)["result"] == "A1" and where(leyte, "jp-1") == "0506"


def test_14_1_americans_gain_nothing_from_rough():
    # 11 - 3 = +8 on the Rough line (+8,9), die 1 is D2; the American retreats the full two hexes.
    units = [inf("jp-1", "JP", "0506", a=11), inf("us-1", "US", "0507", d=3)]
    out = run(case(units, phasing="JP", attacks=[attack(["jp-1"], ["us-1"])], dice=[1], terrain={"0507": "rough"}, ruleset=LEYTE,
                   defense={"retreats": [{"unit": "us-1", "path": ["0508", "0509"]}]}))
    assert combat(out)["result"] == "D2" and where(out, "us-1") == "0509"


# -- results, advance after combat (7.62, 7.9, I8) ---------------------------------------

def test_de_and_advance_into_the_vacated_hex():
    # 10 - 1 = +9, die 1 on Clear +8,9: De.
    units = [inf("us-1", "US", "0506", a=10), inf("jp-1", "JP", "0507", d=1)]
    out = run(case(units, attacks=[attack(["us-1"], ["jp-1"], advance=[{"unit": "us-1", "to": 3}])], dice=[1]))
    assert combat(out)["result"] == "De"
    assert where(out, "jp-1") == "eliminated" and where(out, "us-1") == "0507"


def test_ae_eliminates_every_adjacent_attacker():
    # 2 - 9 = -7, die 6: Ae.
    units = [inf("us-1", "US", "0506", a=1), inf("us-2", "US", "0406", a=1), inf("jp-1", "JP", "0507", d=9)]
    out = run(case(units, attacks=[attack(["us-1", "us-2"], ["jp-1"])], dice=[6]))
    assert combat(out)["result"] == "Ae"
    assert where(out, "us-1") == where(out, "us-2") == "eliminated"


def test_i8_two_units_advance_into_distinct_hexes():
    # 10 - 1 = +9, die 3: D2.  The path of retreat is 0507, 0508.
    units = [inf("us-1", "US", "0506", a=5), inf("us-2", "US", "0406", a=5), inf("jp-1", "JP", "0507", d=1)]
    orders = [attack(["us-1", "us-2"], ["jp-1"], advance=[{"unit": "us-1", "to": 2}, {"unit": "us-2", "to": 2}])]
    out = run(case(units, attacks=orders, dice=[3], defense={"retreats": [{"unit": "jp-1", "path": ["0508", "0509"]}]}))
    assert combat(out)["result"] == "D2"
    assert (where(out, "jp-1"), where(out, "us-1"), where(out, "us-2")) == ("0509", "0508", "0507")


def test_7_91_defender_advances_after_an_attacker_retreat():
    # 1 - 10 = -9, die 1: A1.
    units = [inf("us-1", "US", "0506", a=1), inf("jp-1", "JP", "0507", d=10)]
    orders = [attack(["us-1"], ["jp-1"], retreats=[{"unit": "us-1", "path": ["0505"]}])]
    stays = run(case(units, attacks=orders, dice=[1]))
    assert where(stays, "us-1") == "0505" and where(stays, "jp-1") == "0507"
    follows = run(case(units, attacks=orders, dice=[1], defense={"advances": [{"unit": "jp-1", "to": 1}]}))
    assert where(follows, "jp-1") == "0506"


def test_an_attack_without_advance_orders_advances_nobody():
    units = [inf("us-1", "US", "0506", a=10), inf("jp-1", "JP", "0507", d=1)]
    out = run(case(units, attacks=[attack(["us-1"], ["jp-1"])], dice=[1]))
    assert where(out, "us-1") == "0506"


# -- later combats (I9, 7.83) ---------------------------------------------------------------

def test_i9_a_displaced_defender_is_no_longer_attacked():
    # The public displacement position: jp-2 is pushed from 0506 to 0507, so the barrage on it is cancelled.
    units = [
        inf("us-1", "US", "0404"), inf("us-2", "US", "0504"), inf("us-3", "US", "0604"),
        inf("us-4", "US", "0306", a=3, d=2), inf("us-5", "US", "0707", a=3, d=2),
        inf("jp-1", "JP", "0505", a=2, d=3), inf("jp-2", "JP", "0506", a=2, d=3),
        art("us-a", "US", "0502", r=5),
    ]
    orders = [attack(["us-1", "us-2", "us-3"], ["jp-1"]), {"barrage": ["us-a"], "defenders": ["jp-2"]}]
    out = run(case(units, attacks=orders, dice=[6, 1]))
    assert combat(out, 2) == {"index": 2, "status": "cancelled"}
    assert out["dice_used"] == 1
    assert where(out, "jp-2") == "0507"


def test_i9_displaced_artillery_that_has_not_fired_cannot_fire():
    # Combat 1: 1 - 5 = -4, die 2: A1.  us-1's only way out is 0505, where us-a stands:
    # us-a is displaced to 0504, and its barrage in combat 2 is cancelled.
    units = [
        inf("us-1", "US", "0506", a=1),
        art("us-a", "US", "0505", r=5),
        inf("jp-1", "JP", "0507", d=5),
        inf("jp-2", "JP", "0305", d=3),
        inf("jp-3", "JP", "0705", d=3),
    ]
    orders = [attack(["us-1"], ["jp-1"]), {"barrage": ["us-a"], "defenders": ["jp-2"]}]
    out = run(case(units, attacks=orders, dice=[2, 6]))
    assert combat(out, 1)["result"] == "A1"
    assert (where(out, "us-1"), where(out, "us-a")) == ("0505", "0504")
    assert combat(out, 2)["status"] == "cancelled" and out["dice_used"] == 1


def test_the_engine_is_deterministic():
    units = [inf("us-1", "US", "0506", a=5), inf("us-2", "US", "0406", a=3), inf("jp-1", "JP", "0507", d=3), art("jp-a1", "JP", "0709", f=3, r=3)]
    doc = case(units, attacks=[attack(["us-1", "us-2"], ["jp-1"])], dice=[2])
    assert run(doc) == run(doc)

"""Retreat (7.7), displacement (7.8) and the Path of Retreat (7.91) as I6-I8 read them.

The displacement positions start from the public case IW-RET-001: us-1..us-3
(0404 0504 0604) attack jp-1 in 0505; us-4 (0306) and us-5 (0707) control
0405 0406 and 0606 0607, so jp-1's one way out is 0506.  Die 6 at +12 is D1.
"""

from tests.casebuilder import case, combat, events_of, inf, run, where

RING = [
    inf("us-1", "US", "0404"),
    inf("us-2", "US", "0504"),
    inf("us-3", "US", "0604"),
    inf("us-4", "US", "0306", a=3, d=2),
    inf("us-5", "US", "0707", a=3, d=2),
    inf("jp-1", "JP", "0505", a=2, d=3),
]
ATTACK = [{"attackers": ["us-1", "us-2", "us-3"], "defenders": ["jp-1"]}]


def test_7_73_vacant_hexes_first():
    out = run(case(RING, attacks=ATTACK, dice=[6]))
    assert combat(out)["result"] == "D1"
    assert where(out, "jp-1") == "0506"
    assert events_of(out, "displaced") == []


def test_7_81_displacement_when_the_only_route_is_occupied():
    out = run(case(RING + [inf("jp-2", "JP", "0506")], attacks=ATTACK, dice=[6]))
    assert (where(out, "jp-1"), where(out, "jp-2")) == ("0506", "0507")
    assert events_of(out, "displaced") == [{"type": "displaced", "unit": "jp-2", "from": "0506", "to": "0507", "by": "jp-1"}]


def test_7_82_a_chain_of_displacement():
    # jp-2's only way out is 0507, held by jp-3, which can step to 0407 or 0508.
    out = run(case(RING + [inf("jp-2", "JP", "0506"), inf("jp-3", "JP", "0507")], attacks=ATTACK, dice=[6]))
    assert (where(out, "jp-1"), where(out, "jp-2")) == ("0506", "0507")
    assert where(out, "jp-3") in ("0407", "0508")
    assert [e["unit"] for e in events_of(out, "displaced")] == ["jp-3", "jp-2"]


def test_7_82_when_a_displaced_unit_would_die_the_retreating_unit_dies_instead():
    # us-6 in 0408 controls 0407 and 0508: jp-3 cannot move, so nobody is displaced.
    units = RING + [inf("jp-2", "JP", "0506"), inf("jp-3", "JP", "0507"), inf("us-6", "US", "0408", a=3, d=2)]
    out = run(case(units, attacks=ATTACK, dice=[6]))
    assert where(out, "jp-1") == "eliminated"
    assert (where(out, "jp-2"), where(out, "jp-3")) == ("0506", "0507")
    assert events_of(out, "displaced") == []


def test_7_74_no_way_out_eliminates_in_place():
    out = run(case(RING + [inf("us-6", "US", "0507", a=3, d=2)], attacks=ATTACK, dice=[6]))
    # us-6 in 0507 controls 0506 too; jp-1 cannot leave 0505.
    assert where(out, "jp-1") == "eliminated"
    assert events_of(out, "retreated")[0]["path"] == []


def _partial_position():
    # us-1, us-2 attack jp-1 in 0507 (10 - 1 = +9; die 3 on Clear +8,9: D2).  jp-1 may step
    # to 0508 or 0607, but every hex two away (0408 0509 0608 0707 0708) is American-controlled.
    return [
        inf("us-1", "US", "0506"),
        inf("us-2", "US", "0406"),
        inf("us-3", "US", "0709", a=1, d=1),
        inf("us-4", "US", "0409", a=1, d=1),
        inf("us-5", "US", "0806", a=1, d=1),
        inf("jp-1", "JP", "0507", a=2, d=1),
    ]


def test_7_74_a_partial_retreat_ends_in_elimination_and_leaves_its_path():
    orders = [{"attackers": ["us-1", "us-2"], "defenders": ["jp-1"], "advance": [{"unit": "us-1", "to": 2}]}]
    out = run(case(_partial_position(), attacks=orders, dice=[3], defense={"retreats": [{"unit": "jp-1", "path": ["0508", "0509"]}]}))
    assert combat(out)["result"] == "D2"
    assert where(out, "jp-1") == "eliminated"
    retreat = events_of(out, "retreated")[0]
    assert retreat["path"] == ["0508"] and retreat["eliminated"]
    # I8: the Path of Retreat runs to the hex of elimination, so us-1 reaches 0508.
    assert where(out, "us-1") == "0508"


def test_i6_a_retreat_moves_away_every_step():
    # A D2 retreat that could only go sideways on its second step is not a full retreat.
    orders = [{"attackers": ["us-1", "us-2"], "defenders": ["jp-1"]}]
    out = run(case(_partial_position(), attacks=orders, dice=[3]))
    assert where(out, "jp-1") == "eliminated"


def test_a_chosen_route_is_used_when_legal():
    units = [inf("us-1", "US", "0506", a=10), inf("jp-1", "JP", "0507", d=1)]
    orders = [{"attackers": ["us-1"], "defenders": ["jp-1"]}]
    # 10 - 1 = +9, die 6: D1.  Three hexes are open; the player picks 0407.
    out = run(case(units, attacks=orders, dice=[6], defense={"retreats": [{"unit": "jp-1", "path": ["0407"]}]}))
    assert where(out, "jp-1") == "0407"
    assert events_of(out, "retreated")[0]["chosen_by"] == "player"


def test_an_illegal_chosen_route_is_replaced_by_the_system():
    units = [inf("us-1", "US", "0506", a=10), inf("jp-1", "JP", "0507", d=1)]
    orders = [{"attackers": ["us-1"], "defenders": ["jp-1"]}]
    # 0606 is next to us-1: a retreat may not enter an enemy-controlled hex (7.71).
    out = run(case(units, attacks=orders, dice=[6], defense={"retreats": [{"unit": "jp-1", "path": ["0606"]}]}))
    assert where(out, "jp-1") in ("0407", "0508", "0607")
    assert events_of(out, "retreated")[0]["chosen_by"] == "system"


def test_7_73_a_route_through_a_friend_is_refused_while_a_vacant_one_exists():
    units = [inf("us-1", "US", "0506", a=10), inf("jp-1", "JP", "0507", d=1), inf("jp-2", "JP", "0508")]
    orders = [{"attackers": ["us-1"], "defenders": ["jp-1"]}]
    out = run(case(units, attacks=orders, dice=[6], defense={"retreats": [{"unit": "jp-1", "path": ["0508"]}]}))
    assert where(out, "jp-1") in ("0407", "0607")
    assert where(out, "jp-2") == "0508"


def test_7_72_prohibited_hexsides_and_sea_close_retreat_routes():
    units = [inf("us-1", "US", "0506", a=10), inf("jp-1", "JP", "0507", d=1)]
    orders = [{"attackers": ["us-1"], "defenders": ["jp-1"]}]
    out = run(case(units, attacks=orders, dice=[6], sea=["0508", "0607"], prohibited=[["0507", "0407"]]))
    assert where(out, "jp-1") == "eliminated"


def test_the_system_prefers_the_safer_hex():
    # From 0507 jp-1 may go to 0407, 0508 or 0607.  us-1 is two hexes from each;
    # us-2 (0309) is two from 0407 and 0508 but three from 0607: the system picks 0607.
    units = [inf("us-1", "US", "0506", a=10), inf("us-2", "US", "0309", a=1, d=1), inf("jp-1", "JP", "0507", d=1)]
    out = run(case(units, attacks=[{"attackers": ["us-1"], "defenders": ["jp-1"]}], dice=[6]))
    assert where(out, "jp-1") == "0607"

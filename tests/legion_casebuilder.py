"""Writes the Legion conformance cases of examples/cases/legion/ (issue 39): ``python tests/legion_casebuilder.py``.

Each case is written out in full — map, units, orders, dice and the outcome
the rule text demands, worked out by hand from the rule case and the tables
the case carries (the shipped, assumed charts, copied into every case that
rolls on them, so that the case checks the procedure whatever values pbem
ships later).  The builder only saves typing; it computes no expectation.
"""

from __future__ import annotations

import json
from pathlib import Path

from pbem.engine import hexes

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "examples" / "cases" / "legion"
CHARTS = ROOT / "pbem" / "systems" / "legion" / "data" / "charts"


def chart(name: str) -> dict:
    return json.loads((CHARTS / f"{name}.json").read_text())


def unit(id, side, hex, a=4, d=4, m=4, type="infantry", size="battalion", **kw):
    return {"id": id, "side": side, "type": type, "size": size, "attack": a, "defense": d, "move": m, "hex": hex, **kw}


def art(id, side, hex, bs=6, rng=6, d=2, m=3, size="battalion", **kw):
    return unit(id, side, hex, a=0, d=d, m=m, type="artillery", size=size, bs=bs, range=rng, **kw)


def adjacent(a: str, b: str) -> None:
    assert hexes.adjacent(a, b), f"{a} and {b} are not adjacent"


CASES: list[dict] = []


def case(id, title, rules, units, orders=None, *, expect, phase="movement", phasing="US", terrain=None, dice=(), uses=(), **extra):
    doc = {
        "case": id, "title": title, "rules": rules, "ruleset": {"system": "legion-2010"},
        "map": {"cols": 8, "rows": 6, "terrain": terrain or {}, **extra.pop("map", {})},
        "units": units, "position": {"turn": extra.pop("turn", 2), "phasing": phasing, "phase": phase, "first_player": extra.pop("first_player", "US"),
                                     **({"pm_turns": extra.pop("pm_turns")} if "pm_turns" in extra else {})},
        "orders": orders or {}, "dice": list(dice), "expect": expect,
    }
    if uses:
        doc["charts"] = {name: chart(name) for name in uses}
    for key, value in extra.items():
        doc[key] = value
    CASES.append(doc)


FAR_JP = unit("jp-far", "JP", "0806", 2, 3, 3)
FAR_US = unit("us-far", "US", "0106", 2, 3, 3)

# -- 3, 8: classes, sizes and Stacking Points -----------------------------------------------------------
case("LW-STK-001", "Three battalions fill a clear hex (9 SPs): a company more breaks the limit", ["3A.2", "3A.4", "8"],
     [unit("us-a", "US", "0303"), unit("us-b", "US", "0303"), unit("us-c", "US", "0303"), unit("us-co", "US", "0304", size="company"), FAR_JP],
     {"moves": [{"units": ["us-co"], "path": ["0303"]}]}, expect={"valid": False, "error_rules": ["8"]}, uses=("stacking",),
     notes="8: at the end of the Movement Phase no hex may exceed its limit. The case carries the Stacking tables: battalion 3 SPs (11A.3 example), company 1, clear hex 9 SPs.")
case("LW-STK-002", "Artillery stacks beyond the limit in the additional artillery SPs; an HQ counts 0 SPs", ["3A.3", "8", "16C.2"],
     [unit("us-a", "US", "0303"), unit("us-b", "US", "0303"), unit("us-c", "US", "0303"), art("us-art", "US", "0304"),
      unit("us-hq", "US", "0302", 0, 1, 4, type="hq", size="company"), FAR_JP],
     {"moves": [{"units": ["us-art"], "path": ["0303"]}, {"units": ["us-hq"], "path": ["0303"]}]},
     expect={"valid": True, "units": {"us-art": {"hex": "0303"}, "us-hq": {"hex": "0303"}}}, uses=("stacking",))

# -- 4: the sequence of play --------------------------------------------------------------------------------
case("LW-SEQ-001", "Exploitation moves wait for the Exploitation Phase", ["4", "6C.1"],
     [unit("us-tk", "US", "0303", 5, 3, 8, type="tank", size="company"), FAR_JP],
     {"exploitation": [{"units": ["us-tk"], "path": ["0304"]}]}, expect={"valid": False, "error_rules": ["4"]})
case("LW-SEQ-002", "The second player's Exploitation Phase ends the Game-Turn; a C/M unit exploits with half its MA", ["4", "6C.1"],
     [unit("us-tk", "US", "0303", 5, 3, 8, type="tank", size="company"), FAR_JP],
     {"exploitation": [{"units": ["us-tk"], "path": ["0304", "0305", "0306", "0406"]}]}, phase="exploitation", first_player="JP",
     expect={"valid": True, "units": {"us-tk": {"hex": "0406"}}, "position": {"turn": 3, "phasing": "JP", "phase": "movement"}})
case("LW-SEQ-003", "After the Combat Phase the position awaits the same player's exploitation orders", ["4"],
     [unit("us-a", "US", "0303"), FAR_JP], {}, phase="combat",
     expect={"valid": True, "position": {"turn": 2, "phasing": "US", "phase": "exploitation"}})

# -- 5: zones of control and hex ownership ---------------------------------------------------------------------
adjacent("0303", "0403")
case("LW-ZOC-001", "Leaving an enemy ZOC costs the Enemy ZOC Movement Cost Table's MPs", ["5A", "6A.3"],
     [unit("us-a", "US", "0303", m=2), unit("jp-a", "JP", "0403")],
     {"moves": [{"units": ["us-a"], "path": ["0302", "0301"]}]}, expect={"valid": False, "error_rules": ["6A.2"]}, uses=("zoc",),
     notes="1 MP to leave jp-a's ZOC (infantry) + 1 + 1 for two clear hexes = 3 > 2.")
case("LW-ZOC-002", "A platoon exerts no ZOC outside its hex", ["5A", "6A.3"],
     [unit("us-a", "US", "0303", m=2), unit("jp-p", "JP", "0403", size="platoon")],
     {"moves": [{"units": ["us-a"], "path": ["0302", "0301"]}]}, expect={"valid": True, "units": {"us-a": {"hex": "0301"}}}, uses=("zoc",))
adjacent("0403", "0404")
case("LW-ZOC-003", "A unit prohibited from a mountain exerts no ZOC into it (5A example)", ["5A"],
     [unit("us-a", "US", "0404", m=2), unit("jp-tk", "JP", "0403", 3, 3, 6, type="tank", size="company")],
     {"moves": [{"units": ["us-a"], "path": ["0405", "0406"]}]}, terrain={"0404": ["mountain"]},
     expect={"valid": True, "units": {"us-a": {"hex": "0406"}}}, uses=("zoc", "terrain"),
     notes="The tank (C/M) may not enter the mountain (the case's TEC), so leaving 0404 costs nothing extra: 1 + 1 = 2 MPs.")
adjacent("0503", "0504")
case("LW-OWN-001", "Entering an unoccupied enemy-owned hex gains it at once, enemy ZOC or not (5B example)", ["5B"],
     [unit("us-a", "US", "0402"), unit("jp-a", "JP", "0504")],
     {"moves": [{"units": ["us-a"], "path": ["0503"]}]}, owner={"0503": "JP"}, queries={"owner": ["0503"]}, terrain={"0503": ["airfield"]},
     expect={"valid": True, "queries": {"owner": {"0503": "US"}}})
case("LW-OWN-002", "A contested hex keeps its owner; a hex in one side's ZOC alone is that side's", ["5B"],
     [unit("us-a", "US", "0303"), unit("jp-a", "JP", "0403")], {}, phase="combat", owner={"0402": "JP", "0302": "JP"},
     queries={"owner": ["0402", "0302"]}, expect={"valid": True, "queries": {"owner": {"0402": "JP", "0302": "US"}}})

# -- 6, 7: movement, minimum move, roads -------------------------------------------------------------------------
case("LW-MOV-001", "Crossing a steep hex-side costs +2 MPs for infantry (6A.1 example)", ["6A.1"],
     [unit("us-a", "US", "0303", m=3), FAR_JP], {"moves": [{"units": ["us-a"], "path": ["0304", "0305"]}]},
     map={"hexsides": [{"feature": "steep", "hexes": ["0303", "0304"]}]}, expect={"valid": False, "error_rules": ["6A.2"]}, uses=("terrain",),
     notes="1 (clear) + 2 (steep) + 1 = 4 MPs > 3.")
case("LW-MOV-002", "A prohibited hex-side may not be crossed", ["6A.1"],
     [unit("us-tk", "US", "0303", 5, 3, 8, type="tank", size="company"), FAR_JP], {"moves": [{"units": ["us-tk"], "path": ["0304"]}]},
     map={"hexsides": [{"feature": "steep", "hexes": ["0303", "0304"]}]}, expect={"valid": False, "error_rules": ["6A.1"]}, uses=("terrain",))
case("LW-MOV-003", "A hex of several terrains costs its costliest", ["6A.1"],
     [unit("us-a", "US", "0303", m=2), FAR_JP], {"moves": [{"units": ["us-a"], "path": ["0403", "0503"]}]},
     terrain={"0403": ["town", "jungle"]}, expect={"valid": False, "error_rules": ["6A.2"]}, uses=("terrain",),
     notes="Town costs 1, jungle 2 for infantry: 2 + 1 = 3 > 2.")
case("LW-MOV-004", "No unit enters an enemy-occupied hex but by an Overrun", ["6A.2"],
     [unit("us-a", "US", "0303"), unit("jp-a", "JP", "0403")], {"moves": [{"units": ["us-a"], "path": ["0403"]}]},
     expect={"valid": False, "error_rules": ["6A.2"]})
case("LW-MOV-005", "The minimum move: one hex whatever it costs, out of an enemy ZOC", ["6B.1"],
     [unit("us-a", "US", "0303", m=1), unit("jp-a", "JP", "0403")], {"moves": [{"units": ["us-a"], "path": ["0302"]}]},
     terrain={"0302": ["rough"]}, expect={"valid": True, "units": {"us-a": {"hex": "0302"}}}, uses=("terrain", "zoc"))
case("LW-MOV-006", "The minimum move is one hex only", ["6B.1"],
     [unit("us-a", "US", "0303", m=1), FAR_JP], {"moves": [{"units": ["us-a"], "path": ["0302", "0301"]}]},
     expect={"valid": False, "error_rules": ["6A.2"]})
case("LW-ROAD-001", "Along a road a unit pays clear terrain, even through terrain prohibited to it", ["7A"],
     [unit("us-tk", "US", "0303", 5, 3, 2, type="tank", size="company"), FAR_JP], {"moves": [{"units": ["us-tk"], "path": ["0403", "0503"]}]},
     terrain={"0403": ["mountain"], "0503": ["jungle"]}, map={"roads": [["0303", "0403", "0503"]]},
     expect={"valid": True, "units": {"us-tk": {"hex": "0503"}}}, uses=("terrain",))
case("LW-RSV-001", "A Reserve unit has half its MA in the Movement Phase", ["6B.3"],
     [unit("us-a", "US", "0303", m=4), FAR_JP], {"reserves": ["us-a"], "moves": [{"units": ["us-a"], "path": ["0302", "0301", "0201"]}]},
     expect={"valid": False, "error_rules": ["6A.2"]})
case("LW-EXP-001", "In the Exploitation Phase a unit other than C/M has 1 MP", ["6C.1"],
     [unit("us-a", "US", "0303", m=4), FAR_JP], {"exploitation": [{"units": ["us-a"], "path": ["0302", "0301"]}]}, phase="exploitation",
     expect={"valid": False, "error_rules": ["6A.2"]})
case("LW-EXP-002", "... or the minimum move", ["6C.1", "6B.1"],
     [unit("us-a", "US", "0303", m=4), FAR_JP], {"exploitation": [{"units": ["us-a"], "path": ["0302"]}]}, phase="exploitation",
     terrain={"0302": ["rough"]}, expect={"valid": True, "units": {"us-a": {"hex": "0302"}}}, uses=("terrain",))

# -- 6B.2: Overrun Attacks ---------------------------------------------------------------------------------------
case("LW-OVR-001", "An Overrun at 8:1 or more eliminates the defenders for good; the stack moves on", ["6B.2", "6B.2b"],
     [unit("us-t1", "US", "0303", 6, 3, 8, type="tank", size="company"), unit("us-t2", "US", "0303", 6, 3, 8, type="tank", size="company"),
      unit("jp-co", "JP", "0403", 1, 1, 3, size="company")],
     {"moves": [{"units": ["us-t1", "us-t2"], "path": ["0403", "0404"], "overruns": ["0403"]}]},
     expect={"valid": True, "dice_used": 0, "units": {"jp-co": {"removed": True}, "us-t1": {"hex": "0404"}, "us-t2": {"hex": "0404"}},
             "combats": [{"type": "overrun", "result": "success", "odds": "12:1"}]})
case("LW-OVR-002", "A failed Overrun stops short and becomes an Assault Combat at -2", ["6B.2c", "9A.2", "9D.1"],
     [unit("us-a", "US", "0303", 6, 5, 6), unit("jp-a", "JP", "0403", 2, 4, 3)],
     {"moves": [{"units": ["us-a"], "path": ["0403", "0404"], "overruns": ["0403"]}]}, dice=[4], uses=("assault",),
     expect={"valid": True, "dice_used": 1, "units": {"us-a": {"hex": "0303", "hits": 2}, "jp-a": {"hex": "0403", "hits": 1}},
             "combats": [{"type": "overrun", "result": "failed", "odds": "1:1"}, {"type": "overrun-assault", "odds": "1:1", "drm": -2, "die": 4, "result": "AQ/DQ"}]},
     notes="6:4 is 1:1, short of 8:1. The Assault: 1:1, 4 - 2 = 2 reads AQ/DQ; the attacker loses a quarter of 6 (2, rounded up), the defender a quarter of 4 (1).")
case("LW-OVR-003", "No more units overrun a hex than its stacking limit holds", ["6B.2", "8"],
     [unit("us-a", "US", "0303", 6), unit("us-b", "US", "0303", 6), unit("us-c", "US", "0303", 6), unit("us-d", "US", "0303", 6), unit("jp-a", "JP", "0403", 1, 1)],
     {"moves": [{"units": ["us-a", "us-b", "us-c", "us-d"], "path": ["0403"], "overruns": ["0403"]}]}, expect={"valid": False, "error_rules": ["8"]}, uses=("stacking",))

case("LW-OVR-004", "A hex of Dummies alone counts 1 for the Overrun odds; revealed, they are eliminated", ["6B.2a", "19B.6", "19B.4"],
     [unit("us-co", "US", "0303", 4, 4, 6, size="company"), unit("jp-d1", "JP", "0403", 0, 0, 3, type="dummy", size="platoon"),
      unit("jp-d2", "JP", "0403", 0, 0, 3, type="dummy", size="platoon")],
     {"moves": [{"units": ["us-co"], "path": ["0403", "0404"], "overruns": ["0403"]}]}, hidden={"exposed": []},
     expect={"valid": True, "dice_used": 0, "combats": [{"type": "overrun", "odds": "4:1", "result": "failed"}, {"type": "overrun-assault", "status": "vacated"}],
             "units": {"us-co": {"hex": "0303"}, "jp-d1": {"eliminated": True}, "jp-d2": {"eliminated": True}}},
     notes="4 against 1 is 4:1, short of 8:1: the Overrun fails (6B.2c); the Assault reveals the Dummies, which go (19B.6), and the hex is empty.")

# -- 9: Fire Combat ------------------------------------------------------------------------------------------------
FIRE = ("fire",)
case("LW-FIR-001", "Fire Combat: both sides roll at once on the Fire Combat Results Table", ["9A.1", "9D.2"],
     [unit("us-a", "US", "0303", 8, 6), unit("jp-a", "JP", "0403", 2, 4)],
     {"attacks": [{"type": "fire", "target": "0403", "attackers": ["us-a"]}]}, phase="combat", dice=[5, 3], uses=FIRE,
     expect={"valid": True, "combats": [{"type": "fire", "attack": 8, "defense": 4, "die": 5, "inflicted": 2, "return_die": 3, "suffered": 0}],
             "units": {"jp-a": {"hex": "0403", "hits": 2}, "us-a": {"hex": "0303"}}},
     notes="Strength 8 is the 8 column: a 5 inflicts 2. The return fire of 4 is the 3 column: a 3 inflicts none.")
case("LW-FIR-002", "Without Artillery or Armor among the firers, Armor takes no Fire Combat loss", ["9B"],
     [unit("us-a", "US", "0303", 8, 6), unit("jp-lt", "JP", "0403", 3, 3, 6, type="light-tank", size="company")],
     {"attacks": [{"type": "fire", "target": "0403", "attackers": ["us-a"]}]}, phase="combat", dice=[6, 1], uses=FIRE,
     expect={"valid": True, "combats": [{"inflicted": 3}], "units": {"jp-lt": {"hex": "0403"}}})
case("LW-FIR-003", "Fire Combat reads the target hex's Fire DRM, not its hex-side", ["9C", "9A.1"],
     [unit("us-a", "US", "0303", 8, 6), unit("jp-a", "JP", "0403", 2, 4)],
     {"attacks": [{"type": "fire", "target": "0403", "attackers": ["us-a"]}]}, phase="combat", dice=[5, 3], terrain={"0403": ["jungle"]},
     map={"hexsides": [{"feature": "steep", "hexes": ["0303", "0403"]}]}, uses=("fire", "terrain"),
     expect={"valid": True, "combats": [{"drm": -2, "inflicted": 1, "return_drm": 0}], "units": {"jp-a": {"hex": "0403", "hits": 1}}})

# -- 9: Assault Combat -----------------------------------------------------------------------------------------------
ASL = ("assault",)
adjacent("0304", "0403")
case("LW-ASL-001", "20 against 8 is 2:1, rounded down (9A.2 example)", ["9A.2", "9D.1", "9F.1"],
     [unit("us-a", "US", "0303", 10, 6), unit("us-b", "US", "0304", 10, 6), unit("jp-a", "JP", "0403", 2, 4), unit("jp-b", "JP", "0403", 2, 4)],
     {"attacks": [{"type": "assault", "target": "0403", "attackers": ["us-a", "us-b"]}]}, phase="combat", dice=[3], uses=ASL,
     expect={"valid": True, "combats": [{"attack": 20, "defense": 8, "odds": "2:1", "die": 3, "result": "-/Dr"}],
             "units": {"jp-a": [{"hex": "0503"}, {"hex": "0504"}], "jp-b": [{"hex": "0503"}, {"hex": "0504"}]}},
     notes="The only hexes out of U.S. ZOC are 0503 and 0504 (9F.1 priority 1).")
case("LW-ASL-002", "9:1 is read on the 7:1 column at +2 (9A.2 example)", ["9A.2"],
     [unit("us-a", "US", "0303", 9, 6), unit("jp-a", "JP", "0403", 1, 1, size="company")],
     {"attacks": [{"type": "assault", "target": "0403", "attackers": ["us-a"]}]}, phase="combat", dice=[1], uses=ASL,
     expect={"valid": True, "combats": [{"odds": "9:1", "column": "7:1", "drm": 2, "die": 1, "modified": 3, "result": "-/DHR"}], "units": {"jp-a": {"eliminated": True}}})
case("LW-ASL-003", "Worse than 1:4 is an automatic AE, no die rolled", ["9A.2"],
     [unit("us-a", "US", "0303", 1, 1, size="company"), unit("jp-a", "JP", "0403", 2, 5)],
     {"attacks": [{"type": "assault", "target": "0403", "attackers": ["us-a"]}]}, phase="combat",
     expect={"valid": True, "dice_used": 0, "combats": [{"odds": "1:5", "result": "AE/-"}], "units": {"us-a": {"eliminated": True}}})
case("LW-ASL-004", "10:1 or more is an automatic DE", ["9A.2"],
     [unit("us-a", "US", "0303", 10, 6), unit("jp-a", "JP", "0403", 1, 1, size="company")],
     {"attacks": [{"type": "assault", "target": "0403", "attackers": ["us-a"]}]}, phase="combat",
     expect={"valid": True, "dice_used": 0, "combats": [{"result": "-/DE"}], "units": {"jp-a": {"eliminated": True}}})
case("LW-ASL-005", "Town and mountain: the best feature only — halved and -2, not -3 (9C example)", ["9C", "3C.3", "9D.1"],
     [unit("us-a", "US", "0303", 8, 6), unit("us-b", "US", "0304", 8, 6), unit("jp-a", "JP", "0403", 2, 4)],
     {"attacks": [{"type": "assault", "target": "0403", "attackers": ["us-a", "us-b"]}]}, phase="combat", dice=[6], terrain={"0403": ["town", "mountain"]},
     uses=("assault", "terrain"),
     expect={"valid": True, "combats": [{"attack": 8, "odds": "2:1", "drm": -2, "result": "HX"}],
             "units": {"jp-a": {"hex": "0403", "hits": 2}, "us-a": {"hex": "0303", "hits": 1}, "us-b": {"hex": "0304", "hits": 1}}},
     notes="HX: the defender (4, the lower) loses half, 2; the attacker as many, one each by the policy.")
case("LW-ASL-006", "Mountain across a steep hex-side: halved, -3 in all (3C.3 example)", ["3C.3", "9C"],
     [unit("us-a", "US", "0303", 8, 6), unit("jp-a", "JP", "0403", 2, 2)],
     {"attacks": [{"type": "assault", "target": "0403", "attackers": ["us-a"]}]}, phase="combat", dice=[6], terrain={"0403": ["mountain"]},
     map={"hexsides": [{"feature": "steep", "hexes": ["0303", "0403"]}]}, uses=("assault", "terrain"),
     expect={"valid": True, "combats": [{"attack": 4, "odds": "2:1", "drm": -3, "modified": 3, "result": "-/Dr"}]})
FORT_TEC = chart("terrain")
FORT_TEC["terrain"]["redoubt"] = {"move": {"infantry": 1, "cm": 1, "artillery": 1, "other": 1}, "assault_drm": -5, "source": "the case's own line"}
case("LW-ASL-007", "No total DRM below -4 (9C note)", ["9C"],
     [unit("us-a", "US", "0303", 8, 6), unit("jp-a", "JP", "0403", 2, 2)],
     {"attacks": [{"type": "assault", "target": "0403", "attackers": ["us-a"]}]}, phase="combat", dice=[6], terrain={"0403": ["redoubt"]},
     uses=("assault",), charts_extra={"terrain": FORT_TEC},
     expect={"valid": True, "combats": [{"odds": "4:1", "drm": -4, "modified": 2, "result": "HX"}]})
case("LW-RSL-001", "QX: a quarter of the lower total, rounded up, and as many from the other side", ["9D.1"],
     [unit("us-a", "US", "0303", 7, 6), unit("jp-a", "JP", "0403", 2, 5)],
     {"attacks": [{"type": "assault", "target": "0403", "attackers": ["us-a"]}]}, phase="combat", dice=[3], uses=ASL,
     expect={"valid": True, "combats": [{"odds": "1:1", "result": "QX"}], "units": {"us-a": {"hex": "0303", "hits": 2}, "jp-a": {"hex": "0403", "hits": 2}}})
case("LW-RSL-002", "AH: half the attacker's Attack Strength, rounded up", ["9D.1"],
     [unit("us-a", "US", "0303", 5, 6), unit("jp-a", "JP", "0403", 2, 8)],
     {"attacks": [{"type": "assault", "target": "0403", "attackers": ["us-a"]}]}, phase="combat", dice=[1], terrain={"0403": ["rough"]},
     uses=("assault", "terrain"),
     expect={"valid": True, "combats": [{"odds": "1:2", "drm": -1, "modified": 0, "result": "AH/-"}], "units": {"us-a": {"hex": "0303", "hits": 3}}})
case("LW-CI-001", "A Marine battalion turns Combat Ineffective: its 3 Hit marker becomes 1 (9E example)", ["9E", "9D.3"],
     [unit("us-m", "US", "0303", 8, 9, 4, ci=4, reverse={"attack": 4, "defense": 5, "move": 4}, hits=3), unit("jp-a", "JP", "0403", 2, 8)],
     {"attacks": [{"type": "fire", "target": "0403", "attackers": ["us-m"]}]}, phase="combat", dice=[1, 5], uses=FIRE,
     expect={"valid": True, "combats": [{"suffered": 2}], "units": {"us-m": {"hex": "0303", "hits": 1, "ci": True}}},
     notes="The return fire of 8 with a 5 inflicts 2: 5 losses leave Attack 3, below the CI Number 4; flipped, printed 4, so a 1 Hit marker.")
case("LW-CI-002", "A Combat Ineffective unit does not attack", ["9E"],
     [unit("us-m", "US", "0303", 8, 9, 4, ci=4, reverse={"attack": 4, "defense": 5, "move": 4}, ci_side=True), unit("jp-a", "JP", "0403", 2, 8)],
     {"attacks": [{"type": "assault", "target": "0403", "attackers": ["us-m"]}]}, phase="combat", expect={"valid": False, "error_rules": ["9E"]})
adjacent("0504", "0403")
case("LW-RET-001", "No retreat route but into an enemy ZOC without a friend: eliminated; the attacker advances", ["9F.1", "9F.3"],
     [unit("us-a", "US", "0303", 6, 6), unit("us-b", "US", "0304", 6, 6), unit("us-c", "US", "0504", 2, 6), unit("jp-a", "JP", "0403", 2, 4)],
     {"attacks": [{"type": "assault", "target": "0403", "attackers": ["us-a", "us-b"], "advance": ["us-a"]}]}, phase="combat", dice=[2], uses=ASL,
     expect={"valid": True, "combats": [{"odds": "3:1", "result": "-/Dr"}], "units": {"jp-a": {"eliminated": True}, "us-a": {"hex": "0403"}}})
case("LW-RET-002", "Into an enemy ZOC only where a friendly unit stands (9F.1 priority 3)", ["9F.1"],
     [unit("us-a", "US", "0303", 6, 6), unit("us-b", "US", "0304", 6, 6), unit("us-c", "US", "0504", 2, 6), unit("jp-a", "JP", "0403", 2, 4),
      unit("jp-f", "JP", "0402", 1, 1, size="company")],
     {"attacks": [{"type": "assault", "target": "0403", "attackers": ["us-a", "us-b"]}]}, phase="combat", dice=[2], uses=ASL,
     expect={"valid": True, "units": {"jp-a": {"hex": "0402"}}})
case("LW-ZERO-001", "A unit of Attack Strength 0 does not attack alone", ["9G"],
     [unit("us-z", "US", "0303", 0, 2), unit("jp-a", "JP", "0403", 2, 4)],
     {"attacks": [{"type": "assault", "target": "0403", "attackers": ["us-z"]}]}, phase="combat", expect={"valid": False, "error_rules": ["9G"]})
case("LW-ZERO-002", "Defense 0 alone and assaulted: eliminated, no die", ["9G"],
     [unit("us-a", "US", "0303", 4, 4), unit("jp-hq", "JP", "0403", 0, 0, 3, type="hq", size="company")],
     {"attacks": [{"type": "assault", "target": "0403", "attackers": ["us-a"]}]}, phase="combat",
     expect={"valid": True, "dice_used": 0, "units": {"jp-hq": {"eliminated": True}}, "combats": [{"status": "automatic"}]})
case("LW-MAN-001", "Armor that gave the Armor Bonus takes the first loss (9H, 10B)", ["9H", "10A", "10B"],
     [unit("us-tk", "US", "0303", 6, 3, 8, type="tank", size="company"), unit("us-i", "US", "0304", 6, 6), unit("jp-a", "JP", "0403", 2, 6)],
     {"attacks": [{"type": "assault", "target": "0403", "attackers": ["us-tk", "us-i"], "losses": ["us-i"]}]}, phase="combat", dice=[3], uses=ASL,
     expect={"valid": True, "combats": [{"odds": "2:1", "drm": 1, "result": "HX"}],
             "units": {"us-tk": {"hex": "0303", "hits": 1}, "us-i": {"hex": "0304", "hits": 2}, "jp-a": {"hex": "0403", "hits": 3}}})
case("LW-ARM-001", "Anti-tank units cancel the Armor Bonus; the armor and the anti-tank unit still take losses first", ["10A", "10B", "9H"],
     [unit("us-tk", "US", "0303", 6, 3, 8, type="tank", size="company"), unit("us-i", "US", "0304", 6, 6),
      unit("jp-i", "JP", "0403", 2, 4), unit("jp-at", "JP", "0403", 1, 3, 2, type="anti-tank", size="company")],
     {"attacks": [{"type": "assault", "target": "0403", "attackers": ["us-tk", "us-i"]}]}, phase="combat", dice=[5], uses=ASL,
     expect={"valid": True, "combats": [{"odds": "1:1", "drm": 0, "result": "HX"}],
             "units": {"us-tk": {"hex": "0303", "hits": 1}, "us-i": {"hex": "0304", "hits": 3}, "jp-at": {"hex": "0403", "hits": 1}, "jp-i": {"hex": "0403", "hits": 3}}})
case("LW-SAME-001", "Units sharing a hex with the enemy must assault it", ["9I"],
     [unit("us-a", "US", "0303"), unit("jp-a", "JP", "0303")], {}, phase="combat", expect={"valid": False, "error_rules": ["9I"]})
case("LW-SAME-002", "Units in same-hex combat exert no ZOC into adjacent hexes", ["9I", "5A"],
     [unit("us-a", "US", "0403"), unit("jp-a", "JP", "0403"), unit("us-b", "US", "0303", m=2)],
     {"moves": [{"units": ["us-b"], "path": ["0302", "0301"]}], "attacks": [{"type": "assault", "target": "0403", "attackers": ["us-a"]}]},
     dice=[3], uses=("zoc", "assault"), expect={"valid": True, "units": {"us-b": {"hex": "0301"}}},
     notes="Leaving 0303 costs nothing extra: jp-a shares its hex with us-a (9I), so 1 + 1 = 2 MPs.")
RBC = ("retreat-before-combat", "assault")
case("LW-RBC-001", "Retreat Before Combat succeeds: the hex is vacated, still attacked, and the attacker advances", ["9J"],
     [unit("us-a", "US", "0303", 4, 4), unit("jp-r", "JP", "0403", 1, 1, 5, type="recon", size="platoon", rbc=True)],
     {"attacks": [{"type": "assault", "target": "0403", "attackers": ["us-a"], "advance": ["us-a"]}]}, phase="combat", dice=[2], uses=RBC,
     expect={"valid": True, "dice_used": 1, "combats": [{"status": "vacated"}],
             "units": {"us-a": {"hex": "0403"}, "jp-r": [{"hex": "0404"}, {"hex": "0503"}, {"hex": "0504"}]}})
case("LW-RBC-002", "A failed Retreat Before Combat gives the attacker +1", ["9J"],
     [unit("us-a", "US", "0303", 4, 4), unit("jp-r", "JP", "0403", 1, 1, 5, type="recon", size="platoon", rbc=True)],
     {"attacks": [{"type": "assault", "target": "0403", "attackers": ["us-a"]}]}, phase="combat", dice=[6, 1], uses=RBC,
     expect={"valid": True, "dice_used": 2, "combats": [{"odds": "4:1", "drm": 1, "result": "HX"}]})
case("LW-RBC-003", "The defender's written choice: no Retreat Before Combat", ["9J", "I1"],
     [unit("us-a", "US", "0303", 4, 4), unit("jp-r", "JP", "0403", 1, 1, 5, type="recon", size="platoon", rbc=True)],
     {"attacks": [{"type": "assault", "target": "0403", "attackers": ["us-a"]}]}, phase="combat", dice=[1], uses=RBC, defense={"rbc": []},
     expect={"valid": True, "dice_used": 1, "combats": [{"odds": "4:1", "drm": 0, "die": 1}]})

# -- 11, 11A: artillery Support ----------------------------------------------------------------------------------------
case("LW-ART-001", "Offensive Support beyond half the Range is halved", ["11", "11A.1"],
     [unit("us-a", "US", "0303", 4, 4), art("us-art", "US", "0103", bs=6, rng=4), unit("jp-a", "JP", "0403", 2, 4)],
     {"attacks": [{"type": "assault", "target": "0403", "attackers": ["us-a"], "support": ["us-art"]}]}, phase="combat", dice=[4], uses=ASL,
     expect={"valid": True, "combats": [{"attack": 7, "odds": "1:1", "support": ["us-art"], "result": "-/Dr"}]},
     notes="0103 to 0403 is 3 hexes, beyond half of Range 4: B/S 6 becomes 3.")
case("LW-ART-002", "Offensive Support at most twice the attackers' SPs, one unit always", ["11A.3"],
     [unit("us-co", "US", "0303", 4, 4, size="company"), art("us-art1", "US", "0203"), art("us-art2", "US", "0202"), unit("jp-a", "JP", "0403", 2, 4)],
     {"attacks": [{"type": "assault", "target": "0403", "attackers": ["us-co"], "support": ["us-art1", "us-art2"]}]}, phase="combat",
     expect={"valid": False, "error_rules": ["11A.3"]}, uses=("stacking",))
case("LW-ART-003", "Support beyond Range, or from Fired artillery, is refused", ["11"],
     [unit("us-a", "US", "0303", 4, 4), art("us-art1", "US", "0103", rng=1), art("us-art2", "US", "0203", fired=True), unit("jp-a", "JP", "0403", 2, 4)],
     {"attacks": [{"type": "assault", "target": "0403", "attackers": ["us-a"], "support": ["us-art1", "us-art2"]}]}, phase="combat",
     expect={"valid": False, "error_rules": ["11"]})
case("LW-ART-004", "The Initial Phase brings Fired artillery back", ["11", "4"],
     [unit("us-a", "US", "0303", 4, 4), art("us-art", "US", "0203", fired=True), unit("jp-a", "JP", "0403", 2, 4)],
     {"attacks": [{"type": "assault", "target": "0403", "attackers": ["us-a"], "support": ["us-art"]}]}, dice=[1], uses=ASL,
     expect={"valid": True, "combats": [{"support": ["us-art"]}]})
case("LW-ART-005", "Defensive Support: the policy adds eligible artillery up to the defenders' SPs", ["11A.2", "11A.3"],
     [unit("us-a", "US", "0303", 6, 6), unit("us-b", "US", "0304", 6, 6), unit("jp-a", "JP", "0403", 2, 4), art("jp-art", "JP", "0603", bs=4, rng=6)],
     {"attacks": [{"type": "assault", "target": "0403", "attackers": ["us-a", "us-b"]}]}, phase="combat", dice=[1], uses=ASL,
     expect={"valid": True, "combats": [{"attack": 12, "defense": 8, "odds": "1:1", "defensive_support": ["jp-art"], "result": "AS/-"}]})

# -- 14: Disruption -----------------------------------------------------------------------------------------------------
case("LW-DIS-001", "Disrupted: Attack Strength halved; half the defenders Disrupted gives +1", ["14"],
     [unit("us-a", "US", "0303", 8, 6, disrupted=1), unit("jp-a", "JP", "0403", 2, 4, disrupted=1)],
     {"attacks": [{"type": "assault", "target": "0403", "attackers": ["us-a"]}]}, phase="combat", dice=[2], uses=ASL,
     expect={"valid": True, "combats": [{"attack": 4, "odds": "1:1", "drm": 1, "result": "QX"}]})
case("LW-DIS-002", "Disruption lasts until the next Initial Phase of the other side (14 example)", ["14", "4"],
     [unit("us-a", "US", "0303", disrupted=1), unit("jp-a", "JP", "0505", disrupted=1)], {}, phasing="JP",
     expect={"valid": True, "units": {"us-a": {"hex": "0303"}, "jp-a": {"hex": "0505", "disrupted": 1}}})
case("LW-DIS-003", "A Badly Disrupted unit does not move", ["14"],
     [unit("us-a", "US", "0303", disrupted=2), FAR_JP], {"moves": [{"units": ["us-a"], "path": ["0302"]}]}, expect={"valid": False, "error_rules": ["14"]})
case("LW-DIS-004", "A Disrupted unit exerts no ZOC beyond its hex", ["14", "5A"],
     [unit("us-tk", "US", "0303", 5, 3, 4, type="tank", size="company"), unit("jp-a", "JP", "0403", disrupted=1)],
     {"exploitation": [{"units": ["us-tk"], "path": ["0302", "0301"]}]}, phase="exploitation",
     expect={"valid": True, "units": {"us-tk": {"hex": "0301"}}}, uses=("zoc",),
     notes="In the Exploitation Phase the tank has 2 MPs (6C.1): two clear hexes, and nothing to leave 0303, since jp-a is Disrupted (its Disruption goes only in the next U.S. Initial Phase).")

# -- 19A: Banzai ---------------------------------------------------------------------------------------------------------
adjacent("0402", "0303")
case("LW-BNZ-001", "Banzai: the Banzai Attack Table's losses first, then infantry attacks doubled", ["19A", "9D.1"],
     [unit("jp-a", "JP", "0403", 4, 5), unit("jp-b", "JP", "0402", 4, 5), unit("us-a", "US", "0303", 4, 6)],
     {"attacks": [{"type": "assault", "target": "0303", "attackers": ["jp-a", "jp-b"], "banzai": True}]}, phase="combat", phasing="JP",
     dice=[2, 5], uses=("banzai", "assault"),
     expect={"valid": True, "dice_used": 2, "combats": [{"banzai": True, "attack": 10, "defense": 6, "odds": "1:1", "result": "HX"}],
             "units": {"jp-a": {"hex": "0403", "hits": 3}, "jp-b": {"hex": "0402", "hits": 3}, "us-a": {"hex": "0303", "hits": 3}}},
     notes="Defense 6 is the 4 column; a 2 reads 1/2: 3 losses (one to jp-b, one to jp-a, one to jp-b by the policy). Then (3 + 2) x 2 = 10 against 6, 1:1; a 5 reads HX: the attackers' 5 is lower, so 3 each side.")
case("LW-BNZ-002", "Only the Japanese make Banzai attacks", ["19A"],
     [unit("us-a", "US", "0303", 4, 6), unit("jp-a", "JP", "0403", 4, 5)],
     {"attacks": [{"type": "assault", "target": "0403", "attackers": ["us-a"], "banzai": True}]}, phase="combat", expect={"valid": False, "error_rules": ["19A"]})

# -- 6C.2: Night Exploitation ------------------------------------------------------------------------------------------------
case("LW-NGT-001", "Night Exploitation: Assault Combat at -1, artillery Support halved", ["6C.2", "11A.1"],
     [unit("jp-a", "JP", "0403", 4, 5), art("jp-art", "JP", "0603", bs=4, rng=6), unit("us-a", "US", "0303", 4, 4)],
     {"attacks": [{"type": "assault", "target": "0303", "attackers": ["jp-a"], "support": ["jp-art"]}]}, phase="night", phasing="JP",
     dice=[5], uses=ASL, expect={"valid": True, "combats": [{"attack": 6, "odds": "1:1", "drm": -1, "modified": 4, "result": "-/Dr"}]},
     notes="4 + 4 / 2 = 6 against 4: 1:1; a 5 at -1 reads -/Dr.")
case("LW-NGT-002", "At night only Assault Combat", ["6C.2"],
     [unit("jp-a", "JP", "0403", 4, 5), unit("us-a", "US", "0303", 4, 4)],
     {"attacks": [{"type": "fire", "target": "0303", "attackers": ["jp-a"]}]}, phase="night", phasing="JP",
     expect={"valid": False, "error_rules": ["6C.2"]})
case("LW-NGT-003", "On a PM Game-Turn the Japanese Exploitation Phase leads to the Night Exploitation Phase", ["6C.2", "4"],
     [unit("jp-a", "JP", "0403"), unit("us-a", "US", "0106")], {}, phase="exploitation", phasing="JP", pm_turns=[2],
     expect={"valid": True, "position": {"turn": 2, "phasing": "JP", "phase": "night"}})
case("LW-NGT-004", "Moving at night exposes nothing", ["6C.2", "19B.3"],
     [unit("jp-a", "JP", "0403"), unit("us-a", "US", "0106")], {"exploitation": [{"units": ["jp-a"], "path": ["0404"]}]},
     phase="night", phasing="JP", terrain={"0403": ["jungle"]}, hidden={"exposed": []},
     expect={"valid": True, "exposed": [], "units": {"jp-a": {"hex": "0404"}}})

# -- 19B: limited intelligence ------------------------------------------------------------------------------------------------
case("LW-HID-001", "Assault Combat exposes the defenders; a Dummy hit by fire is revealed and eliminated", ["19B.4", "19B.6"],
     [unit("us-a", "US", "0303", 9, 6), unit("us-b", "US", "0305", 8, 6), unit("jp-a", "JP", "0403", 2, 4),
      unit("jp-d", "JP", "0405", 0, 0, 3, type="dummy", size="platoon")],
     {"attacks": [{"type": "assault", "target": "0403", "attackers": ["us-a"]}, {"type": "fire", "target": "0405", "attackers": ["us-b"]}]},
     phase="combat", dice=[1, 6], terrain={"0403": ["jungle"]}, hidden={"exposed": []}, uses=("assault", "fire", "terrain"),
     expect={"valid": True, "exposed": ["jp-a"], "units": {"jp-d": {"eliminated": True}}})
case("LW-HID-002", "Moving through a Clear hex exposes a Japanese unit only while it stands in one", ["19B.3", "19B.6"],
     [unit("jp-a", "JP", "0503"), unit("jp-b", "JP", "0505"), unit("jp-d", "JP", "0603", 0, 0, 3, type="dummy", size="platoon"), FAR_US],
     {"moves": [{"units": ["jp-a"], "path": ["0504", "0604"]}, {"units": ["jp-b"], "path": ["0506"]}, {"units": ["jp-d"], "path": ["0602", "0702"]}]},
     phasing="JP", terrain={"0503": ["jungle"], "0604": ["jungle"], "0505": ["jungle"], "0603": ["jungle"], "0702": ["jungle"]}, hidden={"exposed": []},
     queries={"view": "US"}, uses=("terrain",),
     expect={"valid": True, "exposed": ["jp-b"], "units": {"jp-a": {"hex": "0604"}, "jp-d": {"eliminated": True}},
             "view": {"markers": [{"hex": "0604"}]}})
case("LW-HID-003", "As the Japanese player-turn begins, only Exposed units in Clear hexes next to U.S. units stay Exposed", ["19B.5"],
     [unit("jp-a", "JP", "0403"), unit("jp-b", "JP", "0606"), unit("us-a", "US", "0303")], {}, phasing="JP", hidden={"exposed": ["jp-a", "jp-b"]},
     expect={"valid": True, "exposed": ["jp-a"]})

# -- 20: victory -----------------------------------------------------------------------------------------------------------------
TABLE = {"cp_per_unit": 2, "objectives": {"Town": "0403", "Airfield": "0505"},
         "levels": [{"level": "U.S. Decisive", "objectives_min": 2, "cp_max": 10, "source": "the case's own table"},
                    {"level": "U.S. Marginal", "objectives_min": 1, "source": "the case's own table"}],
         "otherwise": "Japanese Victory", "source": "the case's own table"}
case("LW-VIC-001", "The Victory Table: Casualty Points and objectives, an eliminated U.S. unit adding its CP", ["20", "5B"],
     [unit("us-a", "US", "0303", 9, 6), unit("us-b", "US", "0304", 2, 1, size="company"), unit("jp-a", "JP", "0403", 2, 8)],
     {"attacks": [{"type": "fire", "target": "0403", "attackers": ["us-a", "us-b"]}]}, phase="combat", dice=[1, 8 - 2], uses=FIRE,
     owner={"0403": "JP", "0505": "US"}, casualties=8, cp_per_unit=2, victory=TABLE, queries={"victory": True},
     defense={"return_fire": [{"hex": "0403", "into": "0304"}]},
     expect={"valid": True, "units": {"us-b": {"eliminated": True}}, "victory": {"casualty_points": 11, "us_objectives": 1, "level": "U.S. Marginal"}},
     notes="The return fire (8, column 8) into 0304 with a 6 inflicts 3; us-b, Defense 1, is eliminated by the first: 8 + 1 loss + 2 for the unit = 11.")
case("LW-VIC-002", "Every Beachhead eliminated: a Japanese Major Victory at once (20 note)", ["20"],
     [unit("us-bh", "US", "eliminated", 0, 3, 0, type="beachhead", size="company"), unit("us-a", "US", "0303"), unit("jp-a", "JP", "0605")], {},
     phase="combat", victory=TABLE, queries={"victory": True}, owner={"0403": "US", "0505": "US"},
     expect={"valid": True, "victory": {"level": "Japanese Major Victory", "ended": True}})


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for doc in CASES:
        doc = dict(doc)
        extra = doc.pop("charts_extra", None)
        if extra:
            doc.setdefault("charts", {}).update(extra)
        path = OUT / f"{doc['case']}.json"
        path.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(CASES)} cases to {OUT}")


if __name__ == "__main__":
    main()

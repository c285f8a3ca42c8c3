"""Build leyte-campaign.json (16.4, Game-Turns 1-26) from the three scenario files beside it.

The campaign's printed set-up (HexWar 16.41/16.42) is the Final Collapse's
(16.31/16.32) copied over, so it is not used (../shared/rules/leyte-campaign-notes.md
§2).  Instead: the Japanese set-up of 16.12, no U.S. unit on the map, and the
whole order of appearance (18.1, 18.2) from Game-Turn 1, as the three
scenario files hold it; every choice the text does not make is marked
``assumed:`` with its reason (docs/leyte.md, "The campaign").

Run from the project root: ``python scenarios/leyte/tools/make_campaign.py``.
The test ``tests/test_leyte_campaign.py`` checks the committed file is what
this script writes.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

WITHDRAWN_AT_END_OF = 8
WITHDRAWAL_WHY = (
    "assumed: the campaign text gives no withdrawal; 18.1 brings this unit in again at the {edge} edge on "
    "Game-Turn {turn} though it landed on Game-Turn 1 or 2, and the Mountain Barrier's set-up (16.21, "
    "Game-Turn 9) has it nowhere on the map — so it leaves at the end of Game-Turn 8, the last moment "
    "consistent with 16.21, and returns as 18.1 says"
)
LATE_LANDING = 14
LATE_WHY = (
    "assumed: on the map at Game-Turn 18 (16.31) but in no line of 18.1; lands on the northern beaches (N, "
    "the only U.S. beach area of Game-Turns 9-17) on Game-Turn 14, the first after the storms of Game-Turns "
    "12-13 (17.1), after the 112th on Game-Turn 11 — its 16.31 hex is in the north"
)
BN381_WHY = (
    "assumed: on the map at Game-Turn 9 (16.21) and 18 (16.31) but in no line of 18.1; lands with its regiment, "
    "the 381st, on the southern beaches on Game-Turn 2"
)


def load(name: str) -> dict:
    return json.loads((HERE / f"{name}.json").read_text(encoding="utf-8"))


def campaign() -> dict:
    assault, barrier, collapse = load("leyte-assault"), load("leyte-mountain-barrier"), load("leyte-final-collapse")
    units = [u for u in assault["units"]]  # 16.12 set-up and the arrivals of Game-Turns 1-8
    ids = {u["id"] for u in units}
    withdrawals = []
    for u in barrier["units"] + collapse["units"]:
        if "arrives" not in u:
            continue
        if u["id"] in ids:  # 18.1 Game-Turns 11-13: a unit that landed on 1-2 comes back at an edge
            edge = {"0001": "western (0001)", "0100": "southern (0100)"}[u["entry"]]
            withdrawals.append({
                "unit": u["id"], "turn": WITHDRAWN_AT_END_OF, "returns": u["arrives"], "entry": u["entry"],
                "source": f"{u['source'].split(';')[0]}; " + WITHDRAWAL_WHY.format(edge=edge, turn=u["arrives"]),
            })
            continue
        units.append(u)
        ids.add(u["id"])
    placed_later = {u["id"]: u for u in barrier["units"] + collapse["units"] if "hex" in u}
    for uid, u in placed_later.items():
        if uid in ids or u["side"] != "US":
            continue
        late = {k: v for k, v in u.items() if k not in ("hex", "source")}
        if uid == "us-381-bn":
            late |= {"arrives": 2, "entry": "S", "source": f"{u['source']}: strengths; " + BN381_WHY}
        else:
            late |= {"arrives": LATE_LANDING, "entry": "N", "source": f"{u['source']}: strengths; " + LATE_WHY}
        units.append(late)
        ids.add(uid)
    missing_jp = [uid for uid, u in placed_later.items() if u["side"] == "JP" and uid not in ids]
    if missing_jp:
        raise SystemExit(f"Japanese units on the map later but never scheduled: {missing_jp}")
    [exit_2925] = assault["exits"]
    return {
        "id": "leyte-campaign",
        "title": "Leyte: The Campaign (Game-Turns 1-26)",
        "description": (
            "The whole battle as one game (16.4): the landings of 20 October 1944, the drive to Carigara, the "
            "mountain barrier of Breakneck Ridge and the final collapse to Ormoc and the western coast. Japanese "
            "set-up of 16.12, the whole order of appearance (18.x) from Game-Turn 1; the campaign's victory "
            "conditions (16.44) are not public and are assumed (docs/leyte.md)."
        ),
        "kind": "historical",
        "ruleset": assault["ruleset"],
        "map_source": assault["map_source"],
        "map": "map.json",
        "first_player": "US",
        "first_turn": 1,
        "last_turn": 26,
        "units": units,
        "ground_support": assault["ground_support"] + barrier["ground_support"] + collapse["ground_support"],
        "objectives": collapse["objectives"],
        "victory": [
            t | {"source": f"{t['source']}; assumed: 16.44 (the campaign's victory conditions) is not public — the "
                 "campaign is scored as the Final Collapse, which ends on the same Game-Turn 26"}
            if t["kind"] == "edge-loc" else t
            for t in collapse["victory"]
        ],
        "loc_beaches": ["N", "E", "S"],
        "loc_beaches_source": (
            "assumed: the active beaches of a scenario (15.31) are the beach areas where its U.S. reinforcements "
            "land; in Game-Turns One to Twenty-Six they land on N, E and S (18.1)"
        ),
        "special_rules": [
            "16.43 item 1: the U.S. player is the first player.",
            "16.43 item 2: Game-Turns One to Twenty-Six.",
            "16.13 item 2: the Japanese player deploys first (his set-up hexes are fixed by 16.12); assumed: the printed 16.41/16.42 set-up is the Final Collapse's (Game-Turn 18) copied over and is not used.",
            "16.43 item 3: a U.S. unit that exits from hex 2925 during Game-Turns One to Four may come back four Game-Turns later on the northern map edge (area 2900); assumed: one that exits later stays off the map, neither eliminated nor back.",
            "16.43 item 4: one U.S. 3-2-5 infantry unit must exit from hex 0531 by the end of Game-Turn Three, or the Japanese player removes one and scores it as destroyed.",
            "assumed (chained order of appearance): the U.S. units 18.1 brings in again at the western or southern edge on Game-Turns 11-13 are withdrawn at the end of Game-Turn 8 and return then; units on the map in 16.21/16.31 that no line of 18.1 brings in arrive on Game-Turn 2 (381st battalion, S) or 14 (N).",
            "12.42: the Japanese 4th Air Assault Battalion is placed in any hex on Game-Turn Eighteen and may not be withheld.",
            "not applied: 16.23 item 2 (no Japanese unit in hexrow 0100) — assumed: it stands for the part of the island south of the map held by the U.S. when the Mountain Barrier starts; in a whole-map game that front is played out, and 16.43 does not carry it.",
            "not applied: the airfield (16.14) and Southern region (16.24) awards, which end the shorter scenarios — assumed: 16.44 is not public; the campaign is scored at its end as the Final Collapse (16.34), 15.22 and 15.33.",
        ],
        "exits": [exit_2925 | {
            "reenter_until": 4,
            "source": "16.13 item 3, with the Game-Turns One to Four window of 16.43 item 3",
        }],
        "exit_requirements": [r | {"source": "16.43 item 4 (as 16.13 item 4)"} for r in assault["exit_requirements"]],
        "withdrawals": withdrawals,
        "hidden_units": assault["hidden_units"],
    }


def main() -> int:
    out = HERE / "leyte-campaign.json"
    tmp = out.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(campaign(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    tmp.replace(out)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

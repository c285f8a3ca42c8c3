"""Odds before you commit: the figures are the engine's, the chances the CRT's by enumeration."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from pbem.cases.load import load_case
from pbem.cases.run import run_case
from pbem.engine import crt
from pbem.model.ruleset import Ruleset
from pbem.render.odds import column_odds, weigh_attacks

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "cases"


def _weighed(name: str, ruleset: Ruleset | None = None):
    loaded = load_case(EXAMPLES / f"{name}.json")
    case = loaded.case
    return weigh_attacks(loaded.board, ruleset or case.ruleset, case.game_state(), case.orders)


@pytest.mark.parametrize("line", crt.LINES)
def test_every_column_gives_each_result_its_share_of_the_six_die_faces(line):
    for differential in range(-12, 15):
        odds = column_odds(line, differential)
        column = crt.column(line, differential)
        faces = [crt.result(column, die) for die in range(1, 7)]
        assert odds.column == column.label
        assert odds.chances == {r: Fraction(faces.count(r), 6) for r in set(faces)}
        assert sum(odds.chances.values()) == 1


@pytest.mark.parametrize("name", sorted(p.stem for p in EXAMPLES.glob("*.json")))
def test_the_odds_of_each_case_attack_hold_the_column_the_engine_resolved_it_on(name):
    """Where the case's defender gave no FPF, the column weighed without FPF is the one the engine used."""
    document = json.loads((EXAMPLES / f"{name}.json").read_text())
    result = run_case(load_case(EXAMPLES / f"{name}.json"), explain=True)
    fired = {e["index"] for e in result.get("events", []) if e["type"] in ("fpf", "gsp_fpf")}
    weighed = _weighed(name)
    assert len(weighed) == len(document["orders"].get("attacks", []))
    for combat in result["combats"]:
        if combat["status"] != "resolved" or combat["index"] in fired or combat["index"] > 1:
            continue  # later combats are fought on a position the earlier ones changed (I9)
        odds = weighed[combat["index"] - 1]
        assert (odds.attack_strength, odds.defense, odds.line) == (combat["attack"], combat["defense"], combat["terrain"])
        assert odds.without_fpf.column == combat["column"]
        assert crt.result(crt.column(odds.line, odds.without_fpf.differential), combat["die"]) == combat["result"]


def test_the_enemys_best_fpf_is_one_gun_per_hex_under_leyte_and_every_gun_otherwise():
    leyte = _weighed("IW-FPF-001")[0]
    assert leyte.fpf == [("jp-a1", 3)]  # both batteries reach 0507, but one gun per attacked hex (13.11)
    assert leyte.with_fpf.differential == leyte.without_fpf.differential - 3
    standard = _weighed("IW-FPF-001", Ruleset(edition="dg-2009"))[0]
    assert standard.fpf == [("jp-a1", 3), ("jp-a2", 3)]  # the position gives Japan no Ground Support to add
    assert standard.with_fpf.column == crt.column(standard.line, standard.attack_strength - standard.defense - standard.best_fpf).label


def test_an_artillery_only_attack_draws_no_fpf_and_says_why():
    odds = _weighed("IW-ART-001")[0]
    assert odds.fpf == [] and odds.with_fpf is None
    assert any("8.45" in n for n in odds.notes) and any("8.15" in n for n in odds.notes)


def test_orders_check_explain_prints_the_odds_and_keeps_its_exit_status(tmp_path):
    document = json.loads((EXAMPLES / "IW-FPF-001.json").read_text())
    orders = tmp_path / "orders.json"
    orders.write_text(json.dumps(document["orders"]))
    run = subprocess.run([sys.executable, "-m", "pbem", "orders", "check", str(orders), "--position", str(EXAMPLES / "IW-FPF-001.json"), "--explain"],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert "enemy's best FPF +3 = jp-a1 3" in run.stdout
    assert "without FPF: +7 -> column +6,7: D3 1/6, D2 2/6, D1 3/6" in run.stdout
    assert "with FPF:    +4 -> column +4,5: D2 2/6, D1 3/6, - 1/6" in run.stdout
    as_json = subprocess.run([sys.executable, "-m", "pbem", "orders", "check", str(orders), "--position", str(EXAMPLES / "IW-FPF-001.json"), "--explain", "--json"],
                             capture_output=True, text=True, cwd=ROOT)
    odds = json.loads(as_json.stdout)["odds"][0]
    assert odds["best_fpf"] == 3 and odds["with_fpf"]["chances"] == {"D2": 2 / 6, "D1": 3 / 6, "-": 1 / 6}


def test_under_leyte_the_best_fpf_gives_each_attacked_hex_the_gun_that_leaves_the_most_for_the_others():
    """The big gun reaches both hexes, the small one only the first: the big one must serve the second (13.11)."""
    from pbem.engine.board import Board
    from pbem.model.map import MapSpec
    from pbem.model.orders import Orders
    from pbem.model.state import GameState, Position
    from pbem.model.units import Unit

    units = (
        Unit(id="us-1", side="US", kind="infantry", attack=6, defense=5, move=5),
        Unit(id="jp-1", side="JP", kind="infantry", attack=2, defense=3, move=6),
        Unit(id="jp-2", side="JP", kind="infantry", attack=2, defense=3, move=6),
        Unit(id="jp-big", side="JP", kind="artillery", barrage=1, fpf=4, range=6, defense=2, move=5),
        Unit(id="jp-small", side="JP", kind="artillery", barrage=1, fpf=3, range=2, defense=2, move=5),
    )
    state = GameState(
        position=Position(turn=1, phasing="US", phase="combat"),
        units=units,
        locations={"us-1": "0505", "jp-1": "0405", "jp-2": "0605", "jp-big": "0509", "jp-small": "0307"},
    )
    orders = Orders(attacks=[{"attackers": ["us-1"], "defenders": ["jp-1", "jp-2"]}])
    odds = weigh_attacks(Board(MapSpec(cols=10, rows=10)), Ruleset(exclusive="leyte"), state, orders)[0]
    assert odds.problem is None
    assert sorted(odds.fpf) == [("jp-big", 4), ("jp-small", 3)] and odds.best_fpf == 7

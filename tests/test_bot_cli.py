"""``pbem bot`` and ``pbem demo`` as a user runs them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def pbem(cwd: Path, *args, expect: int = 0) -> subprocess.CompletedProcess:
    env = dict(os.environ, COLUMNS="120")
    result = subprocess.run([sys.executable, "-m", "pbem", *map(str, args)], capture_output=True, text=True, cwd=cwd, env=env)
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == expect, f"{args}: {result.returncode}\n{result.stdout}{result.stderr}"
    return result


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    base = tmp_path_factory.mktemp("demo")
    return base, pbem(base, "demo", "--scenario", "test-skirmish", "--dir", "d", "--seed", "3")


def test_demo_plays_verifies_audits_and_says_who_won(demo):
    base, result = demo
    out = result.stdout
    assert "8/8" in out
    assert "verified: 9 turn files" in out
    assert "audited with no key, from the referee's reveal file: 8 adjudications replayed, 18 sealed views confirmed" in out
    assert "Victory (15.4): US " in out
    assert "Result: " in out and ("the United States wins" in out or "Japan wins" in out or "a draw" in out)
    for name in ("ref", "us", "jp"):
        assert (base / "d" / f"{name}.key").exists() and (base / "d" / f"{name}.pub").exists()
    assert len(list((base / "d" / "game").glob("turn-*.pbem"))) == 9
    assert len(list((base / "d" / "game").glob("orders-*-*.pbem"))) == 8


def test_the_demo_files_open_with_the_usual_commands(demo):
    base, _ = demo
    assert "verified 9 turn file(s)" in pbem(base, "verify", "d/game").stdout
    assert "roll(s)" in pbem(base, "dice", "d/game").stdout
    assert "the game is over" in pbem(base, "view", "d/game/turn-0008.pbem", "--key", "d/us.key").stdout
    pbem(base, "audit", "d/game", "--reveal", "d/reveal.pbem")
    pbem(base, "audit", "d/game", "--key", "d/ref.key")


def test_demo_refuses_a_folder_that_holds_a_game(demo):
    base, _ = demo
    result = pbem(base, "demo", "--scenario", "test-skirmish", "--dir", "d", expect=2)
    assert "a game already exists here" in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_demo_of_an_unknown_scenario_names_those_there_are(tmp_path):
    result = pbem(tmp_path, "demo", "--scenario", "leyte-invasion", expect=2)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "leyte-assault" in lines[0] and "test-skirmish" in lines[0]
    assert list(tmp_path.iterdir()) == []


def test_bot_writes_orders_that_validate_and_submit(tmp_path):
    for name in ("ref", "us", "jp"):
        pbem(tmp_path, "keygen", name, "--no-passphrase")
    pbem(tmp_path, "new", "test-skirmish", "--us", "us.pub", "--jp", "jp.pub", "--referee", "ref.pub", "--key", "ref.key", "--out", "game")
    result = pbem(tmp_path, "bot", "game/turn-0000.pbem", "--key", "us.key", "-o", "orders.json")
    assert "wrote orders.json: US orders" in result.stdout
    orders = json.loads((tmp_path / "orders.json").read_text())
    assert {m["unit"] for m in orders["moves"]} >= {"us-7cav", "us-12cav"}
    pbem(tmp_path, "validate", "orders.json", "--turn", "game/turn-0000.pbem", "--key", "us.key")
    pbem(tmp_path, "submit", "orders.json", "--turn", "game/turn-0000.pbem", "--key", "us.key")
    printed = pbem(tmp_path, "bot", "game/turn-0000.pbem", "--key", "us.key", "--policy", "random", "--seed", "5").stdout
    assert "moves" in json.loads(printed)
    again = pbem(tmp_path, "bot", "game/turn-0000.pbem", "--key", "us.key", "-o", "orders.json", expect=2)
    assert "never writes over" in again.stderr
    wrong = pbem(tmp_path, "bot", "game/turn-0000.pbem", "--key", "jp.key", expect=2)
    assert "US's turn" in wrong.stderr
    bad = pbem(tmp_path, "bot", "game/turn-0000.pbem", "--key", "us.key", "--policy", "clever", expect=2)
    assert "unknown policy 'clever'" in bad.stderr

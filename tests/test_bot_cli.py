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


@pytest.mark.parametrize("scenario, player_turns", [("test-skirmish", 8), ("legion-test-island", 18)])
def test_the_demo_without_a_referee_plays_a_two_player_game_verified_and_audited_from_its_files(tmp_path, scenario, player_turns):
    """Two-player mode (docs/PROTOCOL.md): each turn file written by the player who does not move, with the seed he
    committed; no reveal file — the audit replays every player-turn from the turn files alone — for either rules system."""
    result = pbem(tmp_path, "demo", "--scenario", scenario, "--no-referee", "--dir", "d", "--seed", "2")
    out = result.stdout
    assert f"{scenario}, two players and no referee, greedy US bot against greedy Japanese bot" in out
    assert f"verified: {player_turns + 1} turn files — " in out and "every player-turn replayed from the files alone" in out
    assert f"audited with no key, from the turn files alone (a two-player game hides nothing): {player_turns} adjudications replayed" in out
    assert "Result: " in out
    game = tmp_path / "d" / "game"
    assert sorted(p.name for p in (tmp_path / "d").glob("*.key")) == ["jp.key", "us.key"] and not (tmp_path / "d" / "reveal.pbem").exists()
    from pbem.loading.turns import open_turn

    turns = [open_turn(p).turn for p in sorted(game.glob("turn-*.pbem"))]
    assert len(turns) == player_turns + 1 and {t.mode for t in turns} == {"two-player"}
    assert turns[0].writer == "JP"  # the US moves first, so the Japanese player starts the game
    looks = out.split("Look at it with:\n", 1)[1].splitlines()
    assert looks[0].endswith(f" view d/game/turn-{player_turns:04d}.pbem --key d/us.key")
    assert looks[1].endswith(" dice d/game") and looks[2].endswith(" verify d/game") and looks[3].endswith(" audit d/game")
    assert "--reveal" not in out
    # each command it names runs as printed
    assert "the game is over" in pbem(tmp_path, "view", f"d/game/turn-{player_turns:04d}.pbem", "--key", "d/us.key").stdout.lower()
    assert f"replayed {player_turns} player-turn(s) from the files alone" in pbem(tmp_path, "verify", "d/game").stdout
    assert pbem(tmp_path, "audit", "d/game").stdout.startswith(f"audited {player_turns} adjudication(s) from the files alone")


def test_a_two_player_demo_refuses_the_escrow_of_hidden_units(tmp_path):
    result = pbem(tmp_path, "demo", "--scenario", "test-skirmish", "--no-referee", "--escrow", "--dir", "d", expect=2)
    assert "--escrow is for a demo with hidden units and no referee" in result.stderr and not (tmp_path / "d").exists()

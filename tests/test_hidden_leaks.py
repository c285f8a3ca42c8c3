"""No byte the American player can read tells him what a hidden Japanese unit is (issue 10 item 8, docs/hidden-units.md).

Bot games with the hidden-units option, in process (``tests/leak_scan.py``
checks every step) and through the real protocol (keys, sealed and signed
files, the referee's reveal and a keyless audit).  CI plays
``PBEM_LEAK_GAMES`` in-process games (8 by default: every scenario with two
pairings of the policies); ``benchmarks/hidden_leaks.py`` plays hundreds.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.bot.demo import run_demo
from pbem.loading.datafiles import load_scenario
from pbem.game import fog
from pbem.game.codec import state_from_json
from pbem.loading.turns import load_turn
from pbem.loading.folder import turn_name
from pbem.game.sizes import sealed_bucket
from pbem.protocol.armour import dearmour
from pbem.protocol.canonical import canonical_bytes
from pbem.protocol.keys import read_private
from pbem.protocol.sealing import sealed_length
from pbem.protocol.turnfile import open_referee_state, open_view
from tests import leak_scan
from tests.leak_scan import MARKER, Scan, forbidden, may_know, plan, scan_game, scan_text

GAMES = int(os.environ.get("PBEM_LEAK_GAMES", "8"))


@pytest.fixture(scope="module")
def scanned() -> Scan:
    scan = Scan()
    loaded = {}
    for scenario, policies, seed in plan(GAMES):
        loaded.setdefault(scenario, load_scenario(scenario))
        scan_game(scan, loaded[scenario], policies, seed)
    return scan


def test_bot_games_leak_nothing_to_the_american_player(scanned):
    assert scanned.games == GAMES and scanned.steps > 10 * GAMES
    assert scanned.leaks == []
    # the checks had something to check: markers over dummies and over real units, and identities traded
    assert scanned.shapes == {json.dumps(MARKER, sort_keys=True)}
    assert scanned.under_markers["dummy"] > 0 and scanned.under_markers["real"] > 0
    assert scanned.swaps > GAMES


def test_the_scan_catches_what_it_looks_for(monkeypatch):
    """A scan that cannot fail proves nothing: plant each kind of leak and see it reported."""
    loaded = load_scenario("test-skirmish")
    scan = Scan()
    scan_game(scan, loaded, ("greedy", "greedy"), 0)
    assert scan.leaks == []
    # (a) a hidden unit's name or a dummy's id in text the American player reads
    truth = opening_before_setup(loaded)
    banned = forbidden(truth, may_know(loaded.board, truth, []))
    hidden = next(u for u in truth.units if u.side == "JP" and u.id not in truth.hidden.exposed and u.kind != "dummy" and truth.on_map(u.id))
    scan_text(scan, "planted", f"the unit in 0605 is the {hidden.name}", banned)
    scan_text(scan, "planted", "removed JP-dummy-1", banned)
    assert len(scan.leaks) == 2
    # (b) a marker that differs by what stands under it, and (c) a picture that changes when identities are traded
    real = fog.american_state

    def telling(state):
        shown = real(state)
        under = {state.locations[u.id]: u for u in state.units if state.on_map(u.id)}
        return shown.model_copy(update={"units": tuple(
            u.model_copy(update={"defense": under[u.id].defense}) if u.kind == fog.HIDDEN else u for u in shown.units)})

    monkeypatch.setattr(fog, "american_state", telling)
    found = Scan()
    scan_game(found, loaded, ("greedy", "greedy"), 0, full_swaps=False)
    assert any("marker" in leak for leak in found.leaks)
    assert any("trade attributes" in leak for leak in found.leaks)


def opening_before_setup(loaded):
    from pbem.bot.selfplay import play_out

    game = play_out(loaded, {"US": "greedy", "JP": "greedy"}, seed=0, options=leak_scan.HIDDEN_UNITS)
    return game.steps[0].state


# -- through the protocol ------------------------------------------------------------------------------------------

DEMOS = [("test-skirmish", ("greedy", "greedy"), 3), ("leyte-assault", ("random", "greedy"), 4)]


def payload_text(path: Path) -> str:
    """What anyone holding the file reads in clear: an armoured block's payload (its sealed parts are ciphertext)."""
    text = path.read_text()
    if "-----BEGIN PBEM" not in text:
        return text
    _kind, headers, payload = dearmour(text, source=str(path))
    return " ".join(f"{k}: {v}" for k, v in headers.items()) + "\n" + payload.decode("utf-8", errors="replace")


@pytest.mark.parametrize("scenario,policies,seed", DEMOS)
def test_a_protocol_game_with_hidden_units_leaks_nothing_and_audits(tmp_path, scenario, policies, seed):
    result = run_demo(scenario, tmp_path / "demo", seed=seed, policies={"US": policies[0], "JP": policies[1]},
                      options=leak_scan.HIDDEN_UNITS)
    assert result.verify_findings == []
    assert result.audit.ok, [f.render() for f in result.audit.findings]
    assert result.audit.replayed == result.player_turns  # the set-up, every intelligence roll and dummy removal replayed
    loaded = load_scenario(scenario)
    us = read_private(result.keys["US"], None)
    referee = read_private(result.keys["referee"], None)
    leaks = Scan()
    every_dummy = previous = None
    for seq in range(result.player_turns + 1):
        path = result.game / turn_name(seq)
        turn = load_turn(path)
        secret = open_referee_state(turn, referee).state
        truth = state_from_json(secret["state"])
        events = secret["last"]["events"] if secret["last"] else []
        banned = forbidden(truth, may_know(loaded.board, truth, events))
        every_dummy = every_dummy or leak_scan.dummies(truth)
        view = open_view(turn, "US", us)
        text = payload_text(path)
        if seq == 0:  # the scenario document is public: it lists the order of battle, not where each unit is set up
            text = text.replace(canonical_bytes(turn.public["scenario_document"]).decode(), "")
        if turn.public["over"]:  # the final victory report names the units that score (docs/hidden-units.md)
            view = leak_scan.without_final_report(view)
            text = text.replace(canonical_bytes(turn.public["victory"]).decode(), "")
        scan_text(leaks, f"{path.name}", text, banned)
        scan_text(leaks, f"{path.name} US view", canonical_bytes(view).decode(), banned)
        for roll in turn.dice.rolls:
            scan_text(leaks, f"{path.name} dice", roll["purpose"], banned)
        leak_scan.check_markers(leaks, path.name, truth, view)
        # every sealed length is the public one (issue 19 item 5): fixed by the scenario, or the previous file's
        public_size = sealed_length(sealed_bucket(loaded.scenario, hidden=True, previous=previous))
        assert (len(turn.views["US"]), len(turn.views["JP"]), len(turn.referee_state)) == (public_size,) * 3, path.name
        previous = turn
    assert leaks.leaks == []
    assert leaks.under_markers["real"] > 0
    # file names and the other files in the game folder: nothing but sequence, side and revision, no dummy anywhere
    for path in sorted(result.game.iterdir()):
        scan_text(leaks, path.name, path.name, every_dummy)
        # The Japanese receipt is his own record of the orders he wrote, dummies' moves included (19B.6): it stays
        # on his machine and is never sent (pbem/game/receipts.py); the demo merely keeps both players in one folder.
        if not path.name.startswith("turn-") and not path.name.endswith("-JP.receipt"):
            scan_text(leaks, path.name, payload_text(path), every_dummy)
    assert leaks.leaks == []


def test_reveal_and_a_keyless_audit_replay_a_hidden_units_game(tmp_path):
    result = run_demo("test-skirmish", tmp_path / "demo", seed=5, options=leak_scan.HIDDEN_UNITS)
    folder = result.folder

    def pbem(*args):
        done = subprocess.run([sys.executable, "-m", "pbem", *args], capture_output=True, text=True, cwd=folder)
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stdout + done.stderr
        return done.stdout

    pbem("reveal", "game", "--key", "ref.key", "-o", "published.pbem")
    for key in folder.glob("*.key"):
        key.unlink()  # the audit needs no key
    out = pbem("audit", "game", "--reveal", "published.pbem")
    assert f"audited {result.player_turns} adjudication(s)" in out
    assert f"{2 * (result.player_turns + 1)} sealed view(s) confirmed" in out


def test_the_award_check_catches_an_award_told_to_the_american_player(monkeypatch):
    """(d) of the scan: the Ormoc award (16.34) must not tell a dummy from a unit (issue 19 item 6)."""
    from pbem.engine.dice import FixedDice
    from pbem.game.step import play
    from tests.test_hidden_rules import position, world

    ormoc = {"side": "JP", "hex": "0505", "points": 10, "name": "Ormoc", "at_end_of_turn": 1, "source": "16.34"}
    w = world(objectives=[ormoc])
    before = position(w, {"jp-inf-1": "0505"}, dummies=["0605"], phasing="JP")
    ruleset = w.scenario.ruleset.model_dump(mode="json")

    def scanned() -> Scan:
        scan = Scan()
        after = play(w, ruleset, before, {}, FixedDice([]), game="selfplay", seq=1, source="orders",
                     scenario_ref={"id": w.scenario.id, "hash": "selfplay"})  # as the scan builds its views
        leak_scan.check_awards(scan, "ormoc", w, ruleset, after, before, 1)
        return scan

    assert scanned().awards == 1 and scanned().leaks == []
    told = fog.american_events
    # as before the fix: the award's event passed on to the American view
    monkeypatch.setattr(fog, "american_events", lambda board, before, after, events: told(board, before, after, events)
                        + [e for e in events if e["type"] == "awarded"])
    assert any("timed award" in leak for leak in scanned().leaks)


def test_the_leak_benchmark_runs_at_a_tiny_budget():
    """benchmarks/hidden_leaks.py in CI: the scan, the set-up observer, the twin turn files, at two games."""
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, "benchmarks/hidden_leaks.py", "--games", "2", "--training", "20"],
                          capture_output=True, text=True, cwd=root)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 games" in done.stdout and "0 leak(s)" in done.stdout and "twin turn files compared" in done.stdout
    assert "set-up observer: 2 games" in done.stdout and "baseline" in done.stdout

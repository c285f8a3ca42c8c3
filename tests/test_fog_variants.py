"""The fog variants IPH 6.8 and Formosa 11.0-11.2 (issue 41, docs/hidden-units.md) played whole, with a referee.

Small games of the smallest scenario: each variant's bot game through the
real files (keys, sealed turn files, verify, the referee's reveal and an
audit with no key, as ``run_demo`` plays them), the leak scan of ``tests/leak_scan.py`` on every step of
in-process games, with the variant's own idea of what the American player
may know, and the refusal of two fog options at once.  The rules themselves
are held by the cases examples/cases/IW-FOG-*.json.
"""

from __future__ import annotations

import json
import pytest

from pbem.bot.demo import run_demo
from pbem.game.codec import state_from_json
from pbem.loading.datafiles import load_scenario
from pbem.loading.folder import turn_name
from pbem.loading.turns import load_turn
from pbem.protocol.canonical import canonical_bytes
from pbem.protocol.keys import read_private
from pbem.protocol.turnfile import open_referee_state, open_view
from tests import leak_scan
from tests.leak_scan import MARKER, Scan, forbidden, may_know, scan_game, scan_text
from tests.games import run

VARIANTS = ["fog-iph", "fog-formosa"]


@pytest.mark.parametrize("option", VARIANTS)
def test_in_process_games_of_the_variant_leak_nothing(option):
    scan = Scan()
    loaded = load_scenario("test-skirmish")
    for policies, seed in ((("greedy", "greedy"), 1), (("random", "greedy"), 2)):
        scan_game(scan, loaded, policies, seed, full_swaps=False, options=[option])
    assert scan.games == 2 and scan.steps > 10
    assert scan.leaks == []
    assert scan.shapes == {json.dumps(MARKER, sort_keys=True)}
    assert scan.under_markers["real"] > 0


def test_the_variants_scan_is_stricter_than_19b():
    """A Japanese move through a clear hex is known under 19B.3 and not under IPH 6.8 or Formosa 11.0: planted, the
    variant's scan reports it."""
    loaded = load_scenario("test-skirmish")
    from pbem.bot.selfplay import play_out

    game = play_out(loaded, {"US": "greedy", "JP": "greedy"}, seed=1, options=["fog-formosa"])
    state = game.steps[-1].state
    hidden = [u.id for u in state.units if u.side == "JP" and not u.is_dummy and u.id not in state.hidden.exposed
              and state.on_map(u.id)]
    assert hidden
    clear_hex = next(h for h in ("0101", "0102", "0201") if loaded.board.terrain(h).crt == "clear")
    moved = [{"type": "moved", "unit": hidden[0], "from": clear_hex, "path": [clear_hex]}]
    assert hidden[0] not in may_know(loaded.board, state, moved)
    legion = state.model_copy(update={"hidden": state.hidden.model_copy(update={"variant": "hidden-units"})})
    assert hidden[0] in may_know(loaded.board, legion, moved)
    scan = Scan()
    scan_text(scan, "planted", f"the unit {hidden[0]} moved", forbidden(state, may_know(loaded.board, state, moved)))
    assert scan.leaks


@pytest.mark.parametrize("option", VARIANTS)
def test_a_refereed_game_of_the_variant_verifies_audits_and_leaks_nothing(tmp_path, option):
    result = run_demo("test-skirmish", tmp_path / "demo", seed=3, options=[option])
    assert result.verify_findings == []
    assert result.audit.ok, [f.render() for f in result.audit.findings]
    assert result.audit.replayed == result.player_turns
    loaded = load_scenario("test-skirmish")
    us, referee = read_private(result.keys["US"], None), read_private(result.keys["referee"], None)
    leaks = Scan()
    variants = set()
    for seq in range(result.player_turns + 1):
        turn = load_turn(result.game / turn_name(seq))
        if seq == 0:
            assert turn.public["options"] == [option]  # the genesis records the variant for every party
        secret = open_referee_state(turn, referee).state
        truth = state_from_json(secret["state"])
        variants.add(truth.hidden.variant)
        events = secret["last"]["events"] if secret["last"] else []
        banned = forbidden(truth, may_know(loaded.board, truth, events))
        view = open_view(turn, "US", us)
        if turn.public["over"]:
            view = leak_scan.without_final_report(view)
        scan_text(leaks, f"{seq} US view", canonical_bytes(view).decode(), banned)
        for roll in turn.dice.rolls:
            scan_text(leaks, f"{seq} dice", roll["purpose"], banned)
        leak_scan.check_markers(leaks, str(seq), truth, view)
    assert variants == {option}
    assert leaks.leaks == [] and leaks.under_markers["real"] > 0


def test_two_fog_options_at_once_are_refused(tmp_path):
    code, out, err = run("demo", "--scenario", "test-skirmish", "--dir", str(tmp_path / "d"),
                         "--option", "fog-iph", "--option", "hidden-units")
    assert code == 2 and "Traceback" not in err
    said = out + err
    assert "fog-iph" in said and "hidden-units" in said and "two ways of hiding units" in said
    assert not (tmp_path / "d").exists()  # refused before anything is made
    for extra in (["--no-referee", "--option", "fog-iph", "--option", "fog-formosa"], ["--option", "no-such-option"]):
        code, out, err = run("demo", "--scenario", "test-skirmish", "--dir", str(tmp_path / "e"), *extra)
        assert code == 2 and "Traceback" not in err and not (tmp_path / "e").exists(), out + err

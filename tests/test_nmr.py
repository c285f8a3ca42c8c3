"""No moves received (issue 23, ``--nmr bot``): the referee plays the bot's orders, and cannot have chosen them.

An NMR record (pbem.protocol.nmr) stands in the turn file where the player's signed orders header would be.
The attacks: a referee who picks the dice (another salt), plays orders of his own choosing under a good record,
or plays an NMR for the side that was not awaited.  Each must be caught, by ``verify`` at once or by the keyless
``audit`` after the game; the tests say which.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.game.codec import state_from_json
from pbem.loading.turns import load_turn, scenario_of
from pbem.game.modes.referee.nmr import adjudicate_nmr
from pbem.game.replay import nmr_source
from pbem.game.step import play
from pbem.game.modes.referee.start import start_game
from pbem.protocol import signing
from pbem.protocol.canonical import b64e
from pbem.protocol.dice import DiceStream, new_seed
from pbem.protocol.files import write_new
from pbem.protocol.nmr import FORMAT, SIGN_CONTEXT, nmr_salt
from pbem.protocol.turnfile import build_turn, open_referee_state
from tests.games import LANDING, SKIRMISH, run, write_parties


def _game(base: Path, scenario: str = str(SKIRMISH), options: list[str] | None = None) -> dict:
    ids = write_parties(base)
    (base / "game").mkdir()
    genesis = start_game(scenario, ids["ref"], ids["us"].public, ids["jp"].public, options=options)
    write_new(base / "game" / "turn-0000.pbem", genesis.text)
    return ids


def _forged(turn, ref, *, side: str, salt: bytes | None = None, orders=None, policy: str = "greedy", fmt: str = FORMAT):
    """A turn file signed by the referee with an NMR record he made up: his own salt, or his own orders."""
    right = nmr_salt(turn.game, turn.digest, side, policy)
    salt = right if salt is None else salt
    record = signing.sign(ref, {"format": fmt, "game": turn.game, "answers": {"seq": turn.seq, "turn": turn.digest},
                                "side": side, "policy": policy, "salt": b64e(salt)}, SIGN_CONTEXT)
    secret = open_referee_state(turn, ref)
    loaded = scenario_of(turn)
    if orders is None:
        from pbem.game.replay import nmr_orders
        from pbem.game.modes.referee.nmr import side_view_opening

        nonce, view = side_view_opening(turn, ref, side)
        orders = nmr_orders(view, loaded, "greedy", right, nonce, fmt)
    dice = DiceStream(secret.next_seed, salt)
    ref_scenario = {"id": turn.scenario_id, "hash": turn.scenario_hash}
    step = play(loaded, turn.ruleset, state_from_json(secret.state["state"]), orders, dice, game=turn.game, seq=turn.seq + 1,
                scenario_ref=ref_scenario, source=nmr_source(turn.seq, side))
    return build_turn(ref, game=turn.game, seq=turn.seq + 1, scenario=ref_scenario, ruleset=turn.ruleset, identities=turn.identities,
                      public=step.public, views=step.views, referee_state=step.referee_state, next_seed=new_seed(), prev=turn,
                      orders=record, dice_used=dice, superseded=[])


def _audit(base: Path) -> tuple[int, str]:
    status, out, err = run("reveal", base / "game", "--key", base / "ref.key", "-o", base / "reveal.pbem")
    assert status == 0, err
    status, out, err = run("audit", base / "game", "--reveal", base / "reveal.pbem")
    return status, out + err


def test_nmr_by_hand_verifies_and_the_keyless_audit_recomputes_it(tmp_path):
    _game(tmp_path)
    game = tmp_path / "game"
    status, out, err = run("adjudicate", game / "turn-0000.pbem", "--nmr", "US", "--key", tmp_path / "ref.key")
    assert status == 0, err
    assert "no moves received from US" in out
    turn = load_turn(game / "turn-0001.pbem")
    assert turn.orders_header["body"]["format"] == FORMAT and turn.orders_header["body"]["side"] == "US"
    assert turn.public["last"]["side"] == "US"
    status, out, err = run("view", game / "turn-0001.pbem", "--key", tmp_path / "jp.key")
    assert status == 0 and "Last player-turn (US, no moves received: the bot's orders)" in out, out + err
    for key in ("us.key", "jp.key"):  # each player's verify, the US one replaying the NMR from his own view
        status, out, err = run("verify", game, "--replay-mine", "--key", tmp_path / key)
        assert status == 0, out + err
        assert ("replayed 1 of your own" in out) == (key == "us.key"), out
    status, out = _audit(tmp_path)
    assert status == 0 and "audited 1 adjudication" in out, out


def test_the_same_turn_file_always_gives_the_same_nmr(tmp_path):
    """Orders and dice follow from the turn file answered alone: a referee who tries again gets the same turn."""
    ids = _game(tmp_path)
    genesis = load_turn(tmp_path / "game" / "turn-0000.pbem")
    first, record = adjudicate_nmr(genesis, ids["ref"], "US")
    again, same = adjudicate_nmr(genesis, ids["ref"], "US")
    assert record.salt == same.salt == nmr_salt(genesis.game, genesis.digest, "US", "greedy")
    assert first.turn.dice.rolls == again.turn.dice.rolls
    assert first.turn.public == again.turn.public and first.step.referee_state == again.step.referee_state


def test_hidden_setup_nmr_is_drawn_from_the_salt_and_audited(tmp_path):
    """Under hidden units the Japanese bot draws the secret set-up on the Japanese view, from the NMR's salt; then the
    American bot plays on the American view.  Both replay in the keyless audit."""
    ids = _game(tmp_path, "leyte-assault", ["hidden-units"])
    game = tmp_path / "game"
    genesis = load_turn(game / "turn-0000.pbem")
    one, _ = adjudicate_nmr(genesis, ids["ref"], "JP")
    two, _ = adjudicate_nmr(genesis, ids["ref"], "JP")
    assert one.step.referee_state == two.step.referee_state  # the set-up drawn is the same each time
    for seq, side in ((0, "JP"), (1, "US")):
        status, out, err = run("adjudicate", game / f"turn-{seq:04d}.pbem", "--nmr", side, "--key", tmp_path / "ref.key")
        assert status == 0, err
    status, out, err = run("verify", game, "--replay-mine", "--key", tmp_path / "jp.key")
    assert status == 0 and "replayed 1 of your own" in out, out + err  # the Japanese player checks his set-up NMR at once
    status, out, err = run("verify", game, "--replay-mine", "--key", tmp_path / "us.key")
    assert status == 0, out + err  # the American cannot replay under hidden units (he is told so); the audit does
    status, out = _audit(tmp_path)
    assert status == 0 and "audited 2 adjudication" in out, out


def test_a_referee_who_picks_the_nmr_dice_is_caught_by_verify(tmp_path):
    ids = _game(tmp_path)
    genesis = load_turn(tmp_path / "game" / "turn-0000.pbem")
    write_new(tmp_path / "game" / "turn-0001.pbem", _forged(genesis, ids["ref"], side="US", salt=b"\x07" * 32).text)
    status, out, err = run("verify", tmp_path / "game")
    assert status == 1 and "salt is not the one derived from the turn file answered" in out + err, out + err


def test_a_referee_who_plays_his_own_orders_under_an_nmr_is_caught_by_the_player_and_the_audit(tmp_path):
    """The record is right, the orders are not the bot's: the chain cannot see orders, so 'pbem verify' alone passes;
    the US player's verify with his key replays the NMR from his view at once and fails, and so does the audit."""
    ids = _game(tmp_path)
    genesis = load_turn(tmp_path / "game" / "turn-0000.pbem")
    honest, _ = adjudicate_nmr(genesis, ids["ref"], "US")
    forged = _forged(genesis, ids["ref"], side="US", orders=LANDING)
    assert forged.public != honest.turn.public  # the orders the referee chose play out otherwise
    write_new(tmp_path / "game" / "turn-0001.pbem", forged.text)
    status, out, err = run("verify", tmp_path / "game")
    assert status == 0, out + err
    status, out, err = run("verify", tmp_path / "game", "--replay-mine", "--key", tmp_path / "us.key")
    assert status == 1 and "not what your orders give" in out + err, out + err
    status, out = _audit(tmp_path)
    assert status == 1 and "not what the replay gives" in out, out


def test_an_nmr_for_the_side_not_awaited_is_caught_by_verify(tmp_path):
    ids = _game(tmp_path)
    genesis = load_turn(tmp_path / "game" / "turn-0000.pbem")
    write_new(tmp_path / "game" / "turn-0001.pbem", _forged(genesis, ids["ref"], side="JP", orders={"moves": [], "attacks": []}).text)
    status, out, err = run("verify", tmp_path / "game")
    assert status == 1 and "plays an NMR for JP, but turn file 0 awaited US's orders" in out + err, out + err


@pytest.mark.parametrize("args, words", [
    (["--nmr", "JP"], "awaits US's orders"),
    (["--nmr", "XX"], "--nmr US or --nmr JP"),
])
def test_bad_nmr_requests_are_refused(tmp_path, args, words):
    _game(tmp_path)
    status, out, err = run("adjudicate", tmp_path / "game" / "turn-0000.pbem", *args, "--key", tmp_path / "ref.key")
    assert status == 2 and words in err, err
    assert not (tmp_path / "game" / "turn-0001.pbem").exists()


def test_a_player_whose_orders_were_passed_over_by_an_nmr_is_told_by_his_verify(tmp_path):
    """The deadline is the referee's word: a player who did send orders (his receipt says so) and finds an NMR in
    their place is told, so he can take it up with the referee."""
    import json

    _game(tmp_path)
    game = tmp_path / "game"
    (tmp_path / "orders.json").write_text(json.dumps(LANDING))
    status, out, err = run("submit", tmp_path / "orders.json", "--turn", game / "turn-0000.pbem", "--key", tmp_path / "us.key")
    assert status == 0, err
    status, out, err = run("adjudicate", game / "turn-0000.pbem", "--nmr", "US", "--key", tmp_path / "ref.key")
    assert status == 0, err
    status, out, err = run("verify", game)
    assert status == 0 and "the bot's orders for you (NMR)" in out, out + err


def test_an_nmr_of_an_older_pbem_still_verifies_and_audits(tmp_path):
    """Issue 37 changed the NMR's bot seed (pbem-nmr-2: keyed by the missing side's view nonce); a pbem-nmr-1 record
    of a game played before, whose bot seed was the salt's first 8 bytes, still verifies and audits."""
    from pbem.protocol.nmr import OLD_FORMAT

    ids = _game(tmp_path)
    genesis = load_turn(tmp_path / "game" / "turn-0000.pbem")
    write_new(tmp_path / "game" / "turn-0001.pbem", _forged(genesis, ids["ref"], side="US", fmt=OLD_FORMAT).text)
    status, out, err = run("verify", tmp_path / "game", "--replay-mine", "--key", tmp_path / "us.key")
    assert status == 0, out + err
    status, out = _audit(tmp_path)
    assert status == 0, out

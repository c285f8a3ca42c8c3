"""The escrow of a game with hidden units and no referee, through the real files (issue 24).

``pbem new … --escrow HOLDER.pub`` names a third party; every Japanese file
then carries the secret and the orders it commits, sealed to him.  The
attacks: a Japanese player who cheats and then withholds his secret (the
holder recovers it, the audit catches the cheat); a Japanese player who
seals a bad escrow part (garbage, another step's, a part copied from an
earlier file: found at recovery naming him and the step) or a short one
(found at once by the American player); a wrong key at recovery; and the
observer: the American player measuring the parts (their length is the same
whatever the orders).
"""

from __future__ import annotations

import itertools
import json
import os
import re
from pathlib import Path

import pytest

from pbem.game.modes.blind import escrow as blind_escrow
from pbem.protocol import blindfile
from pbem.protocol.canonical import b64d
from tests.blind_games import SCENARIO, SECRETS, Player, illegal_mover, play_to_the_end, publish_secret, step, reproducible, resign as _resign  # noqa: F401  (an autouse fixture: the same game id and secrets every game)
from tests.games import pbem


def begin(base: Path, *, escrow: bool = True, fresh: bool = True) -> dict[str, Player]:
    """``pbem new`` by the Japanese player, with a third party as escrow holder (``players["ESC"]``); ``fresh``: the
    secrets of tests/test_blind_file_attacks.py's reproducible games start again (else they run on: another game)."""
    base.mkdir(parents=True, exist_ok=True)
    if fresh:
        SECRETS[0] = itertools.count(1)
    players = {side: Player(base, side) for side in ("US", "JP")}
    holder = Player(base, "ESC")
    jp, us = players["JP"], players["US"]
    said = pbem("new", SCENARIO, "--us", us.pub, "--jp", jp.pub, "--key", jp.key, "--out", jp.game,
                "--no-referee", "--option", "hidden-units", *(["--escrow", holder.pub] if escrow else []))
    assert ("escrow:" in said) == escrow
    us.game.mkdir()
    jp.mail(blindfile.file_name(0), us)
    return {**players, "ESC": holder}


def playing(players) -> dict[str, Player]:
    return {side: players[side] for side in ("US", "JP")}


def recover(players, code: int = 0) -> str:
    return pbem("blind", "recover", players["US"].game, "--key", players["ESC"].key, code=code)


def jp_files(folder: Path) -> list[blindfile.Message]:
    return [blindfile.read(p.read_text(), p.name) for p in blindfile.numbered_files(folder) if p.name.endswith("-JP.pbem")]


# -- a Japanese player who cheats, then withholds his secret: the holder recovers it, the audit catches him ---------

def test_a_cheater_who_withholds_his_secret_is_audited_from_the_escrow_and_his_illegal_move_caught(tmp_path, monkeypatch):
    for attempt in range(4):  # a game where one of his hidden units can move beyond its allowance (5.13)
        with illegal_mover(monkeypatch, "5.13") as cheat:
            players = begin(tmp_path / str(attempt), fresh=attempt == 0)  # another game each attempt
            play_to_the_end(playing(players))
        if cheat:
            break
    else:
        pytest.fail("no game offered a hidden move beyond its allowance")
    us, jp = players["US"], players["JP"]
    orders = json.loads((jp.game / "blind-private-JP.json").read_text())["orders"]
    from pbem.protocol.canonical import canonical_bytes

    seq = next(int(s) for s, o in orders.items() if canonical_bytes(o) == cheat["orders"])
    # He withholds his secret: a finding at the end, and the American player is told who can close it.
    said = pbem("verify", us.game, code=1)
    assert "JP withheld his secret" in said and "the escrow holder, esc" in said and "pbem blind recover" in said
    said = us.status(code=1)
    assert "escrow: held by esc" in said and "pbem blind recover" in said
    # The holder recovers it from the American player's folder alone (the Japanese folder is gone).
    said = recover(players)
    assert f"wrote {us.game / blind_escrow.RECOVERED_NAME}" in said
    recovered = blindfile.read((us.game / blind_escrow.RECOVERED_NAME).read_text(), "r").body
    assert recovered["from"] == "escrow" and recovered["holder"].startswith("pbem-id-1 esc ")
    assert recovered["secret"] == json.loads((jp.game / "blind-private-JP.json").read_text())["secret"]
    assert {int(k) for k in recovered["orders"]} == {int(k) for k in orders}  # every committed order of his
    said = pbem("verify", us.game)  # nothing withheld any more; where the secret came from is said
    assert "verified" in said and "came from the escrow, recovered by esc" in said
    assert json.loads(pbem("verify", us.game, "--json"))["secret_from"] == "escrow"
    said = us.status()
    assert "recovered by esc" in said and "pbem audit" in said
    assert json.loads(pbem("status", us.game, "--key", us.key, "--json"))["secret_from"] == "escrow"
    said = pbem("audit", us.game, code=1)  # the audit runs to the end, as after publish-secret, and catches him
    assert "AUDIT FAILED" in said and f"step {seq}: JP carried out orders the rules refuse (5.13)" in said, said
    assert cheat["unit"] in said and "caught at the audit" in said
    said = recover(players, code=2)  # a recovered secret is never written again
    assert "published already" in said


def test_an_honest_game_recovered_from_the_escrow_audits_as_after_publish_secret(tmp_path):
    players = begin(tmp_path)
    play_to_the_end(playing(players))
    recover(players)
    said = pbem("audit", players["US"].game)
    assert re.search(r"audited \d+ step\(s\) with full information", said) and "came from the escrow" in said
    # the Japanese player may still publish his own: then his is the one read
    publish_secret(playing(players))
    assert json.loads(pbem("verify", players["US"].game, "--json"))["secret_from"] == "JP"


# -- a bad escrow part: found at recovery, naming the Japanese player and the step -----------------------------------

@pytest.mark.parametrize("bad", ["garbage", "another step", "replayed", "malformed"])
def test_a_bad_escrow_part_is_found_at_recovery_naming_the_japanese_player_and_the_step(tmp_path, monkeypatch, bad):
    real, sealed, cheat = blind_escrow.seal_part, {}, {}

    def seal_part(holder, *, game, n, secret, seq, orders, bucket):  # the Japanese player's modified pbem
        part = real(holder, game=game, n=n, secret=secret, seq=seq, orders=orders, bucket=bucket)
        if not cheat and n >= 4 and seq is not None:  # the first file after the set-up that commits orders
            cheat.update(n=n, seq=seq)
            if bad == "garbage":
                part = os.urandom(len(part))
            elif bad == "another step":
                part = real(holder, game=game, n=n, secret=secret, seq=seq - 1, orders=orders, bucket=bucket)
            elif bad == "malformed":  # it opens, but holds a field no escrow part has (schemas/blind-escrow-part.schema.json)
                from pbem.protocol import sealing
                from pbem.protocol.canonical import b64e, canonical_bytes

                plain = {"game": game, "n": n, "secret": b64e(secret), "seq": seq, "orders": orders, "note": "x"}
                part = sealing.seal_compressed(sealing.compress(canonical_bytes(plain)), holder,
                                               blind_escrow.part_info(game, n), min_bucket=bucket)
            else:  # the part of his previous file, pasted in
                part = sealed[max(k for k in sealed if k < n)]
        sealed[n] = part
        return part

    monkeypatch.setattr(blind_escrow, "seal_part", seal_part)
    players = begin(tmp_path)
    play_to_the_end(playing(players))
    assert cheat, "no Japanese file committed orders"
    us = players["US"]
    assert [f["cheater"] + f["when"] for f in json.loads(pbem("verify", us.game, "--json", code=1))["findings"]] == ["JPat the end"]
    said = recover(players, code=1)
    name = blindfile.file_name(cheat["n"])
    assert f"RECOVERY FAILED: step {cheat['seq']}: JP " in said and f"(the escrow part of {name})" in said, said
    assert "caught at recovery" in said
    words = {"garbage": "does not open as this file's", "another step": f"escrowed the orders of step {cheat['seq'] - 1}",
             "replayed": "does not open as this file's",
             "malformed": "opens but is malformed — (top level): Additional properties are not allowed ('note'"}[bad]
    assert words in said, said
    assert not (us.game / blind_escrow.RECOVERED_NAME).exists()


def test_an_escrow_part_shorter_than_due_is_caught_at_once_by_the_american_player(tmp_path, monkeypatch):
    real = blind_escrow.seal_part
    monkeypatch.setattr(blind_escrow, "seal_part", lambda holder, **kw: real(holder, **{**kw, "bucket": 1024}))
    players = begin(tmp_path)  # the genesis's part is sealed in pbem new: short already
    us = players["US"]
    said = pbem("blind", "next", us.game, "--key", us.key, code=1)
    assert "do not play on" in said and "JP sent an escrow part in blind-0000-JP.pbem of another length than due" in said


def test_a_file_without_its_escrow_part_is_caught_at_once(tmp_path):
    players = begin(tmp_path)
    for _ in range(2):
        step(playing(players))  # blind-0001-US, blind-0002-JP
    us, jp = players["US"], players["JP"]
    _resign(us.game / blindfile.file_name(2), jp.key, lambda body: body.pop(blind_escrow.PART))
    said = pbem("verify", us.game, code=1)
    assert "JP sent blind-0002-JP.pbem without its escrow part" in said and "caught at once" in said


# -- the holder's key, and a game without escrow -------------------------------------------------------------------

def test_recovery_with_another_key_than_the_holders_is_refused_naming_the_holder(tmp_path):
    players = begin(tmp_path)
    step(playing(players))
    said = pbem("blind", "recover", players["US"].game, "--key", players["US"].key, code=2)
    assert "--key is us (fingerprint" in said and "the escrow of this game is held by esc (fingerprint" in said
    assert not (players["US"].game / blind_escrow.RECOVERED_NAME).exists()


def test_a_game_without_escrow_has_nothing_to_recover_and_carries_no_escrow_part(tmp_path):
    players = begin(tmp_path, escrow=False)
    step(playing(players))
    step(playing(players))
    assert not any(blind_escrow.PART in m.body or "escrow" in m.body for m in jp_files(players["US"].game))
    said = recover(players, code=2)
    assert "this game has no escrow" in said


def test_escrow_is_refused_outside_the_mode_that_has_a_secret(tmp_path):
    players = {side: Player(tmp_path, side) for side in ("US", "JP", "ESC")}
    said = pbem("new", SCENARIO, "--us", players["US"].pub, "--jp", players["JP"].pub, "--key", players["JP"].key,
                "--out", tmp_path / "g", "--no-referee", "--escrow", players["ESC"].pub, code=2)
    assert "--escrow names who holds the Japanese secret" in said


# -- the observer: the American player measuring the escrow parts -------------------------------------------------

def test_the_escrow_part_has_the_same_length_whatever_the_orders(tmp_path, monkeypatch):
    """Two games whose Japanese player gives different orders (greedy, then random): every escrow part of both is
    one length, while what they hold differs in length (so the test would see a leak)."""
    import pbem.bot.play as bot
    from pbem.protocol import sealing
    from pbem.protocol.keys import read_private

    real_orders = bot.bot_orders
    lengths, inside, orders_seen = [], [], []
    for policy in ("greedy", "random"):
        def orders(view, loaded, p="greedy", seed=0, think=None, policy=policy):
            return real_orders(view, loaded, policy if view.get("side") == "JP" else p, seed, think)

        with monkeypatch.context() as m:
            m.setattr(bot, "bot_orders", orders)
            players = begin(tmp_path / policy)
            play_to_the_end(playing(players), until=12)
        holder = read_private(players["ESC"].key, None)
        for message in jp_files(players["US"].game):
            part = b64d(message.body[blind_escrow.PART])
            lengths.append(len(part))
            plain = sealing.open_sealed(part, holder, blind_escrow.part_info(message.body["game"], message.n))
            inside.append(len(sealing.compress(plain)))
            orders_seen.append(json.loads(plain)["orders"])
    assert len(set(lengths)) == 1, lengths
    assert len(set(inside)) > 3, inside  # what is sealed differs from file to file and game to game
    assert any(o is None for o in orders_seen) and sum(o is not None for o in orders_seen) >= 4
    half = len(orders_seen) // 2
    assert orders_seen[:half] != orders_seen[half:]  # the two games' orders differ


def test_a_japanese_player_who_vanishes_mid_game_is_audited_up_to_where_he_stopped(tmp_path):
    players = begin(tmp_path)
    play_to_the_end(playing(players), until=7)  # he never answers blind-0007-US.pbem
    us = players["US"]
    said = recover(players)
    assert "the game was not over: it ends here" in said
    assert "the game ends here" in us.status()
    said = pbem("audit", us.game)
    assert "audited 3 step(s) with full information" in said and "came from the escrow" in said


def test_a_recovered_file_with_other_orders_than_committed_names_the_holder_not_the_japanese_player(tmp_path):
    """A holder who sides with the American player cannot frame the Japanese player with orders he never gave."""
    players = begin(tmp_path)
    play_to_the_end(playing(players), until=7)
    recover(players)
    us = players["US"]
    path = us.game / blind_escrow.RECOVERED_NAME

    def frame(body):
        body["orders"]["1"] = {"deployment": {"units": {}, "dummies": []}}

    _resign(path, players["ESC"].key, frame)
    said = pbem("audit", us.game, code=1)
    assert f"{path}: orders.1: holds other orders for step 1 than the Japanese player committed" in said, said
    assert "the escrow holder (esc" in said

"""The escrow of a game with hidden units and no referee, through the real files (issues 24 and 36).

``pbem new … --escrow HOLDER.pub`` names a third party; the genesis deals
the Japanese secret between him and the American player (Schoenmakers'
PVSS, pbem/protocol/pvss.py), which the American player checks at once, and
every Japanese file carries the orders it commits, encrypted under a key
the secret derives.  The attacks, each by a cheating Japanese client against
the victim's unmodified pbem: a dealing of garbage, for another key or
another game (refused at once by the American player's ``blind next``); a
cheat, then a stall (the holder and the American player open the game
together, the audit catches the cheat); a bad escrow part (found when the
game is opened, naming him and the step); a holder alone (opens nothing); a
holder who frames the Japanese player (his share does not verify); and the
observer measuring the parts.
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
from tests.games import pbem, run


def begin(base: Path, *more: str, escrow: bool = True, fresh: bool = True) -> dict[str, Player]:
    """``pbem new`` by the Japanese player, with a third party as escrow holder (``players["ESC"]``); ``fresh``: the
    secrets of tests/test_blind_file_attacks.py's reproducible games start again (else they run on: another game)."""
    base.mkdir(parents=True, exist_ok=True)
    if fresh:
        SECRETS[0] = itertools.count(1)
    players = {side: Player(base, side) for side in ("US", "JP")}
    holder = Player(base, "ESC")
    jp, us = players["JP"], players["US"]
    said = pbem("new", SCENARIO, "--us", us.pub, "--jp", jp.pub, "--key", jp.key, "--out", jp.game,
                "--no-referee", "--option", "hidden-units", *(["--escrow", holder.pub] if escrow else []), *more)
    assert ("escrow: your secret is dealt between esc" in said) == escrow
    assert ("no escrow: this game names no escrow holder" in said) != escrow
    us.game.mkdir()
    jp.mail(blindfile.file_name(0), us)
    return {**players, "ESC": holder}


def playing(players) -> dict[str, Player]:
    return {side: players[side] for side in ("US", "JP")}


def recover(players, code: int = 0, who: str = "ESC", then_us: bool = True) -> str:
    """The holder opens his share (``who``), then, with ``then_us``, the American player opens his."""
    said = pbem("blind", "recover", players["US"].game, "--key", players[who].key, code=code if not then_us else 0)
    if then_us:
        said += pbem("blind", "recover", players["US"].game, "--key", players["US"].key, code=code)
    return said


def jp_files(folder: Path) -> list[blindfile.Message]:
    return [blindfile.read(p.read_text(), p.name) for p in blindfile.numbered_files(folder) if p.name.endswith("-JP.pbem")]


def stall(monkeypatch, days: int = 30) -> None:
    """``days`` days pass without the Japanese player's answer (the stall time is 14)."""
    from datetime import datetime, timedelta, timezone

    from pbem.game.modes.blind import stall as blind_stall

    later = datetime.now(timezone.utc) + timedelta(days=days)
    monkeypatch.setattr(blind_stall, "_now", lambda: later)


def shares(folder: Path) -> set[str]:
    return {name for name in blind_escrow.SHARE_NAMES.values() if (folder / name).exists()}


# -- a Japanese player who cheats, then withholds his secret or stalls: holder and American open it, the audit catches him

def _cheat_then(players, cheat, then: str) -> None:
    """Play on; with ``then == "stalls"`` stop once the step carrying out his cheat is published and acknowledged
    (he never answers that acknowledgement)."""
    after = None
    while (name := step(playing(players))) is not None:
        after = None if not cheat else 0 if after is None else after + 1
        if then == "stalls" and after is not None and after >= 3 and name.endswith("-US.pbem"):
            return


@pytest.mark.parametrize("then", ["withholds his secret", "stalls"])
def test_a_cheater_who_then_withholds_his_secret_or_stalls_is_audited_from_the_escrow_and_his_illegal_move_caught(
        tmp_path, monkeypatch, then):
    for attempt in range(4):  # a game where one of his hidden units can move beyond its allowance (5.13)
        with illegal_mover(monkeypatch, "5.13") as cheat:
            players = begin(tmp_path / str(attempt), fresh=attempt == 0)  # another game each attempt
            _cheat_then(players, cheat, then)
        if cheat and "(caught at once)" in "".join(run("status", players["US"].game, "--key", players["US"].key)[1:]):
            continue  # its consequence showed (an opening his step does not expose, issue 35): not a cheat for the audit
        if cheat:
            break
    else:
        pytest.fail("no game offered a hidden move beyond its allowance")
    us, jp = players["US"], players["JP"]
    orders = json.loads((jp.game / "blind-private-JP.json").read_text())["orders"]
    from pbem.protocol.canonical import canonical_bytes

    seq = next(int(s) for s, o in orders.items() if canonical_bytes(o) == cheat["orders"])
    if then == "stalls":  # 30 days pass: the one stall verdict, and the American player is told who can open it
        stall(monkeypatch)
        assert "STALLED: JP has not answered file" in pbem("verify", us.game, code=1)
        said = us.status(code=1)
        assert "STALLED: JP has not answered file" in said and "the escrow holder (esc" in said, said
    else:  # a finding at the end, and the American player is told who can close it
        said = pbem("verify", us.game, code=1)
        assert "JP withheld his secret" in said and "the escrow holder, esc" in said and "pbem blind recover" in said
        said = us.status(code=1)
    assert "escrow: held by esc" in said and "pbem blind recover" in said
    # The holder and the American player open their shares, from the American player's folder alone.
    said = recover(players)
    assert f"wrote {us.game / 'blind-share-holder.pbem'}" in said and "alone it opens nothing" in said
    assert "both shares are in: the Japanese secret and orders are open" in said
    for name, frm in (("blind-share-holder.pbem", "escrow"), ("blind-share-US.pbem", "US")):
        assert blindfile.read((us.game / name).read_text(), name).body["from"] == frm
    said = pbem("verify", us.game)  # nothing withheld any more; where the secret came from is said
    assert "verified" in said and "came from the escrow, opened by esc" in said
    assert json.loads(pbem("verify", us.game, "--json"))["secret_from"] == "escrow"
    said = us.status()
    assert "opened by esc" in said and "pbem audit" in said
    assert json.loads(pbem("status", us.game, "--key", us.key, "--json"))["secret_from"] == "escrow"
    said = pbem("audit", us.game, code=1)  # the audit runs to the end or the stall, and catches him
    assert "AUDIT FAILED" in said and f"step {seq}: JP carried out orders the rules refuse (5.13)" in said, said
    assert cheat["unit"] in said and "caught at the audit" in said
    if then == "stalls":  # where he stopped is said; the rolls of that step cannot be placed after a cheat
        assert "he stopped before publishing step" in said and "he already knew its dice" in said, said
        assert "its rolls cannot be shown: the audit's replay did not reach the stall" in said, said
    said = pbem("blind", "recover", us.game, "--key", us.key, code=2)  # an opened secret is never opened again
    assert "published already" in said


def test_an_honest_game_opened_from_the_escrow_audits_as_after_publish_secret(tmp_path):
    players = begin(tmp_path)
    play_to_the_end(playing(players))
    recover(players)
    said = pbem("audit", players["US"].game)
    assert re.search(r"audited \d+ step\(s\) with full information", said) and "came from the escrow" in said
    # the Japanese player may still publish his own: then his is the one read
    publish_secret(playing(players))
    assert json.loads(pbem("verify", players["US"].game, "--json"))["secret_from"] == "JP"


# -- the holder alone -----------------------------------------------------------------------------------------------

def test_the_holder_alone_opens_nothing(tmp_path, monkeypatch):
    """The holder's share, with every file of the game, neither opens the secret nor decrypts a part: the audit
    still waits for the Japanese player, and what the holder holds derives no key that opens a part."""
    from pbem.game.modes.blind import files as blind_files
    from pbem.protocol import pvss

    players = begin(tmp_path)
    play_to_the_end(playing(players), until=7)
    stall(monkeypatch)
    us = players["US"]
    said = recover(players, then_us=False)
    assert "alone it opens nothing" in said and shares(us.game) == {"blind-share-holder.pbem"}
    held = blind_files.load(us.game)
    assert held.secret is None and not held.secret_published and held.jp_orders == {}
    said = pbem("audit", us.game, code=1)
    assert "STALLED: JP has not answered file 7" in said and "with full information" not in said
    opened = blind_escrow.read_shares(us.game, held)
    assert set(opened) == {blind_escrow.HOLDER}
    with pytest.raises(pvss.PvssError, match="1 opened share"):
        pvss.combine(opened, blind_escrow.THRESHOLD)
    part = b64d(jp_files(us.game)[0].body[blind_escrow.PART])
    for guess in (opened[1], held.messages[0].body["escrow"]["pvss"]["shares"][0]["share"].encode()):
        assert blind_escrow.open_part(blind_escrow.secret_of(guess, held.game), held.game, 0, part, 1) is None
    # the real secret opens it: the test would see a part the holder could open
    jp_secret = b64d(json.loads((players["JP"].game / "blind-private-JP.json").read_text())["secret"])
    assert blind_escrow.open_part(jp_secret, held.game, 0, part, 1) is not None


def test_no_one_opens_a_share_before_the_japanese_player_has_stalled(tmp_path, monkeypatch):
    players = begin(tmp_path)
    play_to_the_end(playing(players), until=7)  # blind-0007-US.pbem written today: the game goes on
    for who in ("ESC", "US"):
        said = pbem("blind", "recover", players["US"].game, "--key", players[who].key, code=2)
        assert "the Japanese player has been awaited only since" in said and "14 days" in said
    assert not shares(players["US"].game)
    stall(monkeypatch, days=15)
    assert "alone it opens nothing" in pbem("blind", "recover", players["US"].game, "--key", players["ESC"].key)


def test_no_one_opens_a_share_while_the_american_player_owes_the_next_file(tmp_path):
    players = begin(tmp_path)
    step(playing(players))
    step(playing(players))  # blind-0002-JP.pbem: the American player answers next
    said = pbem("blind", "recover", players["US"].game, "--key", players["ESC"].key, code=2)
    assert "the Japanese player has not stalled" in said and not shares(players["US"].game)


# -- a dealing that does not verify: refused at once by the American player, naming the Japanese player and the file

def _redeal(players, change) -> None:
    _resign(players["US"].game / blindfile.file_name(0), players["JP"].key, lambda body: change(body["escrow"]["pvss"]))


def _random_dealing(pvss_doc):
    from pbem.protocol.canonical import b64e

    pvss_doc["commitments"] = [b64e(os.urandom(32)) for _ in range(2)]
    for share in pvss_doc["shares"]:
        share["share"], share["proof"] = b64e(os.urandom(32)), b64e(os.urandom(64))


@pytest.mark.parametrize("bad", ["random bytes", "a share for another key", "another game's dealing",
                                 "the shares swapped", "a share of garbage length"])
def test_an_escrow_that_does_not_verify_is_refused_at_once_naming_the_japanese_player(tmp_path, bad):
    from pbem.protocol import pvss
    from pbem.protocol.canonical import b64e
    from pbem.protocol.keys import read_public

    players = begin(tmp_path)
    us = players["US"]
    if bad == "random bytes":
        _redeal(players, _random_dealing)
    elif bad == "a share for another key":  # the American player's share dealt to a stranger: the holder alone opens
        stranger = Player(tmp_path, "STR")
        points = [blind_escrow.identity_point(read_public(players["ESC"].pub)),
                  blind_escrow.identity_point(read_public(stranger.pub))]
        game = blindfile.read((us.game / blindfile.file_name(0)).read_text(), "g").body["game"]
        dealing, _ = pvss.deal(points, 2, blind_escrow.pvss_context(game))

        def change(doc):
            doc.update(blind_escrow._dealing_json(dealing))
        _redeal(players, change)
    elif bad == "another game's dealing":
        other = begin(tmp_path / "other")
        doc = blindfile.read((other["US"].game / blindfile.file_name(0)).read_text(), "g").body["escrow"]["pvss"]
        _redeal(players, lambda d: d.update(doc))
    elif bad == "the shares swapped":
        _redeal(players, lambda d: d.update(shares=d["shares"][::-1]))
    else:
        _redeal(players, lambda d: d["shares"][1].update(share=b64e(os.urandom(31))))
    said = pbem("blind", "next", us.game, "--key", us.key, code=1)
    assert "do not play on" in said, said
    assert "JP sent an escrow in blind-0000-JP.pbem that does not verify" in said, said
    assert not (us.game / blindfile.file_name(1)).exists()
    assert "JP sent an escrow in blind-0000-JP.pbem that does not verify" in pbem("verify", us.game, code=1)


# -- a bad escrow part: found when the game is opened, naming the Japanese player and the step ----------------------

@pytest.mark.parametrize("bad", ["garbage", "garbage, then a stall", "another step", "malformed"])
def test_a_bad_escrow_part_is_found_at_opening_naming_the_japanese_player_and_the_step(tmp_path, monkeypatch, bad):
    real, cheat = blind_escrow.seal_part, {}

    def seal_part(secret, *, game, n, seq, orders, bucket):  # the Japanese player's modified pbem
        part = real(secret, game=game, n=n, seq=seq, orders=orders, bucket=bucket)
        if not cheat and n >= 4 and seq is not None:  # the first file after the set-up that commits orders
            cheat.update(n=n, seq=seq)
            if bad.startswith("garbage"):  # the right length, a fresh nonce: all the American player can check
                part = os.urandom(len(part))
            elif bad == "another step":
                part = real(secret, game=game, n=n, seq=seq - 1, orders=orders, bucket=bucket)
            elif bad == "malformed":  # it opens, but holds a field no escrow part has (schemas/blind-escrow-part.schema.json)
                from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
                from pbem.protocol import sealing
                from pbem.protocol.canonical import canonical_bytes

                plain = {"game": game, "n": n, "seq": seq, "orders": orders, "note": "x"}
                nonce = os.urandom(12)
                part = nonce + ChaCha20Poly1305(blind_escrow._part_key(secret, game, n)).encrypt(
                    nonce, sealing.pad(sealing.compress(canonical_bytes(plain)), bucket),
                    blind_escrow.part_aad(game, n, seq))
        return part

    monkeypatch.setattr(blind_escrow, "seal_part", seal_part)
    players = begin(tmp_path)
    stalls = bad.endswith("a stall")
    play_to_the_end(playing(players), until=7 if stalls else None)  # then he never answers blind-0007-US.pbem
    assert cheat, "no Japanese file committed orders"
    us = players["US"]
    report = json.loads(pbem("verify", us.game, "--json", code=0 if stalls else 1))  # every file accepted as it came
    assert [f["cheater"] + f["when"] for f in report["findings"]] == ([] if stalls else ["JPat the end"]), report
    if stalls:
        stall(monkeypatch)
    said = recover(players, code=1)
    name = blindfile.file_name(cheat["n"])
    assert f"RECOVERY FAILED: step {cheat['seq']}: JP " in said and f"(the escrow part of {name})" in said, said
    assert "caught at recovery" in said
    words = {"garbage": "does not decrypt as this file's", "garbage, then a stall": "does not decrypt as this file's",
             "another step": "does not decrypt as this file's",  # its associated data names another step
             "malformed": "opens but is malformed — (top level): Additional properties are not allowed ('note'"}[bad]
    assert words in said, said
    said = pbem("audit", us.game, code=1)  # anyone sees the same, from the files
    assert f"step {cheat['seq']}: JP " in said and f"(the escrow part of {name})" in said and words in said


def test_a_part_copied_from_an_earlier_file_is_caught_at_once_by_its_nonce(tmp_path, monkeypatch):
    """The Japanese player's modified pbem pastes his previous file's part into the next one (its orders then open to
    nothing of this file): the American player's unmodified blind next refuses that file at once, naming it and the
    file whose nonce it repeats, before he sends his seed or orders."""
    real, sealed, cheat = blind_escrow.seal_part, {}, {}

    def seal_part(secret, *, game, n, seq, orders, bucket):
        part = real(secret, game=game, n=n, seq=seq, orders=orders, bucket=bucket)
        if not cheat and n >= 4 and seq is not None:
            cheat.update(n=n, copied=max(k for k in sealed if k < n))
            part = sealed[cheat["copied"]]
        sealed[n] = part
        return part

    monkeypatch.setattr(blind_escrow, "seal_part", seal_part)
    players = begin(tmp_path)
    play_to_the_end(playing(players))
    assert cheat, "no Japanese file committed orders"
    us = players["US"]
    name, copied = blindfile.file_name(cheat["n"]), blindfile.file_name(cheat["copied"])
    assert sorted(p.name for p in us.game.glob("blind-*.pbem"))[-1] == name  # he wrote nothing after it
    said = pbem("blind", "next", us.game, "--key", us.key, "--bot", "greedy", code=1)
    assert "do not play on" in said and f"JP sent an escrow part in {name} with the nonce of the part in {copied}" in said
    assert "(caught at once)" in said, said


def test_an_escrow_part_shorter_than_due_is_caught_at_once_by_the_american_player(tmp_path, monkeypatch):
    real = blind_escrow.seal_part
    monkeypatch.setattr(blind_escrow, "seal_part", lambda secret, **kw: real(secret, **{**kw, "bucket": 1024}))
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


# -- the keys, and a game without escrow -----------------------------------------------------------------------------

def test_recovery_with_another_key_than_the_two_shares_is_refused(tmp_path):
    players = begin(tmp_path)
    step(playing(players))
    step(playing(players))
    step(playing(players))  # blind-0003-US.pbem: the Japanese player is awaited
    said = pbem("blind", "recover", players["US"].game, "--key", players["JP"].key, code=2)
    assert "--key is jp (fingerprint" in said and "the escrow of this game is held by esc (fingerprint" in said
    assert not shares(players["US"].game)


def test_a_game_without_escrow_says_so_and_has_nothing_to_recover(tmp_path):
    players = begin(tmp_path, escrow=False)
    step(playing(players))
    step(playing(players))
    assert not any(blind_escrow.PART in m.body or "escrow" in m.body for m in jp_files(players["US"].game))
    said = recover(players, code=2, then_us=False)
    assert "this game has no escrow" in said
    assert "no escrow: this game names no escrow holder, so only the Japanese player can open it" in players["US"].status()


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

    real_orders = bot.bot_orders
    lengths, inside, orders_seen = [], [], []
    for policy in ("greedy", "random"):
        def orders(view, loaded, p="greedy", seed=0, think=None, policy=policy):
            return real_orders(view, loaded, policy if view.get("side") == "JP" else p, seed, think)

        with monkeypatch.context() as m:
            m.setattr(bot, "bot_orders", orders)
            players = begin(tmp_path / policy)
            play_to_the_end(playing(players), until=12)
        secret = b64d(json.loads((players["JP"].game / "blind-private-JP.json").read_text())["secret"])
        for message in jp_files(players["US"].game):
            part = b64d(message.body[blind_escrow.PART])
            lengths.append(len(part))
            plain = blind_escrow.open_part(secret, message.body["game"], message.n, part,
                                             (message.body.get("commit") or {}).get("seq"))
            inside.append(len(sealing.compress(plain)))
            orders_seen.append(json.loads(plain)["orders"])
    assert len(set(lengths)) == 1, lengths
    assert len(set(inside)) > 3, inside  # what is encrypted differs from file to file and game to game
    assert any(o is None for o in orders_seen) and sum(o is not None for o in orders_seen) >= 4
    half = len(orders_seen) // 2
    assert orders_seen[:half] != orders_seen[half:]  # the two games' orders differ


def test_a_japanese_player_who_vanishes_mid_game_is_audited_up_to_where_he_stopped(tmp_path, monkeypatch):
    players = begin(tmp_path)
    play_to_the_end(playing(players), until=7)  # he never answers blind-0007-US.pbem
    stall(monkeypatch)
    us = players["US"]
    said = recover(players)
    assert "the game was not over: it ends here" in said
    assert "the game ends here" in us.status()
    said = pbem("audit", us.game, code=1)  # audited to the stall, nothing found: the stall's verdict, never a pass
    assert said.startswith("STALLED: JP has not answered file") and "came from the escrow" in said, said
    assert "audited up to the stall with the secret from the escrow: 3 step(s) replayed with full information" in said


def test_a_share_that_is_not_the_holders_decryption_names_the_holder_not_the_japanese_player(tmp_path, monkeypatch):
    """A holder who sides with the American player cannot frame the Japanese player: his share is proven against
    the dealing, so another point is refused naming him."""
    from pbem.protocol import pvss
    from pbem.protocol.canonical import b64e

    players = begin(tmp_path)
    play_to_the_end(playing(players), until=7)
    stall(monkeypatch)
    recover(players)
    us = players["US"]
    path = us.game / blind_escrow.SHARE_NAMES[blind_escrow.HOLDER]
    _resign(path, players["ESC"].key, lambda body: body.update(share=b64e(pvss.public_point(pvss.random_scalar()))))
    said = pbem("audit", us.game, code=1)
    assert f"{path}: share: holds a share that is not the escrow holder (esc" in said, said
    assert "ask him to run pbem blind recover again" in said


# -- a game started with the earlier escrow (issue 24's, sealed to the holder alone): refused clearly -----------------

OLD_GAME = Path(__file__).parent / "data" / "blind-escrow-before-pvss"


def test_a_game_with_the_earlier_escrow_is_refused_naming_the_file_why_and_what_to_do(tmp_path):
    """Files written by pbem before the shared escrow (tests/data/blind-escrow-before-pvss/README.md says how): every
    command that reads the game refuses it, exit 2, naming blind-0000-JP.pbem and its escrow field, why (the holder
    alone could open it) and what to do; the event audit calls it unreadable, with the same reason."""
    from pbem.protocol.keys import generate, write_private

    import shutil

    game = tmp_path / "game"
    shutil.copytree(OLD_GAME, game)
    escrow = blindfile.read((game / blindfile.file_name(0)).read_text(), "g").body["escrow"]
    assert set(escrow) == {"holder", "secret"}  # the earlier format: no PVSS dealing
    key = write_private(tmp_path / "someone.key", generate("someone"), None)
    for command in (["verify", game], ["status", game, "--key", key], ["audit", game], ["blind", "view", game], ["view", game, "--key", key],
                    ["blind", "next", game, "--key", key], ["blind", "recover", game, "--key", key]):
        code, out, err = run(*command)
        said = out + err
        assert code == 2 and "Traceback" not in said, (command, said)
        assert f"{game / blindfile.file_name(0)}: escrow: this game was started with the earlier escrow" in said, said
        assert "the holder could open alone" in said and "start the game again with pbem new --escrow" in said, said
    shutil.copytree(OLD_GAME, tmp_path / "event" / "g")
    code, out, _ = run("audit", tmp_path / "event", "--json")
    game_report = json.loads(out)["games"][0]
    assert code != 0 and game_report["verdict"] == "unreadable", game_report
    assert game_report["reason"].startswith("this game was started with the earlier escrow"), game_report

"""A stall is one verdict everywhere (issue 36): "JP has not answered file N since DATE".

Before, a Japanese player who stopped answering left ``verify`` and
``status`` at exit 0 forever ("wait for blind-0008-JP.pbem"), the
single-game audit calling the game FAILED and the event audit NOT AUDITED.
Now, once the file he owes an answer to is older than the stall time
(signed with its date by its writer), ``status``, ``verify``, ``audit
GAMEDIR`` and ``audit EVENT`` all give the same verdict, in the same words,
never a pass and never counted as audited.  Opened from the escrow, the
audit runs to the stall and shows where he stopped and the dice he knew.
"""

from __future__ import annotations

import json
import re
import shutil
from datetime import datetime, timedelta, timezone
from pathlib import Path

from pbem.protocol import blindfile
from tests.blind_games import play_to_the_end, resign, reproducible  # noqa: F401  (autouse fixture)
from tests.games import pbem, run
from tests.test_blind_escrow import begin, playing

DAYS = 30


def stalled(base: Path, monkeypatch, *, escrow: bool = True, days: int = DAYS):
    """A game whose Japanese player never answers blind-0007-US.pbem; then ``days`` days pass."""
    from pbem.game.modes.blind import stall
    from tests.blind_games import SENT

    players = begin(base, escrow=escrow)
    play_to_the_end(playing(players), until=7)
    later = datetime.now(timezone.utc) + timedelta(days=days)
    monkeypatch.setattr(stall, "_now", lambda: later)
    return players, f"JP has not answered file 7 (blind-0007-US.pbem) since {SENT[:10]}"


def test_a_stall_is_one_verdict_in_status_verify_the_audit_and_the_event_audit(tmp_path, monkeypatch):
    players, words = stalled(tmp_path, monkeypatch)
    us = players["US"]
    said = us.status(code=1)
    assert f"STALLED: {words}" in said, said
    said = pbem("verify", us.game, code=1)
    assert f"STALLED: {words}" in said and "verified" not in said, said
    report = json.loads(pbem("verify", us.game, "--json", code=1))
    assert report["ok"] is False and report["stalled"] == words
    said = pbem("audit", us.game, code=1)
    assert f"STALLED: {words}" in said and "audited" not in said, said
    event = tmp_path / "event"
    shutil.copytree(us.game, event / "g")
    code, out, err = run("audit", event, "--json")
    assert code == 1 and "Traceback" not in err, err
    report = json.loads(out)
    game = report["games"][0]
    assert game["verdict"] == "stalled" and game["reason"] == words, game
    assert report["totals"]["audited"] == 0 and report["totals"]["holds"] == 0 and report["totals"]["stalled"] == 1
    code, out, _ = run("audit", event)
    assert code == 1 and "STALLED" in out and words in out and "every game holds" not in out


def test_a_game_without_escrow_stalls_the_same_and_says_what_that_leaves(tmp_path, monkeypatch):
    players, words = stalled(tmp_path, monkeypatch, escrow=False)
    said = players["US"].status(code=1)
    assert f"STALLED: {words}" in said and "no escrow: this game names no escrow holder" in said
    assert f"STALLED: {words}" in pbem("audit", players["US"].game, code=1)


def test_a_game_waiting_less_than_the_stall_time_is_in_progress_the_same_everywhere(tmp_path, monkeypatch):
    players, words = stalled(tmp_path, monkeypatch, days=1)
    us = players["US"]
    said = us.status()
    assert "has not answered" not in said and "wait for blind-0008-JP.pbem" in said
    assert "has not answered" not in pbem("verify", us.game)
    said = pbem("audit", us.game, code=1)  # never a pass, and not a failure either: the same as the event audit
    assert "NOT AUDITED: the game is not over" in said and "FAILED" not in said, said
    event = tmp_path / "event"
    shutil.copytree(us.game, event / "g")
    code, out, _ = run("audit", event, "--json")
    game = json.loads(out)["games"][0]
    assert code == 1 and game["verdict"] == "not audited" and game["reason"].startswith("the game is not over")


def test_opened_from_the_escrow_the_audit_shows_the_dice_he_knew_as_the_rolls_of_the_step_he_owed(tmp_path, monkeypatch):
    """He stopped before publishing step 4: both audits show its rolls as the engine draws them from the stream he
    knew (which roll, for what, its value), the same in ``pbem audit GAMEDIR`` and ``pbem audit EVENT``; each value
    is the stream's recomputed from the Japanese secret and the files, and the step played on the replay's position
    gives exactly those rolls."""
    from pbem.game.modes.blind import files as blind_files, run as br
    from pbem.game.step import play
    from pbem.protocol import dice

    players, words = stalled(tmp_path, monkeypatch)
    us, esc = players["US"], players["ESC"]
    pbem("blind", "recover", us.game, "--key", esc.key)
    pbem("blind", "recover", us.game, "--key", us.key)
    said = pbem("audit", us.game, code=1)  # opened, audited to the stall, nothing found: still the stall's verdict
    assert said.startswith(f"STALLED: {words}\n"), said
    assert "audited up to the stall with the secret from the escrow: 3 step(s) replayed with full information" in said, said
    assert f"{words}: he stopped before publishing step 4" in said, said
    shown = [(int(n), purpose, int(v)) for n, purpose, v in re.findall(r"^    roll (\d+), (.+): ([1-6])$", said, re.M)]
    # what he knew, recomputed here from his secret (in his own folder) and the files: the step he owed, played
    held = blind_files.load(us.game)
    secret = held.secret
    assert secret == __import__("pbem.protocol.canonical", fromlist=["b64d"]).b64d(
        json.loads((players["JP"].game / "blind-private-JP.json").read_text())["secret"])
    _, reached = br.replay(held.loaded, held.record, secret, held.jp_orders, held.ref)
    if held.awaiting == "US":
        orders, salt = held.record.us_orders[4]
        seed = br.derived(secret, "jp-seed", game=held.game, seq=4)
        assert "(an American player-turn, rolled with his own seed and the American salt)" in said
    else:
        orders, seed = held.jp_orders[4], held.record.us_seeds[4]
        salt, _ = br.orders_salt_nonce(secret, game=held.game, seq=4)
        assert "(a Japanese step, rolled with the American seed and his own committed salt)" in said
    stream = dice.DiceStream(seed, salt)
    play(held.loaded, held.record.ruleset, reached.state, orders, stream, game=held.game, seq=4, scenario_ref=held.ref,
         source="step 4")
    assert shown == [(r["n"], r["purpose"], r["value"]) for r in stream.rolls], said
    assert shown and all(p != "known" for _, p, _ in shown), said  # a step with rolls, each named for what it is
    assert f"ended at a stall: {words}" in us.status() and f"ended at a stall: {words}" in pbem("verify", us.game)
    # the event audit shows the same lines
    event = tmp_path / "event"
    shutil.copytree(us.game, event / "g")
    report = json.loads(pbem("audit", event, "--json", code=1))
    assert report["games"][0]["verdict"] == "stalled" and report["games"][0]["reason"] == words, report["games"][0]
    assert report["totals"]["audited"] == 0 and report["totals"]["holds"] == 0 and report["totals"]["stalled"] == 1
    details = report["games"][0]["details"]
    assert [d for d in details if d.startswith("roll ")] == [line.strip() for line in said.splitlines()
                                                               if line.startswith("    roll ")], details
    assert any(d.startswith(f"{words}: he stopped before publishing step 4") for d in details), details
    text = pbem("audit", event, code=1)
    assert f"roll 1, {shown[0][1]}: {shown[0][2]}" in text and "STALLED" in text.upper(), text


def test_a_backdated_american_file_cannot_stall_a_game_early(tmp_path):
    """The American player signs file 7 with a date 30 days old, but the Japanese file he answers was signed today:
    the game is dated from the latest file, so it is not stalled and no share opens."""
    from tests.blind_games import SENT

    players = begin(tmp_path)
    play_to_the_end(playing(players), until=7)
    us = players["US"]
    jp6 = blindfile.read((us.game / blindfile.file_name(6)).read_text(), "6").body
    assert jp6["sent"] == SENT
    when = (datetime.now(timezone.utc) - timedelta(days=DAYS)).strftime("%Y-%m-%dT%H:%M:%SZ")
    resign(us.game / blindfile.file_name(7), us.key, lambda body: body.update(sent=when))
    assert "has not answered" not in us.status()
    said = pbem("blind", "recover", us.game, "--key", players["ESC"].key, code=2)
    assert "awaited only since" in said


# -- the stall period: a game setting pinned in the genesis (pbem new --stall-days N, 14 by default) ---------------

def test_the_stall_period_chosen_at_new_is_pinned_in_the_genesis_shown_in_status_and_stalls_the_game(tmp_path, monkeypatch):
    """With --stall-days 3 the game stalls after 4 days (a 14-day game would not); status says the period; the
    escrow opens then."""
    from pbem.game.modes.blind import stall as blind_stall
    from tests.blind_games import SENT

    players = begin(tmp_path, "--stall-days", "3")
    us = players["US"]
    assert blindfile.read((us.game / blindfile.file_name(0)).read_text(), "g").body["stall_days"] == 3
    play_to_the_end(playing(players), until=7)
    assert "stall: a file left unanswered for 3 days stalls the game" in us.status()
    assert json.loads(pbem("status", us.game, "--key", us.key, "--json"))["stall_days"] == 3
    later = datetime.now(timezone.utc) + timedelta(days=4)
    monkeypatch.setattr(blind_stall, "_now", lambda: later)
    words = f"JP has not answered file 7 (blind-0007-US.pbem) since {SENT[:10]}"
    assert f"STALLED: {words}" in us.status(code=1)
    assert f"STALLED: {words}" in pbem("verify", us.game, code=1)
    assert "alone it opens nothing" in pbem("blind", "recover", us.game, "--key", players["ESC"].key)


def test_a_game_written_before_the_field_stalls_after_14_days(tmp_path, monkeypatch):
    """A genesis without ``stall_days`` (as every game before it was) reads as 14: 4 days is no stall, 15 days is."""
    from pbem.game.modes.blind import stall as blind_stall

    players = begin(tmp_path, escrow=False)
    us, jp = players["US"], players["JP"]
    resign(jp.game / blindfile.file_name(0), jp.key, lambda body: body.pop("stall_days"))  # before it is mailed
    jp.mail(blindfile.file_name(0), us)
    play_to_the_end(playing(players), until=3)
    assert "stall: a file left unanswered for 14 days stalls the game" in us.status()
    for days, stalled_now in ((4, False), (15, True)):
        later = datetime.now(timezone.utc) + timedelta(days=days)
        monkeypatch.setattr(blind_stall, "_now", lambda later=later: later)
        assert ("STALLED: JP has not answered file 3" in pbem("verify", us.game, code=1 if stalled_now else 0)) == stalled_now


def test_a_nonsense_stall_period_is_refused_naming_the_field(tmp_path):
    players = begin(tmp_path, escrow=False)
    us, jp = players["US"], players["JP"]
    for bad in ("0", "366", "-3"):
        code, out, err = run("new", "test-skirmish", "--us", us.pub, "--jp", jp.pub, "--key", jp.key,
                             "--out", tmp_path / f"g{bad}", "--no-referee", "--option", "hidden-units", "--stall-days", bad)
        said = out + err
        assert code == 2 and "Traceback" not in said, said
        assert f"--stall-days is {int(bad)}: a game is stalled after 1 to 365 days" in said and "give --stall-days N" in said
        assert not (tmp_path / f"g{bad}").exists()
    code, out, err = run("new", "test-skirmish", "--us", us.pub, "--jp", jp.pub, "--key", jp.key, "--out", tmp_path / "gx",
                         "--no-referee", "--option", "hidden-units", "--stall-days", "two weeks")
    assert code == 2 and "--stall-days" in out + err and "Traceback" not in err
    code, out, err = run("new", "test-skirmish", "--us", us.pub, "--jp", jp.pub, "--key", jp.key, "--out", tmp_path / "gr",
                         "--no-referee", "--stall-days", "7")
    assert code == 2 and "--stall-days sets when a game with hidden units and no referee is stalled" in out + err
    # a genesis signed with a nonsense period is refused when read: exit 2 naming the file and the field
    resign(us.game / blindfile.file_name(0), jp.key, lambda body: body.update(stall_days=0))
    code, out, err = run("status", us.game, "--key", us.key)
    assert code == 2 and "Traceback" not in err and "blind-0000-JP.pbem" in out + err and "stall_days" in out + err, out + err

"""A whole game by e-mail, through the command line, as three people play it.

The referee and the two players each have a folder of their own; the only
things that pass between them are the files a mail would carry: the .pub
identities, turn files, and orders files.  Every player-turn of the test
scenario is played (the game runs to its end), then each party verifies the
game, the referee audits it, and the dice are listed.  Along the way: no
private key appears anywhere but its own file, and no command shows a
traceback.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.engine import hexes
from tests.games import cheaper_key

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = ROOT / "scenarios" / "test-skirmish.json"


class Party:
    """One person's machine: a folder, a key, and the pbem command."""

    def __init__(self, base: Path, name: str, log: list):
        self.name = name
        self.dir = base / name
        self.dir.mkdir()
        self.game = self.dir / "game"
        self.game.mkdir()
        self.log = log

    def pbem(self, *args: str, expect: int = 0) -> subprocess.CompletedProcess:
        env = dict(os.environ, PBEM_PASSPHRASE="correct horse")
        result = subprocess.run([sys.executable, "-m", "pbem", *map(str, args)], capture_output=True, text=True, cwd=self.dir, env=env)
        self.log.append(result)
        assert "Traceback" not in result.stderr, result.stderr
        assert result.returncode == expect, f"pbem {' '.join(map(str, args))} -> {result.returncode}\n{result.stdout}\n{result.stderr}"
        return result

    def receive(self, path: Path) -> Path:
        target = self.game / path.name
        if not target.exists():
            shutil.copy(path, target)
        return target

    @property
    def key(self) -> Path:
        return self.dir / f"{self.name}.key"


def obligatory_attacks(view: dict) -> dict:
    """What a careful player writes when he only fights where he must (7.11, 7.12):
    every unit in contact attacks, every enemy in contact is attacked, one defender per attack."""
    side = view["side"]
    state = view["state"]
    units = {u["id"]: u for u in state["units"]}
    where = {u: h for u, h in state["locations"].items() if h not in ("offmap", "eliminated")}
    mine = [u for u in where if units[u]["side"] == side]
    theirs = [u for u in where if units[u]["side"] != side]
    touching = {u: sorted(e for e in theirs if hexes.adjacent(where[u], where[e])) for u in mine}
    attacks: dict[str, list[str]] = {}
    for enemy in theirs:
        free = [u for u in mine if enemy in touching[u] and not any(u in a for a in attacks.values())]
        if any(enemy in touching[u] for u in mine) and free:
            attacks[enemy] = [free[0]]
    for u in mine:
        if touching[u] and not any(u in a for a in attacks.values()):
            attacks[next(e for e in touching[u] if e in attacks)].append(u)
    return {"moves": [], "attacks": [{"attackers": a, "defenders": [d]} for d, a in attacks.items()]}


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    base = tmp_path_factory.mktemp("mail")
    log: list = []
    ref, us, jp = Party(base, "ref", log), Party(base, "us", log), Party(base, "jp", log)
    ref.pbem("keygen", "ref", "--passphrase-env", "PBEM_PASSPHRASE")
    us.pbem("keygen", "us", "--no-passphrase")
    jp.pbem("keygen", "jp", "--passphrase-env", "PBEM_PASSPHRASE")
    for party in (ref, jp):  # the same passphrase at a test's scrypt cost: every command still opens it with it
        cheaper_key(party.key, "correct horse")
    for player in (us, jp):
        shutil.copy(player.dir / f"{player.name}.pub", ref.dir)
    ref.pbem("new", SCENARIO, "--us", "us.pub", "--jp", "jp.pub", "--referee", "ref.pub", "--key", "ref.key", "--out", "game")

    first_orders = {
        "US": [  # Game-Turn 1: land out of contact
            {"moves": [{"unit": "us-7cav", "enter": "1104", "path": []}, {"unit": "us-12cav", "enter": "1103", "path": []},
                       {"unit": "us-1-34", "enter": "1105", "path": []}, {"unit": "us-art-61", "enter": "1106", "path": []}]},
            # Game-Turn 2: close with jp-1-9 and attack it with Ground Support and the battery
            {"moves": [{"unit": "us-7cav", "path": ["1004"]}],
             "attacks": [{"attackers": ["us-7cav"], "barrage": ["us-art-61"], "gsp": 3, "defenders": ["jp-1-9"],
                          "advance": [{"unit": "us-7cav", "to": 1}]}]},
        ],
    }
    seq, turns_played = 0, 0
    while True:
        turn = ref.game / f"turn-{seq:04d}.pbem"
        for player in (us, jp):
            player.receive(turn)
        public = json.loads(ref.pbem("view", turn, "--key", "ref.key", "--json").stdout)
        if public["over"]:
            break
        side = public["awaiting"]
        player = us if side == "US" else jp
        mine = player.game / turn.name
        view = json.loads(player.pbem("view", mine, "--key", player.key, "--json").stdout)
        scripted = first_orders.get(side, [])
        orders = scripted.pop(0) if scripted and not view["state"]["position"]["turn"] > 2 else obligatory_attacks(view)
        orders_path = player.dir / f"orders-{seq}.json"
        sent = player.game / f"orders-{seq:04d}-{side}.pbem"
        if seq == 0:
            # The US player first sends a landing of one regiment, then changes his mind (the commonest thing by mail).
            orders_path.write_text(json.dumps({"moves": orders["moves"][:1]}))
            player.pbem("submit", orders_path, "--turn", mine, "--key", player.key)
            sent = player.game / f"orders-{seq:04d}-{side}-r2.pbem"
            orders_path.write_text(json.dumps(orders))
            player.pbem("submit", orders_path, "--turn", mine, "--key", player.key, expect=2)  # not without --replace
            player.pbem("submit", orders_path, "--turn", mine, "--key", player.key, "--replace")
        else:
            orders_path.write_text(json.dumps(orders))
            player.pbem("validate", orders_path, "--turn", mine, "--key", player.key)
            player.pbem("submit", orders_path, "--turn", mine, "--key", player.key)
        inbox = ref.dir / f"inbox-{sent.name}"
        shutil.copy(sent, inbox)
        received = [inbox]
        if seq == 0:  # both revisions reached the referee; he gives both, and the latest is adjudicated
            received.insert(0, ref.dir / "inbox-first.pbem")
            shutil.copy(player.game / "orders-0000-US.pbem", received[0])
        if seq == 1:
            # "Your file arrived damaged": the player submits the same orders again, which signs nothing new.
            resend = player.pbem("submit", orders_path, "--turn", mine, "--key", player.key)
            assert "revision 1 already" in resend.stdout
        ref.pbem("adjudicate", turn, *received, "--key", "ref.key")
        seq += 1
        turns_played += 1
        assert turns_played <= 20, "the game should end after its eight player-turns"
    return {"ref": ref, "us": us, "jp": jp, "log": log, "last_seq": seq, "played": turns_played}


def test_the_game_runs_to_its_end(played):
    assert played["played"] == 8  # four Game-Turns, two player-turns each, no orders rejected
    view = json.loads(played["us"].pbem("view", played["us"].game / f"turn-{played['last_seq']:04d}.pbem", "--key", played["us"].key, "--json").stdout)
    assert view["over"] and view["awaiting"] is None


def test_every_party_verifies_the_game(played):
    for party in (played["ref"], played["us"], played["jp"]):
        result = party.pbem("verify", party.game)
        genesis = party.game / "turn-0000.pbem"
        from pbem.protocol.turnfile import read_turn

        game_id = read_turn(genesis).game
        assert result.stdout.startswith(f"verified 9 turn file(s) of game {game_id}, referee ref (fingerprint ")
        assert ", 0 to 8" in result.stdout
        report = json.loads(party.pbem("verify", "--json", party.game).stdout)
        assert report["ok"] and report["turn_files"] == 9


def test_the_replaced_orders_are_the_ones_adjudicated_and_the_player_is_told(played):
    us = played["us"]
    result = us.pbem("verify", us.game)
    assert ("turn-0001.pbem: adjudicated your revision 2 (orders-0000-US-r2.pbem); "
            "the referee lists revision(s) 1 as received and superseded") in result.stdout
    assert "turn-0002.pbem" not in result.stdout  # JP's orders: nothing of the US player's to say


def test_the_referee_audit_replays_every_adjudication(played):
    ref = played["ref"]
    result = ref.pbem("audit", ref.game, "--key", "ref.key")
    assert result.stdout.startswith("audited 8 adjudication(s)")
    assert "18 sealed view(s) confirmed" in result.stdout


def test_anyone_audits_the_finished_game_with_the_folder_and_the_reveal_file_only(played, tmp_path):
    ref, us = played["ref"], played["us"]
    ref.pbem("reveal", ref.game, "--key", "ref.key", "-o", "reveal.pbem")
    stranger = tmp_path / "stranger"
    stranger.mkdir()
    for turn in sorted(us.game.glob("turn-*.pbem")):
        shutil.copy(turn, stranger)
    shutil.copy(ref.dir / "reveal.pbem", tmp_path)
    result = us.pbem("audit", stranger, "--reveal", tmp_path / "reveal.pbem")
    assert result.stdout.startswith("audited 8 adjudication(s)") and "18 sealed view(s) confirmed" in result.stdout
    assert "PRIVATE" not in (tmp_path / "reveal.pbem").read_text()
    # The player audits his own folder with what he holds: the reveal and his own openings.
    us.pbem("reveal", us.game, "--key", us.key, "-o", "mine.pbem")
    result = us.pbem("audit", us.game, "--reveal", tmp_path / "reveal.pbem", "--reveal", us.dir / "mine.pbem")
    assert "27 sealed view(s) confirmed" in result.stdout


def test_a_player_replays_his_own_player_turns(played):
    us = played["us"]
    result = us.pbem("verify", us.game, "--replay-mine", "--key", us.key)
    assert "replayed 4 of your own player-turn(s)" in result.stdout


def test_dice_lists_every_roll_with_its_purpose(played):
    report = json.loads(played["jp"].pbem("dice", "--json", played["jp"].game).stdout)
    assert report["rolls"] and all(1 <= r["value"] <= 6 and r["purpose"].startswith("combat ") for r in report["rolls"])
    assert sum(report["counts"].values()) == len(report["rolls"])
    text = played["jp"].pbem("dice", played["jp"].game).stdout
    assert "chi-square" in text


def test_the_second_turn_file_tells_both_sides_what_happened(played):
    us = played["us"]
    text = us.pbem("view", us.game / "turn-0003.pbem", "--key", us.key).stdout
    assert "Combat 1: us-7cav, us-art-61 with 3 GSP against jp-1-9" in text


def test_no_private_key_appears_anywhere_but_its_own_file(played):
    from pbem.protocol.keys import read_private

    secrets = []
    for name, passphrase in (("ref", b"correct horse"), ("us", None), ("jp", b"correct horse")):
        identity = read_private(played[name].key, passphrase)
        for key in (identity.signing_key, identity.encryption_key):
            from cryptography.hazmat.primitives import serialization

            raw = key.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption())
            import base64

            secrets += [raw.hex(), base64.b64encode(raw).decode()[:40], base64.urlsafe_b64encode(raw).decode()[:40]]
    outputs = "\n".join(r.stdout + r.stderr for r in played["log"])
    for secret in secrets:
        assert secret not in outputs
    for party in (played["ref"], played["us"], played["jp"]):
        for path in party.dir.rglob("*"):
            if path.is_file() and path.suffix != ".key":
                content = path.read_text(encoding="utf-8", errors="replace")
                for secret in secrets:
                    assert secret not in content, f"a private key leaked into {path}"
    assert oct(played["us"].key.stat().st_mode & 0o777) == "0o600"

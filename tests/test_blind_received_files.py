"""What a player's pbem does with the blind files he receives, played as the cheat or the accident that sends them.

One honest game (test-skirmish, played to the end and its secret published)
is made once for the module; each test copies a player's folder up to the
file it attacks, rewrites that file as the attacker would — signing it again
with his own key, as a player with a modified pbem or his own re-signing can —
and runs what the receiving player runs: ``pbem blind next``, ``verify``,
``status``, ``audit``.  A cheat is caught naming the cheater, the step and the
moment (exit 1); a file damaged or misplaced is refused naming the file (exit
2), never with a traceback.
"""

from __future__ import annotations

import copy
import itertools
import json
import shutil
from pathlib import Path

import pytest

from pbem.game.modes.blind import run as br
from pbem.game.modes.blind.exposure import pieces
from pbem.protocol import blindfile, commitment, dice, signing
from pbem.protocol.canonical import b64d, b64e
from pbem.protocol.keys import read_private
from tests.blind_games import begin, fix_games, play_to_the_end, publish_secret, resign
from tests.games import pbem, run


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """One whole game, the same every run (game id and both players' secrets fixed, as tests/blind_games.py's
    ``reproducible`` makes them): the tests below look in it for a step of a kind, and a game drawn afresh
    lacked one now and then (no American step left a marker hidden)."""
    with pytest.MonkeyPatch.context() as patch:
        fix_games(patch, itertools.count(8))
        players = begin(tmp_path_factory.mktemp("blind-received"))
        play_to_the_end(players)
        publish_secret(players)
    return players


def body(path: Path) -> dict:
    return blindfile.read(path.read_text(), path.name).body


def upto(players, side: str, last: int, where: Path) -> Path:
    """A copy of ``side``'s folder as it stood when file ``last`` had arrived (his private file with it)."""
    folder = where / side
    folder.mkdir()
    for p in players[side].game.iterdir():
        m = blindfile.NUMBERED.fullmatch(p.name)
        if (m and int(m.group(1)) <= last) or p.name.startswith("blind-private-"):
            shutil.copy(p, folder / p.name)
    return folder


def pub_where(players, wanted) -> int:
    """The number of the first Japanese publication file that ``wanted(publication)`` accepts."""
    folder = players["US"].game
    for n in range(2, len(blindfile.numbered_files(folder)), 2):
        if wanted(body(folder / blindfile.file_name(n))["publication"]):
            return n
    pytest.fail("no publication of the game fits")


def tree_at(players, seq: int) -> commitment.Commitment:
    """The Japanese player's tree after step ``seq``, rebuilt from his published secret (what his pbem holds)."""
    from pbem.game.modes.blind.files import load

    held = load(players["US"].game)
    record = copy.copy(held.record)
    record.publications = held.record.publications[:seq]
    _, step = br.replay(held.loaded, record, held.secret, held.jp_orders, held.ref)
    return commitment.commit(held.secret, game=held.game, seq=seq, pieces=pieces(step.state))


def refused(folder: Path, key: Path, *, code: int, words: list[str], first: list[str] | None = None) -> None:
    """``verify`` and ``status`` in ``folder`` refuse with ``code``, saying every one of ``words``; ``blind next`` refuses
    too, saying ``first`` (default ``words``: the first finding, which he is shown, is this one)."""
    for command in (("verify", folder), ("status", folder, "--key", key)):
        said = pbem(*command, code=code)
        for w in words:
            assert w in said, (command, said)
    said = pbem("blind", "next", folder, "--key", key, "--bot", "greedy", code=code)
    for w in (words if first is None else first):
        assert w in said, said


def findings(folder: Path) -> list[dict]:
    return json.loads(pbem("verify", folder, "--json", code=1))["findings"]


# -- the Japanese publication: its openings -----------------------------------------------------------------------

def test_a_publication_opening_a_marker_twice_is_refused_at_once_naming_the_japanese_player(game, tmp_path):
    n = pub_where(game, lambda p: p["before"])
    folder = upto(game, "US", n, tmp_path)
    resign(folder / blindfile.file_name(n), game["JP"].key,
           lambda b: b["publication"]["before"].append(b["publication"]["before"][0]))
    marker = body(folder / blindfile.file_name(n))["publication"]["before"][0]["marker"]
    refused(folder, game["US"].key, code=1, words=[f"step {n // 2}: JP opened the marker in {marker} twice", "caught at once"])


def test_a_japanese_player_turn_opening_a_marker_against_the_root_before_it_is_refused_at_once(game, tmp_path):
    """The rules open nothing of a Japanese player-turn against the root before it (it would say where a piece came
    from): such an opening, though it matches the root, is refused (docs/PROTOCOL.md, 'not at once')."""
    n = pub_where(game, lambda p: p["side"] == "JP" and p["seq"] > 2)
    seq = n // 2
    tree = tree_at(game, seq - 1)
    opening = tree.opening(tree.markers[0]).as_json()
    folder = upto(game, "US", n, tmp_path)
    resign(folder / blindfile.file_name(n), game["JP"].key, lambda b: b["publication"]["before"].append(opening))
    refused(folder, game["US"].key, code=1,
            words=[f"step {seq}: JP opened {tree.markers[0]} against the root before his own player-turn", "caught at once"])


def setup_tree(players) -> commitment.Commitment:
    """The tree the genesis committed (the set-up's root), rebuilt from the published secret and set-up orders."""
    from pbem.game.modes.blind.files import load
    from pbem.game.modes.blind.views import placed_setup

    held = load(players["US"].game)
    return commitment.commit(held.secret, game=held.game, seq=-1, pieces=pieces(placed_setup(held.loaded, held.jp_orders[1])))


def test_an_american_player_turn_opening_a_marker_the_rules_did_not_expose_is_refused_at_once(game, tmp_path):
    """Opened against the right root, but not exposed: a unit the step does not name, or a dummy it does not remove
    (the set-up's intelligence roll, or an American player-turn, whichever first leaves a marker hidden)."""
    us = game["US"].game

    def hidden_left(n):  # the tree n's openings are checked against, and its markers n leaves hidden
        pub = body(us / blindfile.file_name(n))["publication"]
        tree = setup_tree(game) if n == 2 else tree_at(game, n // 2 - 1)
        shown = {o["marker"] for o in pub["before"]}
        if n > 2:
            shown |= {o["marker"] for o in body(us / blindfile.file_name(n - 2))["publication"]["after"]}
        return tree, [m for m in tree.markers if m not in shown]

    n = next((k for k in range(2, len(blindfile.numbered_files(us)), 2)
              if body(us / blindfile.file_name(k))["publication"]["side"] in ("setup", "US") and hidden_left(k)[1]), None)
    assert n is not None, "no step left a marker hidden"
    seq, (tree, left) = n // 2, hidden_left(n)
    folder = upto(game, "US", n, tmp_path)
    opening = tree.opening(left[0]).as_json()
    resign(folder / blindfile.file_name(n), game["JP"].key, lambda b: b["publication"]["before"].append(opening))
    refused(folder, game["US"].key, code=1, words=[f"step {seq}: JP", "caught at once"])
    assert any(f["seq"] == seq and ("a unit the step does not show" in f["problem"] or "dumm" in f["problem"])
               for f in findings(folder)), findings(folder)


def test_an_opening_against_another_step_s_root_is_refused_at_once(game, tmp_path):
    """A true leaf of the same marker, but from the tree of an earlier step than the root he must open against."""
    us = game["US"].game

    def stale(n):  # an opening of n's first marker from the tree two steps before its root, when it stood there
        pub = body(us / blindfile.file_name(n))["publication"]
        if pub["side"] != "US" or pub["seq"] <= 2 or not pub["before"]:
            return None
        older = tree_at(game, pub["seq"] - 2)
        marker = pub["before"][0]["marker"]
        return older.opening(marker).as_json() if marker in older.markers else None

    n = next((k for k in range(6, len(blindfile.numbered_files(us)), 2) if stale(k)), None)
    if n is None:  # no marker opened stood in the same hex two steps before: the set-up's tree against step 1's
        n = pub_where(game, lambda p: p["side"] == "US" and p["seq"] == 2)
    seq = n // 2
    folder = upto(game, "US", n, tmp_path)
    wrong = stale(n) or tree_at(game, seq).opening(tree_at(game, seq).markers[0]).as_json()  # his next tree: another root

    def swap(b):
        b["publication"]["before"][:1] = [wrong]

    resign(folder / blindfile.file_name(n), game["JP"].key, swap)
    refused(folder, game["US"].key, code=1, words=[f"step {seq}: JP opened the marker in {wrong['marker']} with a leaf that "
                                                   "does not match the root he committed", "caught at once"])


# -- the Japanese publication: whose step, which dice -------------------------------------------------------------

def test_an_american_player_turn_rolled_with_a_salt_of_the_japanese_player_s_is_refused_at_once(game, tmp_path):
    """The American salt travels in his own file: a publication of his player-turn rolled with another salt (the
    Japanese player grinding salts for the dice he wants) is caught before anything depends on it."""
    n = pub_where(game, lambda p: p["side"] == "US" and p["rolls"])
    folder = upto(game, "US", n, tmp_path)
    pub = body(folder / blindfile.file_name(n))["publication"]
    purposes, values = [r["purpose"] for r in pub["rolls"]], [r["value"] for r in pub["rolls"]]
    seed = b64d(pub["seed"])
    ground = next(s for s in (i.to_bytes(32, "big") for i in range(1, 100000))
                  if dice.recompute(seed, s, purposes) == values)  # his salt, giving the rolls he wants

    resign(folder / blindfile.file_name(n), game["JP"].key, lambda b: b["publication"].update(salt=b64e(ground)))
    refused(folder, game["US"].key, code=1,
            words=[f"step {n // 2}: JP rolled the American player-turn with another salt than the American player sent",
                   "caught at once"])


def test_a_publication_of_the_wrong_side_s_step_is_refused_at_once(game, tmp_path):
    n = pub_where(game, lambda p: p["side"] == "US" and p["seq"] > 1)
    folder = upto(game, "US", n, tmp_path)
    resign(folder / blindfile.file_name(n), game["JP"].key, lambda b: b["publication"].update(side="JP"))
    refused(folder, game["US"].key, code=1,
            words=[f"step {n // 2}: JP published step {n // 2} as a JP step", blindfile.file_name(n - 1), "caught at once"],
            first=[f"step {n // 2}: JP", "caught at once"])


def test_an_american_seed_is_not_revealed_for_a_japanese_step_whose_orders_are_not_committed(game, tmp_path):
    """The Japanese file before his step must commit his orders and dice salt: the American player's pbem refuses to
    send his seed without them (he would choose his orders knowing the dice), naming the file."""
    n = pub_where(game, lambda p: p["public"].get("awaiting") == "JP" and p["seq"] > 1)
    folder = upto(game, "US", n, tmp_path)
    resign(folder / blindfile.file_name(n), game["JP"].key, lambda b: b.pop("commit"))
    said = pbem("blind", "next", folder, "--key", game["US"].key, code=1)
    assert f"{blindfile.file_name(n)}: commit: commits no orders and dice salt for step {n // 2 + 1}" in said, said
    assert not (folder / blindfile.file_name(n + 1)).exists()


def test_a_japanese_commitment_made_again_after_the_american_seed_is_refused_at_once(game, tmp_path):
    """He commits his orders and salt for step k in file 2k-2; the American seed comes in file 2k-1.  A commitment
    for step k sent again in file 2k (after the seed) would let him choose orders and salt knowing the dice."""
    n = pub_where(game, lambda p: p["side"] == "JP" and p["rolls"])
    seq = n // 2
    folder = upto(game, "US", n, tmp_path)
    pub = body(folder / blindfile.file_name(n))["publication"]
    us_seed = b64d(body(folder / blindfile.file_name(n - 1))["seed"])
    purposes, values = [r["purpose"] for r in pub["rolls"]], [r["value"] for r in pub["rolls"]]
    ground = next(s for s in (i.to_bytes(32, "big") for i in range(1, 100000))
                  if dice.recompute(us_seed, s, purposes) == values)

    def recommit(b):
        b["commit"] = {"seq": seq, "orders": "sha256:" + "0" * 64, "salt": dice.commit(ground)}
        b["publication"]["salt"] = b64e(ground)

    resign(folder / blindfile.file_name(n), game["JP"].key, recommit)
    refused(folder, game["US"].key, code=1,
            words=[f"step {seq}: JP committed to orders for step {seq} in {blindfile.file_name(n)}", "caught at once"],
            first=[f"step {seq}: JP", "caught at once"])


def test_a_publication_skipping_a_step_is_refused_naming_the_japanese_player(game, tmp_path):
    n = pub_where(game, lambda p: p["seq"] > 2)
    folder = upto(game, "US", n, tmp_path)
    resign(folder / blindfile.file_name(n), game["JP"].key, lambda b: b["publication"].update(seq=n // 2 + 1))
    refused(folder, game["US"].key, code=1, words=[blindfile.file_name(n), f"publishes step {n // 2 + 1} where step "
                                                                             f"{n // 2} is due (JP)"])


# -- the American answer ------------------------------------------------------------------------------------------

def test_an_american_acknowledgement_of_another_root_than_published_names_the_american_player(game, tmp_path):
    """He signs his acknowledgement of a root he was not sent (to accuse the Japanese player of two histories later):
    the file he answers is pinned by its 'prev', so the Japanese player's pbem names him at once."""
    n = 5
    folder = upto(game, "JP", n, tmp_path)
    us = read_private(game["US"].key, None)

    def lie(b):
        ack = b["acks"][0]["body"]
        b["acks"] = [signing.sign(us, {**ack, "root": "sha256:" + "1" * 64}, br.ACK_CONTEXT)]

    resign(folder / blindfile.file_name(n), game["US"].key, lie)
    refused(folder, game["JP"].key, code=1,
            words=[f"step {n // 2}: US acknowledged another root than the one published in {blindfile.file_name(n - 1)}",
                   "caught at once"])
    assert not any(f["cheater"] == "JP" for f in findings(folder))


def test_an_american_file_without_the_acknowledgement_it_owes_is_refused_naming_him(game, tmp_path):
    n = 7
    folder = upto(game, "JP", n, tmp_path)
    resign(folder / blindfile.file_name(n), game["US"].key, lambda b: b.update(acks=[]))
    refused(folder, game["JP"].key, code=1, words=[f"step {n // 2}: US", "acknowledg", "caught at once"])


def test_a_seed_other_than_committed_is_shown_by_the_japanese_player_s_status(game, tmp_path):
    n = next(k for k in range(3, 19, 2) if body(game["JP"].game / blindfile.file_name(k)).get("seed"))
    folder = upto(game, "JP", n, tmp_path)
    resign(folder / blindfile.file_name(n), game["US"].key, lambda b: b.update(seed=b64e(bytes(32))))
    refused(folder, game["JP"].key, code=1,
            words=["US revealed a seed that is not the one his acknowledgement committed", "caught at once"])


# -- the chain: a file out of its place ---------------------------------------------------------------------------

def test_a_file_whose_prev_names_an_earlier_sibling_names_its_writer(game, tmp_path):
    """The American file 7 answers file 5 (his own) instead of file 6: he, not the Japanese player, broke the chain."""
    n = 7
    folder = upto(game, "JP", n, tmp_path)
    earlier = blindfile.read((folder / blindfile.file_name(n - 2)).read_text(), "x").digest
    resign(folder / blindfile.file_name(n), game["US"].key, lambda b: b.update(prev=earlier))
    for command in (("blind", "next", folder, "--key", game["JP"].key, "--bot", "greedy"), ("verify", folder)):
        said = pbem(*command, code=1)
        assert f"{blindfile.file_name(n)}: prev" in said and f"answers {blindfile.file_name(n - 2)}" in said, said
        assert "US wrote it" in said and "JP sent two different files" not in said, said


def test_an_older_japanese_file_sent_again_as_a_newer_one_is_refused_naming_the_file(game, tmp_path):
    n = 10
    folder = upto(game, "US", n - 1, tmp_path)
    shutil.copy(game["US"].game / blindfile.file_name(6), folder / blindfile.file_name(n))
    for command in (("blind", "next", folder, "--key", game["US"].key, "--bot", "greedy"), ("verify", folder),
                    ("status", folder, "--key", game["US"].key), ("audit", folder)):
        said = pbem(*command, code=2)
        assert f"{blindfile.file_name(n)}: is file 6 of the game ({blindfile.file_name(6)})" in said, said


def test_two_files_of_one_number_are_refused_naming_both(game, tmp_path):
    folder = upto(game, "US", 6, tmp_path)
    shutil.copy(folder / blindfile.file_name(5), folder / "blind-0005-JP.pbem")
    said = pbem("verify", folder, code=2)
    assert "blind-0005-JP.pbem" in said and "blind-0005-US.pbem" in said and "two files numbered 5" in said, said


def test_a_file_of_another_game_is_refused_as_such_whoever_signed_it(game, tmp_path):
    """A file of another game between other players (a mix-up of folders): named as another game's, not as forged."""
    (tmp_path / "other").mkdir()
    other = begin(tmp_path / "other")
    play_to_the_end(other, until=6)
    folder = upto(game, "US", 5, tmp_path)
    shutil.copy(other["US"].game / blindfile.file_name(6), folder / blindfile.file_name(6))
    for command in (("blind", "next", folder, "--key", game["US"].key, "--bot", "greedy"), ("verify", folder)):
        said = pbem(*command, code=2)
        assert f"{blindfile.file_name(6)}: game: is a file of game {body(folder / blindfile.file_name(6))['game']}" in said, said


# -- damaged files: exit 2 naming the file, never a traceback -----------------------------------------------------

@pytest.mark.parametrize("damage", ["truncated", "empty", "garbage"])
def test_a_damaged_received_file_is_refused_naming_it(game, tmp_path, damage):
    folder = upto(game, "US", 6, tmp_path)
    path = folder / blindfile.file_name(6)
    text = path.read_text()
    path.write_text({"truncated": text[: len(text) // 2], "empty": "", "garbage": "\x00\x01 not a pbem file\n"}[damage])
    for command in (("blind", "next", folder, "--key", game["US"].key, "--bot", "greedy"), ("verify", folder),
                    ("status", folder, "--key", game["US"].key), ("audit", folder), ("blind", "view", folder)):
        assert blindfile.file_name(6) in pbem(*command, code=2), command


@pytest.mark.parametrize("n,change", [
    (6, lambda b: b["publication"].update(before=[1])),
    (6, lambda b: b["publication"].update(view="x")),
    (6, lambda b: b["publication"].update(rolls=[{"n": "x"}])),
    (6, lambda b: b.update(commit={"seq": "x"})),
    (5, lambda b: b.update(acks=[1])),
    (5, lambda b: b.update(acks=[{"body": 1}])),
    (5, lambda b: b.update(seed=12)),
    (3, lambda b: b.update(orders=[1])),
], ids=["before", "view", "rolls", "commit", "ack-int", "ack-body", "seed", "orders"])
def test_a_signed_file_with_a_malformed_field_is_refused_or_found_never_a_traceback(game, tmp_path, n, change):
    side = "US" if n % 2 == 0 else "JP"  # the receiver
    writer = "JP" if side == "US" else "US"
    folder = upto(game, side, n, tmp_path)
    resign(folder / blindfile.file_name(n), game[writer].key, change)
    for command in (("blind", "next", folder, "--key", game[side].key, "--bot", "greedy"), ("verify", folder),
                    ("status", folder, "--key", game[side].key)):
        code, out, err = run(*command)
        assert "Traceback" not in err and code in (1, 2), (command, out, err)
        assert blindfile.file_name(n) in out + err or f"step {n // 2}: {writer}" in out + err, (command, out, err)


# -- a player who stalls -------------------------------------------------------------------------------------------

def test_a_japanese_player_who_stalls_is_named_as_the_one_awaited(game, tmp_path):
    n = 7
    folder = upto(game, "US", n, tmp_path)
    said = pbem("status", folder, "--key", game["US"].key)
    assert f"next: wait for {blindfile.file_name(n + 1)} from the JP player" in said
    doc = json.loads(pbem("status", folder, "--key", game["US"].key, "--json"))
    assert doc["next_writer"] == "JP" and doc["verified"] and doc["role"] == "US"
    said = pbem("blind", "next", folder, "--key", game["US"].key, "--bot", "greedy", code=2)
    assert "not yours to write" in said and "JP writes it" in said


# -- the American orders: judged on his own view -------------------------------------------------------------------

def test_american_orders_falsely_rejected_are_caught_at_once_naming_the_japanese_player(game, tmp_path, monkeypatch):
    """The Japanese player's modified pbem rejects American orders the American view finds nothing wrong with (he
    would see the American plans and make him move again): the American player re-judges them on his view at once."""
    from pbem.game.modes.blind import run as blind_run

    n = next(k for k in range(3, 19, 2) if body(game["JP"].game / blindfile.file_name(k)).get("orders"))
    seq = n // 2 + 1
    jp_folder = upto(game, "JP", n, tmp_path)
    real = blind_run.play

    def rejecting(loaded, ruleset, state, orders, stream, **kw):
        if kw.get("seq") == seq:
            orders = {"moves": "not a list"}  # a rejection of his own making
        return real(loaded, ruleset, state, orders, stream, **kw)

    with monkeypatch.context() as m:
        m.setattr(blind_run, "play", rejecting)
        pbem("blind", "next", jp_folder, "--key", game["JP"].key, "--bot", "greedy")
    folder = upto(game, "US", n, tmp_path)
    shutil.copy(jp_folder / blindfile.file_name(n + 1), folder / blindfile.file_name(n + 1))
    assert json.loads(pbem("blind", "view", folder))["last"]["valid"] is False
    refused(folder, game["US"].key, code=1, words=[f"step {seq}: JP rejected the American orders, in which the American "
                                                   "view finds no problem", "caught at once"])


@pytest.mark.parametrize("change,code,words", [
    (lambda b: b.update(orders={"1": {"deployment": {"units": {}, "dummies": []}}}), 1,
     "step 1: JP published orders that are not the ones he committed"),  # well-formed (the schema), not the committed
    (lambda b: b.update(orders={"1": {"deployment": "x"}}), 2, "blind-secret-JP.pbem: orders.1.deployment"),
    (lambda b: b.update(orders=[1]), 2, "blind-secret-JP.pbem: orders"),
    (lambda b: b.update(secret=5), 2, "blind-secret-JP.pbem: secret"),
], ids=["other-orders", "malformed-orders", "orders-not-an-object", "secret-not-base64"])
def test_a_published_secret_that_is_malformed_or_false_is_refused_or_found_by_the_audit(game, tmp_path, change, code, words):
    folder = tmp_path / "US"
    shutil.copytree(game["US"].game, folder)
    resign(folder / blindfile.SECRET_NAME, game["JP"].key, change)
    assert words in pbem("audit", folder, code=code)

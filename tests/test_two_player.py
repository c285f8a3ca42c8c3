"""Two-player games without a referee, played through the command line, and the cheats they must catch.

Two folders, one per player, exchange only the files a mail would carry:
the .pub identities, turn files and orders files.  Each step is the one
``pbem status`` names: the mover writes orders (``pbem bot``), checks and
submits them; his opponent runs the exact ``pbem adjudicate`` command status
prints, and mails back the turn file status names.  At the end both players
verify the whole game from their own folder, with no key.
"""

from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path

import pytest

from tests.games import pbem, run

SIDES = ("US", "JP")


def other(side: str) -> str:
    return "JP" if side == "US" else "US"


class Player:
    """One player's machine: his key and his folder of the game's files."""

    def __init__(self, base: Path, side: str):
        self.side = side
        self.dir = base / side.lower()
        self.dir.mkdir()
        self.game = self.dir / "game"
        pbem("keygen", side.lower(), "--dir", self.dir, "--no-passphrase")
        self.key = self.dir / f"{side.lower()}.key"

    def status(self) -> dict:
        status, out, err = run("status", self.game, "--key", self.key, "--json")
        assert status == 0, out + err
        return json.loads(out)

    def mail(self, name: str, to: "Player") -> Path:
        """Send a file of this player's game folder: the other player keeps it in his."""
        target = to.game / name
        if not target.exists():
            shutil.copy(self.game / name, target)
        return target


def start(base: Path, scenario: str, *, edition: str | None = None) -> dict[str, Player]:
    """Two players; the one who does not move first starts the game (he commits the first seed)."""
    players = {side: Player(base, side) for side in SIDES}
    for side in SIDES:
        shutil.copy(players[side].dir / f"{side.lower()}.pub", players[other(side)].dir)
    starter = players["JP"]  # both scenarios here have the US move first
    extra = ("--edition", edition) if edition else ()
    pbem("new", scenario, "--us", starter.dir / "us.pub", "--jp", starter.dir / "jp.pub", "--key", starter.key,
         "--no-referee", "--out", starter.game, *extra)
    players["US"].game.mkdir()
    starter.mail("turn-0000.pbem", players["US"])
    return players


def play_out(players: dict[str, Player], *, revise_at: int | None = None, limit: int = 80, lean: bool = False) -> int:
    """Play to the end as ``pbem status`` directs; returns the number of player-turns played.

    Every ``status`` replays the whole game (two players keep no record of what they replayed), so a long game
    is played ``lean``: each player-turn asks only the statuses that direct it (the mover's, the adjudicator's)
    and resends nothing; the full round of questions is the skirmish's, a short game."""
    played = 0
    while True:
        if lean:
            us = players["US"].status()
            found = {"US": us, "JP": players["JP"].status() if us["over"] or us["awaiting"] == "JP" else None}
        else:
            found = {side: players[side].status() for side in SIDES}
        if found["US"]["over"]:
            assert found["JP"]["over"]
            return played
        mover = players[found["US"]["awaiting"]]
        judge = players[other(mover.side)]
        seq = found[mover.side]["seq"]
        turn = mover.game / f"turn-{seq:04d}.pbem"
        assert found[mover.side]["next"]["action"].startswith("write your orders")
        if not lean:
            assert found[judge.side]["next"]["action"].startswith("wait for")
        orders = mover.dir / f"orders-{seq}.json"
        pbem("bot", turn, "--key", mover.key, "-o", orders, "--seed", str(seq))
        pbem("validate", orders, "--turn", turn, "--key", mover.key)
        if seq == revise_at:
            # first thoughts, mailed; then a change of mind, mailed too: the latest revision is the one carried out
            first = json.loads(orders.read_text()) | {"note": "first thoughts"}
            draft = mover.dir / f"draft-{seq}.json"
            draft.write_text(json.dumps(first))
            pbem("submit", draft, "--turn", turn, "--key", mover.key)
            mover.mail(f"orders-{seq:04d}-{mover.side}.pbem", judge)
            pbem("submit", orders, "--turn", turn, "--key", mover.key, code=2)  # different orders need --replace
            pbem("submit", orders, "--turn", turn, "--key", mover.key, "--replace")
        else:
            said = pbem("submit", orders, "--turn", turn, "--key", mover.key)
            assert f"send it to the {judge.side} player" in said
            if not lean:
                assert "revision 1 already" in pbem("submit", orders, "--turn", turn, "--key", mover.key)  # a resend signs nothing new
        if lean:
            send = {"to": f"the {judge.side} player", "file": f"orders-{seq:04d}-{mover.side}.pbem"}
        else:
            send = mover.status()["next"]["send"]
        assert send["to"] == f"the {judge.side} player"
        mover.mail(send["file"], judge)
        # the adjudicator runs exactly what status tells him, with his own key
        told = judge.status()["next"]
        command = shlex.split(told["command"])
        assert command[:2] == ["pbem", "adjudicate"] and command[-2:] == ["--key", str(judge.key)]
        pbem(*command[1:])
        judge.mail(told["send"]["file"], mover)
        played += 1
        assert played <= limit


def check_both_verify(players: dict[str, Player], player_turns: int) -> dict[str, str]:
    said = {}
    for side in SIDES:
        said[side] = pbem("verify", players[side].game)
        assert f"verified {player_turns + 1} turn file(s)" in said[side] and "no referee" in said[side]
        assert f"replayed {player_turns} player-turn(s) from the files alone" in said[side]
        assert "the game is over" in said[side]
    return said


@pytest.fixture(scope="module")
def skirmish(tmp_path_factory):
    players = start(tmp_path_factory.mktemp("skirmish"), "test-skirmish")
    played = play_out(players, revise_at=2)
    return players, played


def test_a_whole_skirmish_is_played_without_a_referee_and_verifies_for_both(skirmish):
    players, played = skirmish
    said = check_both_verify(players, played)
    assert played >= 8  # four Game-Turns; rejected orders would add player-turns
    views = {side: json.loads(pbem("view", players[side].game / f"turn-{played:04d}.pbem", "--key", players[side].key, "--json"))
             for side in SIDES}
    assert views["US"]["over"] and views["US"]["victory"] == views["JP"]["victory"]
    assert views["US"]["victory"]["final"] is True
    # the US changed his mind at turn file 2: his second revision was carried out, and JP listed the first
    assert "adjudicated your revision 2 (orders-0002-US-r2.pbem); JP lists revision(s) 1 as received and superseded" in said["US"]
    # an audit needs no reveal: the files hold everything
    assert pbem("audit", players["JP"].game).startswith(f"audited {played} adjudication(s) from the files alone")
    assert "nothing sealed to reveal" in pbem("reveal", players["US"].game, "--key", players["US"].key, "-o", players["US"].dir / "r.pbem", code=2)


def test_each_turn_file_is_signed_by_the_player_who_did_not_move(skirmish):
    from pbem.protocol.chain import verify_chain

    players, _ = skirmish
    turns = verify_chain(players["US"].game).turns
    assert turns[0].writer == "JP" and turns[0].dice.committed_by == "JP"
    for turn in turns[1:]:
        mover = turn.orders_header["body"]["side"]
        assert turn.writer == other(mover)
        # the seed of the next orders is the next adjudicator's: the writer's own when the same side moves again
        awaiting = turn.public["awaiting"]
        if awaiting is not None:
            assert turn.dice.committed_by == other(awaiting)
            if turn.dice.committed_by == mover:
                assert turn.dice.next_commitment == turn.orders_header["body"]["next_commitment"]


def test_a_whole_leyte_assault_is_played_without_a_referee_and_verifies_for_both(tmp_path):
    players = start(tmp_path, "leyte-assault")
    played = play_out(players, lean=True)
    assert played == 16  # eight Game-Turns, no orders rejected
    check_both_verify(players, played)
    last = players["US"].game / f"turn-{played:04d}.pbem"
    public = json.loads(pbem("view", last, "--key", players["JP"].key, "--json"))
    assert public["victory"]["final"] is True and public["victory"]["level"]


# ---------------------------------------------------------------- starting a game


@pytest.fixture()
def two(tmp_path):
    players = {side: Player(tmp_path, side) for side in SIDES}
    for side in SIDES:
        shutil.copy(players[side].dir / f"{side.lower()}.pub", tmp_path)
    return tmp_path, players


def test_new_refuses_a_key_of_neither_player_and_the_first_mover(two):
    base, players = two
    pbem("keygen", "stranger", "--dir", base, "--no-passphrase")
    common = ("new", "test-skirmish", "--us", base / "us.pub", "--jp", base / "jp.pub", "--no-referee")
    said = pbem(*common, "--key", base / "stranger.key", "--out", base / "g1", code=2)
    assert "neither the US nor the JP identity" in said
    said = pbem(*common, "--key", players["US"].key, "--out", base / "g2", code=2)
    assert "US moves first in this scenario, so the JP player starts a two-player game" in said
    said = pbem(*common, "--key", players["JP"].key, "--referee", base / "jp.pub", "--out", base / "g3", code=2)
    assert "not both" in said
    assert not any((base / name).exists() for name in ("g1", "g2", "g3"))


def test_hidden_units_need_a_referee():
    from pbem.errors import BadInput
    from pbem.game.modes.two_player.turns import refuse_hidden

    refuse_hidden(None)
    refuse_hidden([])
    with pytest.raises(BadInput, match="hidden units need a referee: .* adjudicates sees the whole position"):
        refuse_hidden(["hidden-units"])



def test_no_referee_with_hidden_units_is_the_third_mode_started_by_the_japanese_player(two):
    """Two-player mode still refuses hidden units; ``--no-referee --option hidden-units`` starts the third mode, whose
    genesis only the Japanese player can write (it commits his secret set-up): tests/test_blind_cli.py plays it."""
    base, players = two
    said = pbem("new", "test-skirmish", "--us", base / "us.pub", "--jp", base / "jp.pub", "--no-referee", "--option", "hidden-units",
                "--key", players["US"].key, "--out", base / "g4", code=2)
    assert "the Japanese player starts a game with hidden units and no referee" in said
    assert not (base / "g4").exists()


# ---------------------------------------------------------------- cheats and stalls


@pytest.fixture()
def opened(tmp_path):
    """A skirmish begun by JP; the US has sent his first orders, which JP holds."""
    players = start(tmp_path, "test-skirmish")
    us, jp = players["US"], players["JP"]
    orders = us.dir / "orders.json"
    pbem("bot", us.game / "turn-0000.pbem", "--key", us.key, "-o", orders)
    pbem("submit", orders, "--turn", us.game / "turn-0000.pbem", "--key", us.key)
    us.mail("orders-0000-US.pbem", jp)
    return players


def _forged_turn(players, *, signer: str, writer: str, seed: bytes | None = None, state_edit=None, own_commitment: bool = False):
    """Turn file 1 as a cheat would make it: adjudicated honestly by the engine, then signed as he likes."""
    from pbem.game.codec import state_from_json
    from pbem.loading.turns import load_turn, scenario_of
    from pbem.game.step import play
    from pbem.protocol.canonical import b64e
    from pbem.protocol.derive import turn_seed
    from pbem.protocol.dice import DiceStream, commit
    from pbem.protocol.keys import read_private
    from pbem.protocol.ordersfile import open_orders_for_turn
    from pbem.protocol.turnfile import common_body, signed_turn

    jp = players["JP"]
    keys = {side: read_private(players[side].key, None) for side in SIDES}
    genesis = load_turn(jp.game / "turn-0000.pbem")
    body = open_orders_for_turn((jp.game / "orders-0000-US.pbem").read_text(), genesis, keys["JP"], expected_side="US")
    seed = seed or turn_seed(keys["JP"], game=genesis.game, seq=0, prev=None)
    dice = DiceStream(seed, body.salt)
    step = play(scenario_of(genesis), genesis.ruleset, state_from_json(genesis.state["state"]), body.orders, dice,
                game=genesis.game, seq=1, scenario_ref={"id": genesis.scenario_id, "hash": genesis.scenario_hash}, source="orders")
    state = step.referee_state if state_edit is None else state_edit(json.loads(json.dumps(step.referee_state)))
    public = step.public
    if state_edit is not None and isinstance(state["state"], dict):
        # a thorough cheat keeps the public position digest in step with the state he edited
        from pbem.game.position import position_digest

        public = public | {"position": position_digest(state_from_json(state["state"]))}
    if own_commitment:
        committed_by, commitment = writer, commit(turn_seed(keys[writer], game=genesis.game, seq=1, prev=genesis.digest))
    else:
        committed_by, commitment = "US", body.header.next_commitment
    fields = common_body(game=genesis.game, seq=1, scenario={"id": genesis.scenario_id, "hash": genesis.scenario_hash},
                         ruleset=genesis.ruleset, identities=genesis.identities, public=public, prev=genesis,
                         orders=body.envelope, superseded=[], dice_used=dice, next_commitment=commitment)
    fields["dice"]["next_committed_by"] = committed_by
    fields |= {"mode": "two-player", "writer": writer, "state": state,
               "opened": {"nonce": b64e(body.nonce), "orders": body.orders}}
    forged = signed_turn(keys[signer], fields, [])
    for side in SIDES:
        (players[side].game / "turn-0001.pbem").write_text(forged.text)
    return forged


def _verify_fails(players, *expected: str) -> None:
    for side in SIDES:
        said = pbem("verify", players[side].game, code=1)
        assert "NOT VERIFIED: first bad file" in said and "turn-0001.pbem" in said
        for text in expected:
            assert text in said, said


def test_the_honest_forgery_helper_verifies(opened):
    """The helper below makes exactly what 'pbem adjudicate' makes when nothing is changed (so the cheats are real)."""
    _forged_turn(opened, signer="JP", writer="JP")
    for side in SIDES:
        assert "verified 2 turn file(s)" in pbem("verify", opened[side].game)


def test_a_seed_that_does_not_match_the_commitment_is_caught_and_its_revealer_named(opened):
    _forged_turn(opened, signer="JP", writer="JP", seed=bytes(32))
    _verify_fails(opened, "the revealed dice seed does not match the commitment", "made by JP in seq 0",
                  "JP, who wrote this file, revealed the wrong seed")


def test_a_tampered_adjudication_is_caught_by_the_replay_naming_its_writer(opened):
    def move_a_unit(record):
        unit = next(u for u, h in record["state"]["locations"].items() if u.startswith("us-") and h not in ("offmap", "eliminated"))
        record["state"]["locations"][unit] = "1106"
        return record

    _forged_turn(opened, signer="JP", writer="JP", state_edit=move_a_unit)
    _verify_fails(opened, "the full state is not what the replay gives (JP wrote it)")
    # JP moves next on his altered position; the US, who adjudicates JP's orders, will not play on from it
    us, jp = opened["US"], opened["JP"]
    orders = jp.dir / "jp.json"
    orders.write_text(json.dumps({"moves": []}))
    pbem("submit", orders, "--turn", jp.game / "turn-0001.pbem", "--key", jp.key)
    jp.mail("orders-0001-JP.pbem", us)
    said = pbem("adjudicate", us.game / "turn-0001.pbem", us.game / "orders-0001-JP.pbem", "--key", us.key, code=1)
    assert "the game does not verify, so nobody may adjudicate on from it" in said
    assert not (us.game / "turn-0002.pbem").exists()
    status, out, _ = run("status", us.game, "--key", us.key, "--json")
    assert status == 1 and json.loads(out)["next"]["action"].startswith("do not play on: show your opponent")


def test_a_turn_file_signed_by_the_wrong_player_is_caught(opened):
    # the file says JP wrote it, but the US key signed it
    _forged_turn(opened, signer="US", writer="JP")
    _verify_fails(opened, "not by the JP jp")


def test_the_mover_adjudicating_his_own_orders_is_caught(opened):
    # the US signs turn file 1 himself: he cannot know JP's seed, and he may not adjudicate his own orders anyway
    _forged_turn(opened, signer="US", writer="US", seed=bytes(range(32)))
    _verify_fails(opened, "US adjudicated his own orders", "US wrote it, but the seed it must reveal was committed by JP")


def test_an_adjudicator_who_keeps_his_own_seed_for_his_own_orders_is_caught(opened):
    # JP moves next, so his orders must be rolled with the seed the US committed in his orders; JP put his own instead
    _forged_turn(opened, signer="JP", writer="JP", own_commitment=True)
    _verify_fails(opened, "JP is to move, but the seed for his orders is JP's own")


def test_only_the_committed_adjudicator_may_adjudicate(opened):
    us = opened["US"]
    said = pbem("adjudicate", us.game / "turn-0000.pbem", us.game / "orders-0000-US.pbem", "--key", us.key, code=2)
    assert "adjudicated by JP, with the seed JP committed; your key is US's" in said
    assert not (us.game / "turn-0001.pbem").exists()


def test_a_stalled_game_names_the_player_awaited(opened):
    us, jp = opened["US"], opened["JP"]
    # JP holds the US orders and does not answer: only the game stalls, and both sides see who holds it up
    awaited = "waiting for JP to adjudicate US's orders answering turn-0000.pbem and reveal his seed in turn-0001.pbem"
    for player in (us, jp):
        assert awaited in pbem("verify", player.game)
    found = us.status()
    assert awaited in found["notes"] and (found["mode"], found["awaiting"], found["adjudicator"]) == ("two-player", "US", "JP")
    assert jp.status()["next"]["command"].startswith("pbem adjudicate")
    # once JP adjudicates and moves next, the game waits for his orders
    pbem(*shlex.split(jp.status()["next"]["command"])[1:])
    jp.mail("turn-0001.pbem", us)
    assert "waiting for JP's orders answering turn-0001.pbem (US adjudicates them)" in pbem("verify", us.game)
    assert us.status()["next"]["action"].startswith("wait for JP's orders")


def test_rejected_orders_leave_the_same_adjudicator_with_a_fresh_seed_of_his_own(tmp_path):
    """The US moves twice in a row (his first orders are rejected): JP adjudicates both, and commits anew in between."""
    from pbem.protocol.keys import read_private
    from pbem.protocol.ordersfile import build_orders_for_turn
    from pbem.protocol.turnfile import read_turn

    players = start(tmp_path, "test-skirmish")
    us, jp = players["US"], players["JP"]
    genesis = read_turn(us.game / "turn-0000.pbem")
    # orders 'submit' would refuse (a unit that does not exist), signed all the same by a careless program
    bad = build_orders_for_turn(read_private(us.key, None), genesis, "US", {"moves": [{"unit": "us-nobody", "path": []}]})
    (us.game / "orders-0000-US.pbem").write_text(bad.text)
    us.mail("orders-0000-US.pbem", jp)
    said = pbem(*shlex.split(jp.status()["next"]["command"])[1:])
    assert "US orders REJECTED" in said and "US moves again; send turn-0001.pbem to US" in said
    jp.mail("turn-0001.pbem", us)
    first = read_turn(us.game / "turn-0001.pbem", genesis=genesis)
    assert (first.writer, first.dice.committed_by, first.public["awaiting"]) == ("JP", "JP", "US")
    assert first.dice.next_commitment != first.orders_header["body"]["next_commitment"]
    assert us.status()["next"]["action"].startswith("write your orders")
    played = play_out(players)
    assert played >= 8
    check_both_verify(players, played + 1)


def test_a_player_showing_one_history_and_playing_on_from_another_is_caught(tmp_path):
    """JP adjudicates the US orders twice (taking the first revision in one file, the second in the other), sends the
    US one file and answers the other with his own orders: the US cannot adjudicate them, and verify shows both files."""
    players = start(tmp_path, "test-skirmish")
    us, jp = players["US"], players["JP"]
    turn = us.game / "turn-0000.pbem"
    orders = us.dir / "orders.json"
    pbem("bot", turn, "--key", us.key, "-o", orders)
    draft = us.dir / "draft.json"
    draft.write_text(json.dumps(json.loads(orders.read_text()) | {"note": "first thoughts"}))
    pbem("submit", draft, "--turn", turn, "--key", us.key)
    pbem("submit", orders, "--turn", turn, "--key", us.key, "--replace")
    for name in ("orders-0000-US.pbem", "orders-0000-US-r2.pbem"):
        us.mail(name, jp)
    kept, shown = jp.game / "turn-0001.pbem", jp.dir / "turn-0001.pbem"
    pbem("adjudicate", jp.game / "turn-0000.pbem", jp.game / "orders-0000-US.pbem", "--key", jp.key, "-o", kept)
    pbem("adjudicate", jp.game / "turn-0000.pbem", jp.game / "orders-0000-US.pbem", jp.game / "orders-0000-US-r2.pbem",
         "--key", jp.key, "-o", shown)
    assert kept.read_text() != shown.read_text()
    shutil.copy(shown, us.game / "turn-0001.pbem")
    jp_orders = jp.dir / "jp.json"
    pbem("bot", kept, "--key", jp.key, "-o", jp_orders)
    pbem("submit", jp_orders, "--turn", kept, "--key", jp.key)
    jp.mail("orders-0001-JP.pbem", us)
    said = pbem("adjudicate", us.game / "turn-0001.pbem", us.game / "orders-0001-JP.pbem", "--key", us.key, code=2)
    assert "answer a different turn file" in said and "with the same number 1" in said
    shutil.copy(kept, us.game / "turn-0001-as-jp-keeps-it.pbem")
    said = pbem("verify", us.game, code=1)
    assert "equivocation: different turn files carry seq 1" in said


def test_any_change_to_a_two_player_turn_file_is_caught(opened):
    from pbem.protocol.armour import armour, dearmour

    us, jp = opened["US"], opened["JP"]
    pbem(*shlex.split(jp.status()["next"]["command"])[1:])
    text = (jp.game / "turn-0001.pbem").read_text()
    kind, headers, payload = dearmour(text, "TURN", "turn-0001.pbem")
    # the position in clear: one unit moved, the armour's checksum made good again, the signature left as it was
    changed = payload.replace(b'"us-7cav":"', b'"us-7cav":"1', 1)
    assert changed != payload
    (us.game / "turn-0001.pbem").write_text(armour(kind, changed, headers))
    said = pbem("verify", us.game, code=1)
    assert "the signature of the JP jp" in said and "does not match the content" in said


def test_a_malformed_state_signed_by_a_player_is_a_finding_not_a_crash(opened):
    _forged_turn(opened, signer="JP", writer="JP", state_edit=lambda record: {"state": "nonsense", "last": None})
    _verify_fails(opened, "the full state it carries is malformed", "(JP wrote it)")


def test_orders_signed_for_the_other_mode_are_refused(opened):
    """Orders made for a refereed game carry no seed commitment; a two-player adjudicator refuses them (exit 2)."""
    from pbem.protocol.keys import read_private
    from pbem.protocol.ordersfile import build_orders
    from pbem.protocol.turnfile import read_turn

    us, jp = opened["US"], opened["JP"]
    genesis = read_turn(jp.game / "turn-0000.pbem")
    plain = build_orders(read_private(us.key, None), game=genesis.game, seq=0, turn_digest=genesis.digest, side="US",
                         orders={"moves": []}, referee=genesis.identities["JP"], revision=2)
    (jp.game / "orders-0000-US-r2.pbem").write_text(plain.text)
    said = pbem("adjudicate", jp.game / "turn-0000.pbem", jp.game / "orders-0000-US-r2.pbem", "--key", jp.key, code=2)
    assert "carry no seed commitment, which every orders file of a two-player game does" in said
    assert not (jp.game / "turn-0001.pbem").exists()

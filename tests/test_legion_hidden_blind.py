"""Legion 19B hidden units with no referee (issue 39): the demo through the files, and the cheats.

The no-referee mode asks the rules system what a marker is, what a step exposes and which public checks it makes at
once (pbem/systems/base.py); the Legion room answers (pbem/systems/legion/blind.py).  Each cheat is played by a
modified Japanese client against the American player's unmodified checks (:class:`pbem.game.modes.blind.run.American`),
which name who cheated, at which step and when — at once, or at the audit, as docs/hidden-units.md's threat table
promises for Legion.
"""

from __future__ import annotations

import pytest

from pbem.engine import hexes
from pbem.game.modes.blind import run as br
from pbem.protocol.keys import generate
from pbem.systems import load_scenario

ISLAND = "legion-test-island"


@pytest.fixture(scope="module")
def island():
    return load_scenario(ISLAND)


def play(loaded, japanese=br.Japanese, seed=1):
    """A whole game in one process, both sides the room's bot, from fixed secrets (played again exactly)."""
    record, jp = br.run(loaded, us=generate("us"), players=br.bot_players(loaded, {"US": "greedy", "JP": "greedy"}, seed),
                        secret=b"j" * 32, us_secret=b"u" * 32, japanese=japanese)
    return record, jp


@pytest.mark.parametrize("escrow", [False, True], ids=["published", "escrow"])
def test_the_no_referee_demo_plays_verifies_and_audits(tmp_path, escrow):
    """``pbem demo --scenario legion-test-island --no-referee --option hidden-units`` (and ``--escrow``): every file
    checked at once by the player who receives it, the game audited with the Japanese secret (published, or recovered
    from the escrow), no finding."""
    from pbem.bot.blind_demo import run_blind_demo

    done = run_blind_demo(ISLAND, tmp_path, policies={"US": "greedy", "JP": "greedy"}, seed=2, escrow=escrow,
                          options=["hidden-units"])
    assert not done.verify_findings and not done.audit_findings, (done.verify_findings, done.audit_findings)
    assert done.steps >= 16 and done.result != "?"
    from pbem.game.modes.blind import files as bf

    held = bf.load(done.folders["US"])
    assert not held.record.secret_setup and held.record.setup_markers  # the opening's counters, committed at step 0
    assert all("." in m for m in held.record.setup_markers)  # one marker a counter: CCRR.N


def test_an_honest_game_gives_no_finding_and_the_audit_replays_it(island):
    record, jp = play(island)
    assert record.findings == [] and br.audit(island, record, jp.secret, jp.orders) == []
    assert br.salts_match(jp.secret, record)
    opened = [o for pub in record.publications for o in pub.before]
    assert opened and all(o.marker.split(".")[0] in hexes_of(record) for o in opened)


def hexes_of(record) -> set[str]:
    return {m.split(".")[0] for pub in record.publications for m in br.markers_of(pub.view)} | \
        {m.split(".")[0] for m in record.setup_markers}


class Inflated(br.Japanese):
    """A Japanese client that commits jp-1-135 (4-5-3) under its marker as a 4-9-3: when the American assault on
    Garapan exposes it (19B.4), it opens against the root he acknowledged, with the lie it committed."""

    def committed_pieces(self, seq, state):
        committed = super().committed_pieces(seq, state)
        return {m: (p | {"defense": 9} if p.get("id") == "jp-1-135" else p) for m, p in committed.items()}


def test_a_marker_opened_as_a_stronger_unit_than_printed_is_caught_at_once(island):
    """The cheat: a hidden unit opened with another Defense Strength than its counter prints.  Caught at once by the
    American player's check of every opened piece against the public order of battle (3A), at the step that opens it."""
    record, _ = play(island, japanese=Inflated)
    at_once = [f for f in record.findings if f.when == br.AT_ONCE]
    assert at_once, record.findings
    first = at_once[0]
    assert first.cheater == "JP" and first.seq == 1  # the first American player-turn assaults Garapan (0403)
    assert "as jp-1-135 with defense 9" in first.what and "prints defense 5" in first.what


def teleporting(done: dict):
    """A Japanese client that, in his first Movement Phase, moves his artillery (movement allowance 2) on 4 hexes or
    more to an empty hex no U.S. unit is next to and no Clear hex (19B.3), and publishes the step so: every root,
    opening and view consistent with the lie."""
    from pbem.game.step import record_step

    class Teleport(br.Japanese):
        def carry_out(self, seq, step, orders, stream, ruleset):
            played = super().carry_out(seq, step, orders, stream, ruleset)
            state = played.state
            if done or step.state.to_act() != "JP" or step.state.position.phase != "movement" or not played.last["valid"]:
                return played
            board = self.loaded.board
            here = state.locations["jp-art"]
            taken = {h for u, h in state.locations.items() if state.on_map(u)}
            american = {state.locations[u.id] for u in state.units if u.side == "US" and state.on_map(u.id)}
            for there in sorted(taken | {n for h in taken for n in hexes.neighbours(h)}):
                if (hexes.distance(here, there) >= 4 and board.on_board(there) and board.land(there) and there not in taken
                        and not board.exposure_clear(there) and not american & {there, *hexes.neighbours(there)}):
                    done.update(seq=seq, start=here, end=there)
                    moved = state.model_copy(update={"locations": {**state.locations, "jp-art": there}})
                    return record_step(moved, game=self.game, seq=seq, scenario_ref=self.ref, ruleset=ruleset,
                                       over=played.over, last=played.last, loaded=self.loaded, before=step.state)
            return played

    return Teleport


def test_a_hidden_unit_moved_past_its_allowance_is_caught_at_the_audit(island):
    """The cheat: a hidden unit moved further than its movement allowance.  Legion makes no public bound on hidden
    moves at once (docs/hidden-units.md, threat table): the American player's checks pass, and the audit's replay with
    the published secret names the Japanese player at that step."""
    done: dict = {}
    record, jp = play(island, japanese=teleporting(done))
    assert done, "no hex to move the artillery to"
    assert [f for f in record.findings if f.when == br.AT_ONCE] == []  # not at once: the audit's
    found = br.audit(island, record, jp.secret, jp.orders)
    assert found and found[0].cheater == "JP" and found[0].seq == done["seq"] and found[0].when == br.AT_AUDIT
    assert "root that the replayed position does not give" in found[0].what
    assert f"shows a marker in {done['end']}" in found[0].what or done["end"] in found[0].what


def test_pbem_new_with_no_referee_commits_the_opening_and_each_player_reads_it(tmp_path):
    """``pbem new legion-test-island … --no-referee --option hidden-units``: the Japanese player is shown what his
    genesis commits under each marker (one a counter, ``CCRR.N``); the American player's ``status`` says he moves
    first, and ``pbem view`` shows him the opening with every Japanese counter a marker, nothing of what is under it."""
    from tests.games import run

    for name in ("us", "jp"):
        status, _, err = run("keygen", name, "--no-passphrase", cwd=tmp_path)
        assert status == 0, err
    status, out, err = run("new", ISLAND, "--us", "us.pub", "--jp", "jp.pub", "--key", "jp.key", "--out", "game",
                           "--no-referee", "--option", "hidden-units", cwd=tmp_path)
    assert status == 0, err
    assert "the opening (every counter where the scenario sets it up) is committed" in out
    assert "0403.1  jp-1-135" in out and "dummy" in out
    status, out, err = run("status", tmp_path / "game", "--key", tmp_path / "us.key")
    assert status == 0 and "blind-0001-US.pbem" in out and "with your orders" in out, out + err
    status, out, err = run("view", tmp_path / "game", "--key", tmp_path / "us.key")
    assert status == 0, err
    assert "0403.1" in out and "hidden" in out and "jp-1-135" not in out and "dummy" not in out


def misreporting(done: dict):
    """A Japanese client that tells the first Assault of the game with another result of its column of the Assault
    Combat Results Table than the die gives (he adjudicates every player-turn with no referee), the position as the
    honest result left it: the lie is in the public record every file carries."""
    import copy

    from pbem.game.step import record_step
    from pbem.systems.legion.files import load_scenario as legion_scenario

    assault = legion_scenario(ISLAND).charts.assault

    class Misreport(br.Japanese):
        def carry_out(self, seq, step, orders, stream, ruleset):
            played = super().carry_out(seq, step, orders, stream, ruleset)
            combats = (played.last or {}).get("combats") or []
            told = next((c for c in combats if c.get("type") == "assault" and c.get("die") is not None), None)
            if done or told is None:
                return played
            last = copy.deepcopy(played.last)
            combat = next(c for c in last["combats"] if c["index"] == told["index"])
            column = assault.columns.index(combat["column"])
            combat["result"] = next(r.results[column] for r in assault.rows if r.results[column] != combat["result"])
            done.update(seq=seq, index=combat["index"])
            return record_step(played.state, game=self.game, seq=seq, scenario_ref=self.ref, ruleset=ruleset,
                               over=played.over, last=last, loaded=self.loaded, before=step.state)

    return Misreport


def test_a_combat_result_the_assault_table_does_not_give_is_caught_at_once(island):
    """The cheat: the Japanese player, adjudicating with no referee, publishes an Assault's result otherwise than the
    Assault Combat Results Table gives for its column and die.  Caught at once by the American player's check of every
    public record against the charts of the scenario (9A.2, 9D.1), as ``pbem verify`` checks a refereed game's."""
    done: dict = {}
    record, _ = play(island, japanese=misreporting(done))
    assert done, "no Assault was fought"
    at_once = [f for f in record.findings if f.when == br.AT_ONCE]
    assert at_once and at_once[0].cheater == "JP" and at_once[0].seq == done["seq"], record.findings
    assert f"combat {done['index']}" in at_once[0].what and "9A.2" in at_once[0].what, at_once[0].what

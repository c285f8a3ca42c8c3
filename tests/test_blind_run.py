"""Hidden units with no referee, at the level of functions (pbem/game/modes/blind/run.py): an honest game checks out,
and every cheat is caught, naming the cheater, the step and the moment (at once, at the audit, at the end)."""

from __future__ import annotations

from functools import lru_cache

import pytest

from pbem.loading.datafiles import load_scenario
from pbem.game.modes.blind import run as br
from pbem.game.modes.blind.exposure import hidden_markers, pieces
from pbem.game.step import record_step
from pbem.protocol import commitment
from pbem.protocol.keys import generate
from tests.blind_games import IllegalMover

US = generate("us")
JP_SECRET, US_SECRET = bytes(range(32)), bytes(range(32, 64))
POLICIES = {"US": "greedy", "JP": "greedy"}


@lru_cache(maxsize=None)
def loaded(name: str):
    return load_scenario(name)


def run(name="test-skirmish", seed=1, japanese=br.Japanese, **kw):
    return br.run(loaded(name), us=US, players=br.bot_players(loaded(name), POLICIES, seed), secret=JP_SECRET, us_secret=US_SECRET,
                  japanese=japanese, **kw)


def findings(record, jp):
    return record.findings + br.audit(loaded(record_scenario(record)), record, jp.secret, jp.orders)


def record_scenario(record):
    return record.publications[0].view["scenario"]["id"]


def one(found, *, seq=None, when, words):
    """The first finding names the Japanese player, the step and the moment; one of that step's says ``words``."""
    assert found, "the cheat was not caught"
    first = found[0]
    assert first.cheater == "JP" and first.when == when, found
    assert seq is None or first.seq == seq, found
    saying = [f for f in found if f.seq == first.seq and words in f.what]
    assert saying, found
    return saying[0]


# -- an honest game ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name,seed", [("test-skirmish", s) for s in range(4)] + [("leyte-assault", 1)])
def test_an_honest_game_checks_out_at_once_and_at_the_audit(name, seed):
    record, jp = run(name, seed)
    assert record.publications[-1].view["over"]
    assert record.findings == []
    assert br.audit(loaded(name), record, jp.secret, jp.orders) == []
    assert br.salts_match(jp.secret, record)
    assert any(p.before for p in record.publications if p.side == "US") or name == "test-skirmish"
    assert len(record.acks) == len(record.publications) + 2  # the genesis and the set-up roots too
    assert br.check_history(record, US.public, {p.seq: p.root for p in record.publications}) == []


def test_the_run_is_played_again_exactly_from_the_two_secrets():
    first, _ = run(seed=2)
    again, _ = run(seed=2)
    assert [p.root for p in first.publications] == [p.root for p in again.publications]
    other, _ = br.run(loaded("test-skirmish"), us=US, players=br.bot_players(loaded("test-skirmish"), POLICIES, 2),
                      us_secret=US_SECRET)
    assert not {p.root for p in other.publications} & {p.root for p in first.publications}


# -- illegal hidden moves: found at the audit -------------------------------------------------------------------

@pytest.mark.parametrize("rule,words,name", [("5.13", "allowance", "test-skirmish"), ("6.0", "zone of control", "test-skirmish"),
                                             ("5.21", "sea", "leyte-assault")])
def test_a_hidden_unit_moved_against_the_rules_is_found_at_once_or_at_the_audit_naming_the_move(rule, words, name):
    """A move into the sea no counter can have made: the public bound refuses it at once, at its own step (issue 35
    item 4).  A move one hex too far, or on out of a zone of control, the public bound admits (another piece could
    have made it): the audit names it."""
    for seed in range(6):
        mover = type("Mover", (IllegalMover,), {"rule": rule})
        record, jp = run(name, seed=seed, japanese=mover)
        if jp.cheat is not None:
            break
    else:
        pytest.fail(f"no bot game offered a hidden move breaking {rule}")
    seq, unit, end, _ = jp.cheat
    if rule == "5.21":
        one(record.findings, seq=seq, when=br.AT_ONCE, words=f"counters no legal play can have put where they stand: {end}")
        return
    assert record.findings == [], "the American player cannot see this hidden move: nothing is caught at once"
    found = one(br.audit(loaded(name), record, jp.secret, jp.orders), seq=seq, when=br.AT_AUDIT, words=f"({rule})")
    assert unit in found.what and words in found.what


# -- openings: caught at once -----------------------------------------------------------------------------------

class WrongOpening(br.Japanese):
    """Opens a marker exposed in an American player-turn as a stronger unit than he committed."""

    lied = None

    def carry_out(self, seq, step, orders, stream, ruleset):
        self.current = seq
        return super().carry_out(seq, step, orders, stream, ruleset)

    def open(self, tree, marker):
        opening = tree.opening(marker)
        if opening.is_dummy or tree.seq != self.current - 1 or self.lied:
            return opening
        self.lied = (self.current, marker)
        return commitment.Opening(**{**opening.__dict__, "piece": {**opening.piece, "defense": opening.piece["defense"] + 3}})


def test_an_opening_that_does_not_match_its_commitment_is_caught_at_once():
    record, jp = run(japanese=WrongOpening)
    seq, marker = jp.lied
    found = one(record.findings, seq=seq, when=br.AT_ONCE, words="does not match the root he committed")
    assert marker in found.what


def _honest_openings(name="test-skirmish", seed=1):
    """The openings against an earlier root in an honest game (set-up intelligence, American player-turns) of pieces
    never opened before: a cheat on its commitment up to that step is first seen there."""
    record, jp = run(name, seed)
    first, seen = [], set()
    for p in record.publications:
        for o in p.before:
            if (o.piece.get("id"), o.marker) not in seen and o.piece.get("id") not in seen:
                first.append((p.seq, o))
        seen |= {o.piece.get("id") for o in p.before + p.after if not o.is_dummy}
        seen |= {(o.piece.get("id"), o.marker) for o in p.before if o.is_dummy}
    return record, first


class Relabel(br.Japanese):
    """Commits one piece as something else in the roots of steps ``steps`` (a dummy as a unit, a unit as a dummy)."""

    target: str = ""
    steps: range = range(0)
    swap_with: str | None = None

    def committed_pieces(self, seq, state):
        found = pieces(state)
        where = state.locations.get(self.target)
        if seq in self.steps and where in found:
            if self.swap_with:
                other = state.locations[self.swap_with]
                found[where], found[other] = found[other], found[where]
            else:
                found[where] = {"kind": "dummy"} if found[where] != {"kind": "dummy"} else {
                    "id": "jp-1-9", "kind": "infantry", "attack": 2, "defense": 3, "move": 4}
        return found


def _relabel(target, steps, swap_with=None):
    return type("Cheat", (Relabel,), {"target": target, "steps": steps, "swap_with": swap_with})


def test_a_real_unit_committed_as_a_dummy_is_caught_at_once_when_it_is_opened():
    record, opened = _honest_openings()
    seq, opening = next((s, o) for s, o in opened if not o.is_dummy)
    cheat, jp = run(japanese=_relabel(opening.piece["id"], range(-1, seq)))
    one(cheat.findings, seq=seq, when=br.AT_ONCE, words="a real unit stood under a marker opened as a dummy")


def test_a_dummy_committed_as_a_real_unit_is_caught_at_once_when_it_is_removed():
    for seed in range(6):
        record, opened = _honest_openings(seed=seed)
        dummy = next(((s, o) for s, o in opened if o.is_dummy), None)
        if dummy:
            break
    seq, opening = dummy
    record, jp = run(seed=seed)
    tree = -1 if seq == 1 else seq - 1  # step 1 is the set-up, opened against the set-up's root
    before = jp.trees[tree]
    state_unit = _dummy_at(seed, tree, opening.marker)
    cheat, _ = run(seed=seed, japanese=_relabel(state_unit, range(-1, seq)))
    one(cheat.findings, seq=seq, when=br.AT_ONCE, words="a dummy was committed as a real unit")
    assert before.pieces[opening.marker] == {"kind": "dummy"}


def _dummy_at(seed, seq, hex_id):
    """The id of the dummy standing in ``hex_id`` after step ``seq`` (replayed from an honest run)."""
    captured = {}

    class Spy(br.Japanese):
        def committed_pieces(self, s, state):
            if s == seq:
                captured.update({h: u for u, h in state.locations.items()})
            return pieces(state)

    run(seed=seed, japanese=Spy)
    return captured[hex_id]


def _unopened_hidden(record, jp, seq):
    """Two real units hidden after step ``seq`` whose markers step ``seq + 1`` does not open."""
    captured = {}

    class Spy(br.Japanese):
        def committed_pieces(self, s, state):
            if s == seq:
                captured.update(hidden_markers(state))
                captured["state"] = state
            return pieces(state)

    run("leyte-assault", seed=1, japanese=Spy)
    state = captured.pop("state")
    nxt = next(p for p in record.publications if p.seq == seq + 1)
    opened = {o.marker for o in nxt.before}
    return [u for h, u in sorted(captured.items()) if h not in opened and not state.unit(u).is_dummy]


def test_a_unit_committed_as_a_dummy_and_never_opened_is_caught_at_the_audit():
    record, jp = run("leyte-assault")
    seq = 2
    unit = _unopened_hidden(record, jp, seq)[0]
    cheat, cj = run("leyte-assault", japanese=_relabel(unit, range(seq, seq + 1)))
    assert cheat.findings == []
    one(br.audit(loaded("leyte-assault"), cheat, cj.secret, cj.orders), seq=seq, when=br.AT_AUDIT,
        words="the replayed position does not give")


def test_a_commitment_changed_between_steps_against_the_moves_is_caught_at_the_audit():
    record, jp = run("leyte-assault")
    seq = 2
    a, b = _unopened_hidden(record, jp, seq)[:2]
    cheat, cj = run("leyte-assault", japanese=_relabel(a, range(seq, seq + 1), swap_with=b))
    assert cheat.findings == []
    found = br.audit(loaded("leyte-assault"), cheat, cj.secret, cj.orders)
    one(found, seq=seq, when=br.AT_AUDIT, words="commitment changed otherwise than the moves")
    assert "the other way round (pieces exchanged between markers)" in found[0].what, found  # the deed (issue 35)
    assert a in found[0].what and b in found[0].what, found


# -- two histories, dice, the secret ----------------------------------------------------------------------------

def test_two_histories_are_shown_by_the_american_acknowledgement():
    record, jp = run()
    shown = {p.seq: p.root for p in record.publications}
    other = commitment.commit(commitment.new_secret(), game=record.game, seq=3, pieces={}).root
    found = br.check_history(record, US.public, {**shown, 3: other})
    one(found, seq=3, when=br.AT_AUDIT, words="two histories")
    forged = [dict(a) for a in record.acks]
    forged[4] = {**forged[4], "body": {**forged[4]["body"], "root": other}}
    with pytest.raises(Exception, match="signature"):
        br.check_history(br.Record(record.game, acks=forged), US.public, {})


class WrongSeed(br.Japanese):
    """Reveals another seed than the one he committed for an American player-turn."""

    lied = None

    def carry_out(self, seq, step, orders, stream, ruleset):
        if not step.state.hidden.deployed or step.state.position.phasing != "US":
            return super().carry_out(seq, step, orders, stream, ruleset)
        stream._seed = bytes(32)  # his rolls, from a seed he did not commit, published as the rolls of the step
        played = super().carry_out(seq, step, orders, stream, ruleset)
        if stream.rolls and self.lied is None:
            self.lied = seq
        return played


def test_a_wrong_roll_is_caught_at_once():
    record, jp = run(japanese=WrongSeed)
    one(record.findings, seq=jp.lied, when=br.AT_ONCE, words="rolls that the committed seed and the salt do not give")


class WrongDie(br.Japanese):
    """Rolls honestly but shows another die in the record of a combat."""

    lied = None

    def carry_out(self, seq, step, orders, stream, ruleset):
        played = super().carry_out(seq, step, orders, stream, ruleset)
        combats = played.public.get("last", {}).get("combats") or []
        if self.lied is None and combats:
            self.lied = seq
            combats[0]["die"] = combats[0]["die"] % 6 + 1
        return played


def test_a_combat_shown_with_another_die_than_rolled_is_caught_at_once():
    record, jp = run(japanese=WrongDie)
    one(record.findings, seq=jp.lied, when=br.AT_ONCE, words="published a record the rolls do not give")


def test_a_withheld_secret_is_a_finding_at_the_end_and_the_escrow_closes_it_as_the_files_do():
    """In one process the escrow is the files' (issue 36): the secret dealt by PVSS between the holder and the
    American player; both shares open it and the escrowed orders, and the audit holds with them alone."""
    holder = generate("escrow")
    record, jp = run(escrow=holder.public)
    assert record.findings == [] and record.escrow["holder"] == holder.public.line()
    assert "pvss" in record.escrow and set(record.escrow_parts) == set(record.jp_commitments)
    one(br.audit(loaded("test-skirmish"), record, None, jp.orders), when=br.AT_END, words="withheld his secret")
    secret, orders = br.recover_escrow(record, holder, US)
    assert secret == jp.secret and orders == jp.orders  # the secret the game was played with, his every order
    assert br.audit(loaded("test-skirmish"), record, secret, orders) == []


def test_the_holder_alone_or_with_a_stranger_opens_nothing_in_one_process():
    from pbem.game.modes.blind.dealing import AMERICAN, dealing_from, identity_point, open_share, pvss_context
    from pbem.protocol import pvss

    holder = generate("escrow")
    record, _ = run(escrow=holder.public, max_steps=2)
    with pytest.raises(ValueError, match="not the escrow holder"):
        br.recover_escrow(record, generate("mallory"), US)
    with pytest.raises(ValueError, match="is not the American player of this game"):
        br.recover_escrow(record, holder, generate("mallory"))
    # a stranger's own decryption of the American share, proven with his key, does not verify against the dealing
    stranger, dealing = generate("mallory"), dealing_from(record.escrow["pvss"])
    share, proof = open_share(stranger, AMERICAN, record.escrow, record.game)
    with pytest.raises(pvss.PvssError, match="participant 2's opened share does not match its proof"):
        pvss.verify_share(AMERICAN, share, proof, identity_point(US.public), dealing, pvss_context(record.game))


class BadDealer(br.Japanese):
    """Deals the American player's share to a stranger: the holder and the stranger would open the game."""

    @staticmethod
    def deal_escrow(holder, us, game, seed):
        return br.Japanese.deal_escrow(holder, generate("stranger").public, game, seed)


def test_a_dealing_for_another_key_is_caught_at_once_in_one_process():
    holder = generate("escrow")
    record, _ = run(japanese=BadDealer, escrow=holder.public, max_steps=1)
    one(record.findings, seq=0, when=br.AT_ONCE, words="sent an escrow that does not verify (the share of participant 2")


def test_orders_other_than_committed_are_caught_at_the_audit():
    record, jp = run()
    seq = next(s for s in sorted(jp.orders) if s > 1)
    changed = {**jp.orders, seq: {**jp.orders[seq], "moves": []}}
    one(br.audit(loaded("test-skirmish"), record, jp.secret, changed), seq=seq, when=br.AT_AUDIT,
        words="not the ones he committed")


class Withholder(br.Japanese):
    """Resolves an American attack on a marker without opening the marker first."""

    skipped = None

    def openings(self, tree, markers):
        found = super().openings(tree, markers)
        real = [o for o in found if not o.is_dummy]
        if self.skipped is None and real:
            self.skipped = (1 if tree.seq == -1 else tree.seq + 1, real[0].piece["id"])  # -1: the set-up's root
            return [o for o in found if o is not real[0]]
        return found


def test_a_unit_exposed_without_its_opening_is_caught_at_once():
    record, jp = run(japanese=Withholder)
    seq, unit = jp.skipped
    found = one(record.findings, seq=seq, when=br.AT_ONCE, words="without opening the marker it stood under")
    assert unit in found.what


def test_an_american_seed_other_than_committed_is_caught_naming_him():
    record, jp = run()
    seq = min(record.us_seeds)
    record.us_seeds[seq] = bytes(32)
    found = br.audit(loaded("test-skirmish"), record, jp.secret, jp.orders)
    assert found and found[0].cheater == "US" and found[0].seq == seq and "acknowledgement committed" in found[0].what


class Blunderer(br.Japanese):
    """Sends orders the rules refuse once (a unit moved twice, 5.16): an honest rejection, not a cheat."""

    rejected = None

    def choose_orders(self, seq, step):
        orders = super().choose_orders(seq, step)
        moves = orders.get("moves") or []
        if self.rejected is None and step.state.hidden.deployed and moves:
            self.rejected = seq
            return {**orders, "moves": [*moves, moves[0]]}
        return orders


def test_orders_honestly_rejected_are_no_finding():
    record, jp = run(japanese=Blunderer)
    rejected = next(p for p in record.publications if p.seq == jp.rejected)
    assert rejected.view["last"]["valid"] is False
    assert record.findings == []
    assert br.audit(loaded("test-skirmish"), record, jp.secret, jp.orders) == []


class StrongerDefenders(br.Japanese):
    """Adjudicates an American player-turn with every hidden defender's defense raised by 2, then shows the true units."""

    lied = None

    def carry_out(self, seq, step, orders, stream, ruleset):
        state = step.state
        if self.lied is not None or not state.hidden.deployed or state.position.phasing != "US":
            return super().carry_out(seq, step, orders, stream, ruleset)
        markers = hidden_markers(state)
        real = {u for u in markers.values() if not state.unit(u).is_dummy}
        if not any(markers.get(d) in real for a in orders.get("attacks", []) for d in a["defenders"]):
            return super().carry_out(seq, step, orders, stream, ruleset)  # his attacks meet no hidden unit
        stronger = tuple(u.model_copy(update={"defense": u.defense + 2}) if u.id in real else u for u in state.units)
        played = super().carry_out(seq, type(step)(**{**step.__dict__, "state": state.model_copy(update={"units": stronger})}),
                                   orders, stream, ruleset)
        self.lied = seq
        true = played.state.model_copy(update={"units": state.units})
        return record_step(true, game=self.game, seq=seq, scenario_ref={"id": self.loaded.scenario.id, "hash": br.SELFPLAY},
                           ruleset=ruleset, over=played.over, last=played.last, loaded=self.loaded, before=state)


def test_a_combat_resolved_with_other_strengths_than_opened_is_caught_at_once():
    record, jp = run("leyte-assault", japanese=StrongerDefenders)
    one(record.findings, seq=jp.lied, when=br.AT_ONCE, words="but the opened defenders and their FPF make")


# -- victory (I28) ----------------------------------------------------------------------------------------------

def test_i28_a_dummy_in_an_objective_scores_the_same_with_no_referee_as_with_one():
    """I28: a dummy standing in an objective at the end occupies it for Japan.  Played with no referee, the final
    report the Japanese player publishes scores it; the American's audit, replaying the engine, agrees; and the same
    orders and rolls through the referee's step give the very same report, in both views.  No dummy id reaches the
    American: the report names the marker's hex."""
    from pbem.engine.dice import FixedDice
    from pbem.game.step import play
    from pbem.loading.datafiles import LoadedScenario
    from pbem.model.scenario import Objective
    from pbem.protocol.canonical import canonical_bytes

    base = loaded("test-skirmish")
    hill = Objective.model_validate({"side": "JP", "hex": "0304", "points": 7, "source": "15.21"})
    variant = LoadedScenario(base.path, base.scenario.model_copy(update={"objectives": [*base.scenario.objectives, hill]}), base.board)
    bot = br.bot_players(variant, {"JP": "greedy"}, 0)["JP"]
    # The Japanese bot deploys (its dummies in 0204 and 0304, which its greedy play would leave for a unit), then
    # both sides stand still; the American dice of this secret expose no dummy at the set-up (19B.7).
    players = {"US": lambda view: {}, "JP": lambda view: bot(view) if not view["state"]["hidden"]["deployed"] else {}}
    record, jp = br.run(variant, us=US, players=players, secret=JP_SECRET, us_secret=bytes([1]) * 32)
    assert record.findings == [] and br.audit(variant, record, jp.secret, jp.orders) == []
    setup = next(o for o in jp.orders.values() if "deployment" in o)
    assert "0304" in setup["deployment"]["dummies"]
    final = record.publications[-1].view
    assert final["over"] and "0304" in br.markers_of(final)  # still a marker: being scored exposed nothing
    line = next(line for line in final["victory"]["lines"] if line["what"].startswith("occupying Hill 522"))
    assert line["points"] == 7 and line["items"] == ["0304"]
    assert all(b"JP-dummy" not in canonical_bytes(p.view) for p in record.publications)
    # The refereed mode: the same orders and rolls through the referee's step.
    ruleset = br.ruleset_of(variant, None)
    ref = {"id": variant.scenario.id, "hash": br.SELFPLAY}
    step = br.genesis_step(variant, {}, game=record.game, scenario_ref=ref, ruleset=ruleset, options=["hidden-units"])
    for pub in record.publications:
        orders = jp.orders[pub.seq] if pub.side in ("JP", "setup") else record.us_orders[pub.seq][0]
        step = play(variant, ruleset, step.state, orders, FixedDice([r["value"] for r in pub.rolls]), game=record.game,
                    seq=pub.seq, scenario_ref=ref, source=f"step {pub.seq}")
    assert step.over
    assert step.views["US"]["victory"] == step.views["JP"]["victory"] == step.public["victory"] == final["victory"]

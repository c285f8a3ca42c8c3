"""Hidden units with no referee: the Japanese bot's moves after the set-up tell an observer nothing he could replay
(issue 35 item 1, the moves half; tests/test_blind_unpredictable.py holds the set-up half).

The attack the issue found: when the Japanese player lets ``blind next --bot greedy`` play, the American player, who
holds pbem's code, rebuilt the default set-up (the bot's draw with seed 0) and replayed every Japanese player-turn on
it — the American orders and every die are in his files — so he knew the unit under every marker at every step.  Now
each of the bot's draws is seeded from the Japanese per-game secret (:func:`pbem.game.modes.blind.files.bot_seed`).

Fresh games, the Japanese side played by the bot exactly as the files play it; after each of his player-turns an
observer holding only what the American player's files hold labels every marker.  Each observer is scored against
one who knows only the counts (tests/setup_observer.py: the same labels, drawn at random): z < 3.  A control game
with the bot seeded as before issue 35 shows the replaying observer's power — there he names every marker.
"""

from __future__ import annotations

import os

from pbem.bot.play import bot_orders
from pbem.bot.selfplay import SeededDice
from pbem.engine.deployment import apply_deployment
from pbem.engine.dice import DiceExhausted
from pbem.game.modes.blind import files as blind_files, run as br
from pbem.game.step import Step, genesis_step, play
from pbem.loading.datafiles import load_scenario, orders_from
from pbem.model.common import NOT_ON_MAP
from pbem.protocol import commitment
from pbem.protocol.keys import generate
from tests.setup_observer import DUMMY, Public, Tally, _label
from tests.setup_observer import public_of

SCENARIO = "leyte-assault"
GAMES = int(os.environ.get("PBEM_OBSERVER_GAMES", "6"))
JAPANESE_TURNS = 3  # the set-up, then three player-turns of the bot's
US = generate("us")


class Watched(br.Japanese):
    """The honest Japanese player, whose true position after every step the test keeps (to score the guesses)."""

    def carry_out(self, seq, step, orders, stream, ruleset):
        after = super().carry_out(seq, step, orders, stream, ruleset)
        self.truth = getattr(self, "truth", {})
        self.truth[seq] = after.state
        return after


def played(loaded, secret: bytes | None, game: str, seeds) -> tuple[br.Record, Watched]:
    """A game through the protocol: the American greedy bot, the Japanese one seeded per step as ``seeds`` says
    (``bot_seed`` from his secret, as ``pbem new`` and ``blind next --bot`` seed it; or the pre-issue-35 zero)."""
    def japanese(view):
        return bot_orders(view, loaded, "greedy", seeds(view["seq"] + 1))

    steps = 2 * JAPANESE_TURNS + 1  # US moves first in the Leyte scenarios: set-up, then US and JP in turn
    return br.run(loaded, us=US, players={"US": lambda v: bot_orders(v, loaded, "greedy", 1), "JP": japanese},
                  secret=secret, japanese=Watched, game=game, max_steps=steps)


class PublicDice:
    """The dice of a publication, in the order it rolled them (every roll is in the American player's files)."""

    def __init__(self, rolls: list[dict]) -> None:
        self.values = [int(r["value"]) for r in rolls]
        self.spare = SeededDice("observer")

    def roll(self, purpose: str) -> int:
        return self.values.pop(0) if self.values else self.spare.roll(purpose)


def replaying_observer(loaded, record: br.Record, seed_of) -> dict[int, dict[str, str]]:
    """The issue's attacker: the bot's set-up with a seed he guesses, then every step replayed from his files (the
    American orders, every die) with the Japanese bot's orders drawn with the seed he guesses for the step; after
    each Japanese player-turn, the piece his replay has on each marker hex.  ``seed_of(seq)``: his guess."""
    ruleset = br.ruleset_of(loaded, None)
    ref = {"id": loaded.scenario.id, "hash": br.SELFPLAY}
    step: Step = genesis_step(loaded, {}, game=record.game, scenario_ref=ref, ruleset=ruleset, options=["hidden-units"])
    guesses: dict[int, dict[str, str]] = {}
    for pub in record.publications:
        if pub.side == "US":
            orders = record.us_orders[pub.seq][0]
        else:
            orders = bot_orders(step.views["JP"], loaded, "greedy", seed_of(pub.seq))
        try:
            step = play(loaded, ruleset, step.state, orders, PublicDice(pub.rolls), game=record.game, seq=pub.seq,
                        scenario_ref=ref, source="observer")
        except DiceExhausted:  # pragma: no cover - PublicDice never runs out
            raise
        if pub.side == "JP":
            units = step.state.unit_index()
            guesses[pub.seq] = {where: (DUMMY if units[u].is_dummy else u) for u, where in step.state.locations.items()
                                if units[u].side == "JP" and where not in NOT_ON_MAP}
    return guesses


def scored(loaded, record: br.Record, jp: Watched, guesses: dict[int, dict[str, str]], tally: Tally) -> int:
    """Adds the observer's labelling of the markers after each Japanese player-turn to ``tally``; the markers scored."""
    markers = 0
    for pub in record.publications:
        if pub.side != "JP" or pub.seq not in guesses:
            continue
        public: Public = public_of(loaded, pub.view)
        state = jp.truth[pub.seq]
        units = state.unit_index()
        at = {where: u for u, where in state.locations.items() if where not in NOT_ON_MAP and units[u].side == "JP"}
        truth = {m: DUMMY if units[at[m]].is_dummy else at[m] for m in public.markers}
        hidden = sorted(u for u in truth.values() if u != DUMMY)
        public = Public(public.loaded, public.printed, public.kinds, public.zone, public.markers, hidden,
                        len(public.markers) - len(hidden))
        guess = guesses[pub.seq]
        tally.add(_label(public, lambda label, marker: 1.0 if guess.get(marker) == label else 0.0), truth, public.dummies)
        markers += len(truth)
    return markers


def test_an_observer_replaying_the_bot_from_the_american_files_guesses_no_better_than_the_counts():
    """Fresh games (the secrets drawn from the operating system, as ``pbem new`` draws them): the replaying observer —
    the bot's seed-0 set-up and seed-0 moves, or each step seeded with its number — labels the markers after every
    Japanese player-turn no better than the counts (z < 3, dummy or real and identity).  In the control game, the bot
    seeded as before issue 35, the same observer names every marker he replays."""
    loaded = load_scenario(SCENARIO)
    tallies = {"seed 0": Tally(), "step number": Tally()}
    guessers = {"seed 0": lambda seq: 0, "step number": lambda seq: seq}
    markers = 0
    for n in range(GAMES):
        secret, game = commitment.new_secret(), f"leak{n:02d}" + "0" * 26
        record, jp = played(loaded, secret, game, lambda seq: blind_files.bot_seed(secret, game=game, seq=seq))
        assert record.findings == [], [str(f) for f in record.findings]
        for name, seed_of in guessers.items():
            markers += scored(loaded, record, jp, replaying_observer(loaded, record, seed_of), tallies[name])
    assert markers >= 20 * GAMES, markers  # every game scored its markers after each Japanese player-turn
    for name, tally in tallies.items():
        assert len(tally.games) == GAMES * JAPANESE_TURNS
        assert tally.z(0) < 3, f"the {name} observer tells dummies from units: {tally.accuracy(0)}"
        assert tally.z(1) < 3, f"the {name} observer names hidden units: {tally.accuracy(1)}"
    control = Tally()
    record, jp = played(loaded, bytes(32), "c" * 32, lambda seq: 0)
    scored(loaded, record, jp, replaying_observer(loaded, record, lambda seq: 0), control)
    observed, baseline, _, _ = control.accuracy(1)
    assert observed == 1.0 and baseline < 0.5, control.accuracy(1)

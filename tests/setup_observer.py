"""An observer who tries to read the Japanese secret set-up from public data (issue 19 item 1, issue 21).

He knows the public scenario file (the printed set-up, every unit's kind,
the map, the set-up zone of ``hidden_units``), the bot's published code,
and the American view of the first turn file (the markers, the units the
2d6 of intelligence exposed, the dummies it removed).  For every marker he
guesses what stands under it: a hidden unit's id or ``dummy``, each hidden
unit once and exactly as many dummies as there are (he can count them: the
markers minus the set-up units he has not seen).

Observers (each a function of the public data alone):

- ``printed``: the old attack — a marker on a printed hex is the unit
  printed there, the other units go to the nearest markers, the rest are
  dummies;
- ``terrain``: a unit holds the markers that hide best and lie nearest its
  printed hex; the markers in the poorest ground are the dummies;
- ``candidates``: candidate-set reasoning — each marker's possible pieces
  under the published rule (armor only where armor may set up, 5.25), then
  the labelling the constraints make most likely;
- ``learned``: he draws thousands of set-ups with the bot's own code and
  learns, for every hex, how often a dummy and each unit stood there; then
  he labels the markers by those frequencies.  This one finds any bias of
  the bot's draw, whatever it is.

The **baseline** knows only the counts: a labelling drawn uniformly at
random is right about a marker's dummy-or-real status with chance
(r² + d²)/n² per marker, and about its identity with chance (r + d²)/n²,
for r hidden units and d dummies among n markers.  If the set-up is secret
every observer's expected accuracy is exactly the baseline's.
"""

from __future__ import annotations

import math
import random
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Callable

from pbem.bot.play import bot_orders
from pbem.bot.selfplay import SeededDice
from pbem.bot.setup import draw_deployment
from pbem.loading.datafiles import LoadedScenario
from pbem.engine import hexes
from pbem.engine.deployment import SetupZone, setup_hexes
from pbem.engine.sequence import opening
from pbem.game.step import Step, genesis_step, play
from pbem.model.common import NOT_ON_MAP

DUMMY = "dummy"
HIDES = {"clear": 0, "town": 1, "broken": 1, "rough": 2, "mountain": 3}


@dataclass(frozen=True)
class Public:
    """What the observer reads: the scenario's printed set-up and the American view of turn file 1."""

    loaded: LoadedScenario
    printed: dict[str, str]  # unit -> printed hex
    kinds: dict[str, str]
    zone: SetupZone
    markers: list[str]  # the hexes of the hidden markers
    hidden_units: list[str]  # the set-up units not shown to him: each stands under one marker
    dummies: int  # how many markers are dummies (he counts them)


def public_of(loaded: LoadedScenario, us_view: dict) -> Public:
    opening_state = opening(loaded.scenario, hidden=True)
    printed = setup_hexes(opening_state)
    shown = {u["id"] for u in us_view["state"]["units"]}
    markers = sorted(u["id"] for u in us_view["state"]["units"] if u["kind"] == "hidden")
    hidden_units = sorted(u for u in printed if u not in shown)
    kinds = {u.id: u.kind for u in opening_state.units}
    return Public(loaded, printed, kinds, SetupZone.of(loaded.board, opening_state), markers, hidden_units,
                  len(markers) - len(hidden_units))


def truth_of(step: Step, markers: list[str]) -> dict[str, str]:
    """What stands under each marker, from the referee's position."""
    at = {where: u for u, where in step.state.locations.items() if where not in NOT_ON_MAP}
    units = step.state.unit_index()
    return {m: DUMMY if units[at[m]].is_dummy else at[m] for m in markers}


# -- the observers -------------------------------------------------------------------------------------------------

Labelling = dict[str, str]


def _label(public: Public, score: Callable[[str, str], float]) -> Labelling:
    """A consistent labelling: each hidden unit once, the rest dummies, the best-scoring (label, marker) pairs first."""
    pairs = sorted(((score(u, m), u, m) for u in [*public.hidden_units, DUMMY] for m in public.markers), reverse=True)
    left = Counter(public.hidden_units) + Counter({DUMMY: public.dummies})
    out: Labelling = {}
    for _score, label, marker in pairs:
        if marker not in out and left[label] > 0:
            out[marker] = label
            left[label] -= 1
    return out


def printed_observer(public: Public) -> Labelling:
    """A marker on a unit's printed hex is that unit; units to the nearest markers; the rest dummies."""
    def score(label: str, marker: str) -> float:
        if label == DUMMY:
            return -1.5 if marker not in public.printed.values() else -50
        return -hexes.distance(marker, public.printed[label])
    return _label(public, score)


def terrain_observer(public: Public) -> Labelling:
    """Units hold the ground that hides best, near their printed hexes; dummies the poorest ground."""
    board = public.loaded.board

    def hides(marker: str) -> int:
        return HIDES.get(board.terrain(marker).name, 1)

    def score(label: str, marker: str) -> float:
        if label == DUMMY:
            return -hides(marker) - 0.1
        return hides(marker) - 0.3 * hexes.distance(marker, public.printed[label])
    return _label(public, score)


def candidates_observer(public: Public) -> Labelling:
    """Only what the rule allows (armor keeps to its terrain, 5.25; a dummy never in a clear hex), then the labelling
    the constraints make likeliest: a marker few pieces could hold goes to one of them first."""
    possible = {m: [u for u in [*public.hidden_units, DUMMY] if _allowed(public, u, m)] for m in public.markers}

    def score(label: str, marker: str) -> float:
        if label not in possible[marker]:
            return -100
        holders = sum(1 for m in public.markers if label in possible[m])  # the fewer markers a label may take, the surer
        return (1 / len(possible[marker])) + (1 / holders) * (public.dummies if label == DUMMY else 1)
    return _label(public, score)


def _allowed(public: Public, label: str, marker: str) -> bool:
    if label == DUMMY:
        return not public.zone.limits_broken(marker, dummy=True)
    return not public.zone.limits_broken(marker, armor=public.kinds[label] == "armor")


@dataclass
class Learned:
    """Per hex, how often the bot's own draws put a dummy and each unit there."""

    seen: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))

    @classmethod
    def train(cls, loaded: LoadedScenario, draws: int, seed: int = 10_000, policy: str = "greedy") -> "Learned":
        state = opening(loaded.scenario, hidden=True)
        rng = random.Random(f"observer:{seed}")
        learned = cls()
        for _ in range(draws):
            deployment = draw_deployment(loaded.board, state, rng, plausible=policy != "random")
            for unit, where in deployment.units.items():
                learned.seen[where][unit] += 1
            for where in deployment.dummies:
                learned.seen[where][DUMMY] += 1
        return learned

    def observer(self, public: Public) -> Labelling:
        def score(label: str, marker: str) -> float:
            counts = self.seen.get(marker, Counter())
            total = sum(counts.values())
            labels = len(public.hidden_units) + public.dummies
            prior = (public.dummies if label == DUMMY else 1) / max(labels, 1)
            return (counts[label] + prior) / (total + 1)
        return _label(public, score)


OBSERVERS: dict[str, Callable[[Public], Labelling]] = {
    "printed": printed_observer,
    "terrain": terrain_observer,
    "candidates": candidates_observer,
}


# -- scoring -------------------------------------------------------------------------------------------------------

@dataclass
class Tally:
    """Right guesses and the baseline's expected right guesses, per game, for one observer."""

    games: list[tuple[int, int, float, float, int]] = field(default_factory=list)  # (dummy/real right, identity right, baseline of each, markers)

    def add(self, guess: Labelling, truth: dict[str, str], dummies: int) -> None:
        n = len(truth)
        if n == 0:
            return
        r = n - dummies
        status = sum((guess[m] == DUMMY) == (truth[m] == DUMMY) for m in truth)
        identity = sum(guess[m] == truth[m] for m in truth)
        self.games.append((status, identity, (r * r + dummies * dummies) / n, (r + dummies * dummies) / n, n))

    def accuracy(self, which: int) -> tuple[float, float, float, float]:
        """(observer, baseline, difference, half-width of the difference's 95% interval) for which=0 status, 1 identity."""
        markers = sum(g[4] for g in self.games)
        if not markers:  # no marker seen yet (a game whose first turn file showed none): nothing to tell
            return 0.0, 0.0, 0.0, 0.0
        right = sum(g[which] for g in self.games)
        expected = sum(g[2 + which] for g in self.games)
        diffs = [g[which] - g[2 + which] for g in self.games]
        mean = sum(diffs) / len(diffs)
        var = sum((d - mean) ** 2 for d in diffs) / max(len(diffs) - 1, 1)
        half = 1.96 * math.sqrt(var * len(diffs)) / markers
        return right / markers, expected / markers, (right - expected) / markers, half

    def z(self, which: int) -> float:
        """How many standard errors the observer stands above the baseline (0 on fewer than 5 games: too few to tell)."""
        if len(self.games) < 5:
            return 0.0
        _obs, _base, diff, half = self.accuracy(which)
        return diff / (half / 1.96) if half else (math.inf if diff > 0 else 0.0)


def wilson(right: float, n: int) -> tuple[float, float]:
    """The 95% Wilson interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p, z = right / n, 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


@dataclass
class Observation:
    tallies: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    learned: dict[tuple[str, str], Learned] = field(default_factory=dict)
    games: int = 0
    markers: int = 0
    dummies: int = 0

    def observe(self, loaded: LoadedScenario, first: Step, training: int = 300, policy: str = "greedy") -> None:
        """Every observer's guesses about turn file 1 of one game (``first``: the step after the secret set-up of
        the Japanese bot playing ``policy``, which the learned observer imitates)."""
        public = public_of(loaded, first.views["US"])
        truth = truth_of(first, public.markers)
        sid = (loaded.scenario.id, policy)
        if sid not in self.learned:
            self.learned[sid] = Learned.train(loaded, training, policy=policy)
        self.games += 1
        self.markers += len(truth)
        self.dummies += public.dummies
        for name, observer in [*OBSERVERS.items(), ("learned", self.learned[sid].observer)]:
            self.tallies[name].add(observer(public), truth, public.dummies)

    def strongest(self, which: int) -> tuple[str, Tally]:
        return max(self.tallies.items(), key=lambda item: item[1].accuracy(which)[0])

    def report(self) -> list[str]:
        lines = [f"set-up observer: {self.games} games, {self.markers} markers, {self.dummies} of them dummies"]
        for which, what in ((0, "dummy or real"), (1, "identity")):
            for name, tally in sorted(self.tallies.items()):
                obs, base, diff, half = tally.accuracy(which)
                low, high = wilson(obs * self.markers, self.markers)
                lines.append(f"  {what:<13} {name:<10} {obs:.3f} [{low:.3f}, {high:.3f}]  baseline {base:.3f}  "
                             f"difference {diff:+.3f} ± {half:.3f}")
        return lines


def first_step(loaded: LoadedScenario, seed: int, policy: str = "greedy") -> Step:
    """The referee's step after the Japanese bot's secret set-up and the 2d6 of intelligence (turn file 1)."""
    ruleset = loaded.scenario.ruleset.model_dump(mode="json")
    ref = {"id": loaded.scenario.id, "hash": "observer"}
    genesis = genesis_step(loaded, {}, game="observer", scenario_ref=ref, ruleset=ruleset, options=["hidden-units"])
    orders = bot_orders(genesis.views["JP"], loaded, policy, seed)
    return play(loaded, ruleset, genesis.state, orders, SeededDice(f"dice:{seed}"), game="observer", seq=1,
                scenario_ref=ref, source="bot")

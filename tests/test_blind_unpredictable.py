"""Hidden units with no referee: a secret set-up and bot moves no one can compute (issue 35, item 1).

The attack: the American player, from public data alone (the scenario, the genesis, pbem's own code), rebuilds the
set-up ``pbem new`` committed without ``--setup`` — once the greedy bot's draw with seed 0, the same every game —
and, with it, every move of a Japanese player who lets ``blind next --bot`` play.  Now every bot draw of a side is
seeded from that side's per-game secret (:func:`pbem.game.modes.blind.files.bot_seed`)."""

from __future__ import annotations

import json
import os

import pytest

from pbem.bot.play import bot_orders
from pbem.engine.deployment import apply_deployment
from pbem.bot.selfplay import SeededDice
from pbem.game.modes.blind import files as blind_files
from pbem.game.modes.blind.exposure import pieces
from pbem.game.step import genesis_step, play
from pbem.loading.datafiles import load_scenario, orders_from
from pbem.protocol.keys import generate
from tests.setup_observer import DUMMY, Observation, Public, _label, public_of, truth_of

SCENARIOS = ["test-skirmish", "leyte-assault", "leyte-mountain-barrier", "leyte-final-collapse"]
GAMES = int(os.environ.get("PBEM_OBSERVER_GAMES", "8"))  # fresh games per scenario


def fresh_genesis(scenario: str) -> tuple[dict, dict]:
    """A fresh game's genesis body and the Japanese private file, as ``pbem new … --no-referee --option hidden-units``
    without ``--setup`` writes them (real keys, a real per-game secret)."""
    from pbem.protocol import blindfile

    jp, us = generate("jp"), generate("us")
    text, private = blind_files.start(scenario, jp, us.public, jp.public, setup=None)
    return blindfile.read(text, "blind-0000-JP.pbem").body, private


def american_rebuild(body: dict, seed: int = 0) -> dict:
    """The set-up the American player computes from the public genesis: pbem's default bot draw with a seed he guesses."""
    loaded = load_scenario(body["scenario"]["id"])
    ruleset = loaded.scenario.ruleset.model_dump(mode="json") | {"edition": body["edition"]}
    genesis = genesis_step(loaded, {}, game=body["game"], scenario_ref=body["scenario"], ruleset=ruleset,
                           options=["hidden-units"])
    return bot_orders(genesis.views["JP"], loaded, "greedy", seed)


def placed(scenario: str, orders: dict) -> dict[str, dict]:
    loaded = load_scenario(scenario)
    genesis = genesis_step(loaded, {}, game="g", scenario_ref={"id": scenario, "hash": "h"},
                           ruleset=loaded.scenario.ruleset.model_dump(mode="json"), options=["hidden-units"])
    return pieces(apply_deployment(genesis.state, orders_from(orders, "set-up")))


@pytest.mark.parametrize("scenario", ["leyte-assault", "test-skirmish"])
def test_the_default_set_up_of_pbem_new_is_not_the_one_the_american_can_compute(scenario):
    """Issue 35 item 1: three fresh games, three set-ups, none the one the American player rebuilds with seed 0 (on
    the old code all three were that one, 16/16 markers on leyte-assault)."""
    drawn = []
    for _ in range(3):
        body, private = fresh_genesis(scenario)
        committed = placed(scenario, private["orders"]["1"])
        assert sorted(committed) == sorted(body["setup"]["markers"])
        assert committed != placed(scenario, american_rebuild(body)), "the American rebuilt the secret set-up"
        drawn.append(json.dumps(committed, sort_keys=True))
    assert len(set(drawn)) == 3


def test_every_bot_draw_of_the_files_is_seeded_from_the_players_own_secret(tmp_path, monkeypatch):
    """``blind next --bot`` (and ``pbem new``'s set-up) seed the bot from the writer's per-game secret, never 0: a
    hidden side's bot moves are no function of public data (issue 35 item 1)."""
    import pbem.bot.play as play_module
    from tests.blind_games import begin, step

    seeds: list[tuple[str, int]] = []
    real = play_module.bot_orders

    def recording(view, loaded, policy="greedy", seed=0, think=None):
        seeds.append((view.get("side"), seed))
        return real(view, loaded, policy, seed, think)

    monkeypatch.setattr(play_module, "bot_orders", recording)
    players = begin(tmp_path)
    for _ in range(6):
        step(players)
    jp_private = json.loads((players["JP"].game / "blind-private-JP.json").read_text())
    from pbem.protocol.canonical import b64d

    secret = b64d(jp_private["secret"])
    game = json.loads(json.dumps(blind_files.load(players["US"].game).game))
    jp_seeds = [s for side, s in seeds if side == "JP"]
    assert jp_seeds and 0 not in jp_seeds and len(set(jp_seeds)) == len(jp_seeds)
    assert jp_seeds[0] == blind_files.bot_seed(secret, game=game, seq=1)  # the set-up, pbem new's
    assert {s for side, s in seeds if side == "US"} and 0 not in {s for side, s in seeds if side == "US"}


def replay_observer(body: dict):
    """The issue's attacker: he labels every marker by the set-up pbem's default draw gives with seed 0."""
    rebuilt = placed(body["scenario"]["id"], american_rebuild(body))

    def observe(public: Public):
        def score(label: str, marker: str) -> float:
            piece = rebuilt.get(marker)
            guess = None if piece is None else DUMMY if piece.get("kind") == "dummy" else piece.get("id")
            return 1.0 if guess == label else 0.0
        return _label(public, score)
    return observe


def test_an_observer_with_only_the_american_files_guesses_fresh_set_ups_no_better_than_the_counts():
    """Issue 35, done-when: over fresh games without --setup (the Japanese set-up the bot's, as ``pbem new`` and
    ``--bot`` draw it), every observer of tests/setup_observer.py and the replaying attacker guess the identities under
    the markers of the first American view no better than one who knows only the counts (z < 3).  On the old code
    the replaying attacker named every marker."""
    observation = Observation()
    for scenario in SCENARIOS:
        loaded = load_scenario(scenario)
        for n in range(GAMES):
            body, private = fresh_genesis(scenario)
            ruleset = loaded.scenario.ruleset.model_dump(mode="json")
            genesis = genesis_step(loaded, {}, game=body["game"], scenario_ref=body["scenario"], ruleset=ruleset,
                                   options=["hidden-units"])
            first = play(loaded, ruleset, genesis.state, private["orders"]["1"], SeededDice(f"dice:{n}"),
                         game=body["game"], seq=1, scenario_ref=body["scenario"], source="set-up")
            observation.observe(loaded, first, training=200)
            public = public_of(loaded, first.views["US"])
            observation.tallies["replay"].add(replay_observer(body)(public), truth_of(first, public.markers), public.dummies)
    report = "\n".join(observation.report())
    assert observation.games == GAMES * len(SCENARIOS)
    for name, tally in observation.tallies.items():
        assert tally.z(0) < 3, f"{name} tells dummies from units:\n{report}"
        assert tally.z(1) < 3, f"{name} names hidden units:\n{report}"

"""What a step exposes under hidden units with no referee equals what the refereed American view exposes
(pbem/game/modes/blind/exposure.py; 19B.3, 19B.4, 19B.6, 19B.7)."""

from __future__ import annotations

from collections import Counter

import pytest

from pbem.bot.selfplay import play_out
from pbem.loading.datafiles import load_scenario, orders_from
from pbem.engine.deployment import apply_deployment
from pbem.game.modes.blind.exposure import exposure, hidden_markers, pieces
from pbem.model.common import ELIMINATED
from pbem.protocol.canonical import canonical_bytes
from tests.leak_scan import may_know, without_final_report

GAMES = [("test-skirmish", ("greedy", "greedy"), s) for s in range(4)] + \
        [("test-skirmish", ("random", "greedy"), s) for s in range(4, 8)] + [("leyte-assault", ("greedy", "greedy"), 1)]


def played(name, policies, seed):
    loaded = load_scenario(name)
    game = play_out(loaded, {"US": policies[0], "JP": policies[1]}, seed=seed, options=["hidden-units"])
    return loaded, game


def steps_of(loaded, game):
    """(before, step, side) for every step; the set-up's before is the deployed position the Japanese player commits to."""
    for i, step in enumerate(game.steps[1:], 1):
        before = game.steps[i - 1].state
        side = step.last["side"]
        if not before.hidden.deployed:
            before, side = apply_deployment(before, orders_from(game.orders[0], "set-up")), "setup"
        yield i, before, step, side


def jp_ids_in(document, real: set[str]) -> set[str]:
    text = canonical_bytes(document).decode()
    return {u for u in real if f'"{u}"' in text}


@pytest.mark.parametrize("name,policies,seed", GAMES)
def test_the_openings_are_what_the_refereed_american_view_exposes(name, policies, seed):
    loaded, game = played(name, policies, seed)
    real = {u.id for step in game.steps for u in step.state.units if u.side == "JP" and not u.is_dummy}
    for i, before, step, side in steps_of(loaded, game):
        after, events, view = step.state, step.last["events"], step.views["US"]
        found = exposure(loaded.board, before, after, events, side)
        eliminated = {u for u in real if after.locations.get(u) == ELIMINATED}
        known_before = {u for u in real if before.locations.get(u) == ELIMINATED or u in before.hidden.exposed}
        told = (found.identities | known_before | eliminated) & real
        # an independent reading of the rules (the leak scan's) and the bytes of the refereed American view agree
        assert told - known_before == (may_know(loaded.board, after, events) | known_before) - known_before, (i, side)
        # the final victory report (15.4) names the units that score, hidden or not (docs/hidden-units.md)
        in_view = jp_ids_in(without_final_report(view) if step.over else view, real)
        assert found.identities & real <= in_view, (i, side)
        assert in_view - (found.identities | known_before | eliminated) == set(), (i, side)
        dummies = [u for u in found.identities if u not in real]
        assert len(dummies) == sum(e["type"] == "dummy_removed" for e in view["last"]["events"]), (i, side)
        # each opening stands where the American player sees it: a marker before, the unit after
        markers_before = hidden_markers(before)
        for hex_id, unit in found.before.items():
            assert markers_before[hex_id] == unit
        shown = {u["id"]: view["state"]["locations"][u["id"]] for u in view["state"]["units"]}
        for hex_id, unit in found.after.items():
            assert shown[unit] == hex_id and pieces(after)[hex_id]["id"] == unit
        if side in ("US", "setup"):
            assert not found.claims, (i, side, found.claims)


def test_bot_games_reach_every_kind_of_opening():
    """The comparison above is not vacuous: the games hold each kind of exposure."""
    kinds = Counter()
    for name, policies, seed in GAMES:
        loaded, game = played(name, policies, seed)
        for i, before, step, side in steps_of(loaded, game):
            found = exposure(loaded.board, before, step.state, step.last["events"], side)
            types = {e["type"] for e in step.last["events"]}
            if side == "US" and found.before and "combat" in types:
                kinds["American combat on a marker"] += 1
            if side == "setup" and found.before:
                kinds["intelligence after the set-up"] += 1
            if any(before.unit(u).is_dummy for u in found.before.values()):
                kinds["dummy opened"] += 1
            if side == "JP" and found.claims:
                kinds["Japanese claim"] += 1
            if found.after:
                kinds["standing exposed"] += 1
    assert set(kinds) == {"American combat on a marker", "intelligence after the set-up", "dummy opened",
                          "Japanese claim", "standing exposed"}, kinds

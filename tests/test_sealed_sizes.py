"""Every length in a turn file is chosen from public data only (issue 19 item 5, docs/PROTOCOL.md).

Twin games that differ only in hidden identities — which unit stands under
a marker, and where the dummies are — must give turn files of the very same
lengths: each sealed view, the sealed referee state and the whole armoured
file (``tests/size_twins.py`` builds and compares them).
"""

from __future__ import annotations

import pytest

from pbem.bot.selfplay import play_out
from pbem.loading.datafiles import load_scenario
from pbem.game.sizes import sealed_bucket
from pbem.protocol.canonical import canonical_bytes
from pbem.protocol.dice import new_seed
from pbem.protocol.sealing import sealed_length
from pbem.protocol.turnfile import build_turn, new_game_id
from tests import size_twins
from tests.leak_scan import HIDDEN_UNITS, Scan


@pytest.fixture(scope="module")
def parties():
    return size_twins.parties()


# test-skirmish seed 6: a game whose steps still hold two hidden units once its dummies move (issue 21)
@pytest.mark.parametrize("scenario,seed", [("leyte-assault", 1), ("test-skirmish", 6), ("leyte-final-collapse", 3)])
def test_twin_games_differing_only_in_hidden_identities_give_turn_files_of_the_same_lengths(parties, scenario, seed):
    loaded = load_scenario(scenario)
    game = play_out(loaded, {"US": "greedy", "JP": "greedy"}, seed=seed, options=HIDDEN_UNITS)
    scan, game_id, before = Scan(), new_game_id(), None
    for seq, step in enumerate(game.steps):
        size_twins.check_sizes(scan, f"{scenario} step {seq}", parties, loaded, step, before, seq, game_id)
        before = step.state
    assert scan.leaks == [] and scan.growths == 0
    assert scan.size_twins >= 3


def test_a_twin_with_a_different_referee_state_is_compared(parties):
    """The comparison is not empty: the twins' Japanese views and referee states differ, and only their lengths agree."""
    loaded = load_scenario("leyte-assault")
    step = play_out(loaded, {"US": "greedy", "JP": "greedy"}, seed=1, options=HIDDEN_UNITS).steps[1]
    a, b = size_twins.pairs_to_trade(step)[-1]
    other = size_twins.twin(loaded, step, None, 1, a, b)
    assert canonical_bytes(other.views["US"]) == canonical_bytes(step.views["US"])
    assert canonical_bytes(other.referee_state) != canonical_bytes(step.referee_state)
    assert canonical_bytes(other.views["JP"]) != canonical_bytes(step.views["JP"])


def test_the_sealed_size_is_fixed_per_game_from_the_scenario_and_grows_only_in_public_steps(parties):
    assault, collapse = load_scenario("leyte-assault").scenario, load_scenario("leyte-final-collapse").scenario
    size = sealed_bucket(assault, hidden=True, previous=None)
    assert size == sealed_bucket(assault, hidden=True, previous=None) and size & (size - 1) == 0
    assert sealed_bucket(collapse, hidden=True, previous=None) >= size
    # a file whose sealed parts grew past the size fixes the size of every later file (its length is public)
    loaded = load_scenario("leyte-assault")
    step = play_out(loaded, {"US": "greedy", "JP": "greedy"}, seed=0, options=HIDDEN_UNITS).steps[0]
    grown = build_turn(parties["referee"], game=new_game_id(), seq=0, scenario={"id": "leyte-assault", "hash": size_twins.SCENARIO_HASH},
                       ruleset={"edition": "dg-2009", "options": HIDDEN_UNITS}, identities={r: p.public for r, p in parties.items()},
                       public=step.public, views=step.views, referee_state=step.referee_state, next_seed=new_seed(), min_bucket=4 * size)
    assert size_twins.lengths(grown)[:3] == (sealed_length(4 * size),) * 3
    assert sealed_bucket(assault, hidden=True, previous=grown) == 4 * size

"""Every length in a turn file is chosen from public data only (issue 19 item 5, docs/PROTOCOL.md).

Twin games that differ only in hidden identities — which unit stands under
a marker, and where the dummies are — must give turn files of the very same
lengths: each sealed view, the sealed referee state and the whole armoured
file.  The twins here are built the way ``tests/leak_scan.py`` trades
identities: in the referee's position, the position before and the events;
the American view and the public record stay the same, while the Japanese
view and the referee's state change.
"""

from __future__ import annotations

import pytest

from pbem.bot.selfplay import play_out
from pbem.datafiles import load_scenario
from pbem.game.codec import state_from_json, state_to_json
from pbem.game.referee import record_step
from pbem.game.sizes import sealed_bucket
from pbem.protocol import keys
from pbem.protocol.canonical import canonical_bytes
from pbem.protocol.dice import new_seed
from pbem.protocol.sealing import sealed_length
from pbem.protocol.turnfile import build_turn, new_game_id
from tests.leak_scan import HIDDEN_UNITS, _rename


@pytest.fixture(scope="module")
def parties():
    return {"US": keys.generate("us"), "JP": keys.generate("jp"), "referee": keys.generate("ref")}


def built(parties, loaded, step, game: str, seq: int):
    """The turn file the referee would write for ``step`` (as a first file: the chain does not change any length)."""
    return build_turn(parties["referee"], game=game, seq=0, scenario={"id": loaded.scenario.id, "hash": "sha256:" + "ab" * 32},
                      ruleset={"edition": "dg-2009", "options": HIDDEN_UNITS}, identities={r: p.public for r, p in parties.items()},
                      public=step.public, views=step.views, referee_state=step.referee_state, next_seed=new_seed(),
                      min_bucket=sealed_bucket(loaded.scenario, hidden=True, previous=None))


def twin(loaded, step, before, seq: int, a: str, b: str):
    """``step`` with the identities of ``a`` and ``b`` traded everywhere the referee holds them."""
    swap = {a: b, b: a}
    state = state_from_json(_rename(state_to_json(step.state), swap))
    earlier = state_from_json(_rename(state_to_json(before), swap)) if before is not None else None
    last = _rename(step.last, swap) if step.last is not None else None
    ref = {"id": loaded.scenario.id, "hash": "selfplay"}
    return record_step(state, game="selfplay", seq=seq, scenario_ref=ref, ruleset=step.views["US"]["ruleset"], over=step.over,
                       last=last, loaded=loaded, before=earlier, extra_public={k: v for k, v in step.public.items()
                                                                                   if k in ("title", "scenario_document", "options")})


def lengths(turn) -> tuple[int, int, int, int]:
    return len(turn.views["US"]), len(turn.views["JP"]), len(turn.referee_state), len(turn.text)


@pytest.mark.parametrize("scenario,seed", [("leyte-assault", 1), ("test-skirmish", 2), ("leyte-final-collapse", 3)])
def test_twin_games_differing_only_in_hidden_identities_give_turn_files_of_the_same_lengths(parties, scenario, seed):
    loaded = load_scenario(scenario)
    game = play_out(loaded, {"US": "greedy", "JP": "greedy"}, seed=seed, options=HIDDEN_UNITS)
    game_id = new_game_id()
    compared = 0
    before = None
    for seq, step in enumerate(game.steps):
        truth = step.state
        hidden = sorted(u.id for u in truth.units if u.side == "JP" and truth.on_map(u.id) and u.id not in truth.hidden.exposed)
        dummies = [u for u in hidden if truth.unit(u).is_dummy]
        reals = [u for u in hidden if u not in dummies]
        pairs = [p for p in [(reals[0], reals[-1]) if len(reals) > 1 else None, (dummies[0], reals[0]) if dummies and reals else None] if p]
        for a, b in pairs[:1] if seq % 3 else pairs:  # every few steps both kinds of twin, else one
            other = twin(loaded, step, before, seq, a, b)
            if canonical_bytes(other.views["US"]) != canonical_bytes(step.views["US"]) or other.public != step.public:
                continue  # not a twin: the American player can tell them apart (a combat fought with them)
            assert canonical_bytes(other.referee_state) != canonical_bytes(step.referee_state)
            first, second = built(parties, loaded, step, game_id, seq), built(parties, loaded, other, game_id, seq)
            assert lengths(first) == lengths(second), f"{scenario} step {seq}: {a} and {b} traded change the lengths"
            compared += 1
        before = step.state
    assert compared >= 3


def test_the_sealed_size_is_fixed_per_game_from_the_scenario_and_grows_only_in_public_steps(parties):
    assault, collapse = load_scenario("leyte-assault").scenario, load_scenario("leyte-final-collapse").scenario
    size = sealed_bucket(assault, hidden=True, previous=None)
    assert size == sealed_bucket(assault, hidden=True, previous=None) and size & (size - 1) == 0
    assert sealed_bucket(collapse, hidden=True, previous=None) >= size
    # a file whose sealed parts grew past the size fixes the size of every later file (its length is public)
    loaded = load_scenario("leyte-assault")
    step = play_out(loaded, {"US": "greedy", "JP": "greedy"}, seed=0, options=HIDDEN_UNITS).steps[0]
    grown = build_turn(parties["referee"], game=new_game_id(), seq=0, scenario={"id": "leyte-assault", "hash": "sha256:" + "ab" * 32},
                       ruleset={"edition": "dg-2009", "options": HIDDEN_UNITS}, identities={r: p.public for r, p in parties.items()},
                       public=step.public, views=step.views, referee_state=step.referee_state, next_seed=new_seed(), min_bucket=4 * size)
    assert lengths(grown)[:3] == (sealed_length(4 * size),) * 3
    assert sealed_bucket(assault, hidden=True, previous=grown) == 4 * size

"""Soak: many whole games bot against bot through the protocol — keys, signed and sealed files, verify, audit.

Every game must end, every turn file verify (signatures, hash chain, seeds,
rolls, the players' receipts) and every adjudication replay exactly in the
audit.  Both policies, both editions, different seeds, the three Leyte
scenarios.
"""

from __future__ import annotations

import itertools

import pytest

from pbem.bot.demo import run_demo
from pbem.loading.folder import turn_name

SCENARIOS = ["leyte-assault", "leyte-mountain-barrier", "leyte-final-collapse"]
"""The 24 games play each of them with every pairing and edition."""
POLICIES = [("greedy", "greedy"), ("random", "random"), ("greedy", "random"), ("random", "greedy")]
EDITIONS = ["dg-2009", "spi-1975"]
GAMES = [
    (scenario, us, jp, edition, seed)
    for seed, (scenario, (us, jp), edition) in enumerate(itertools.product(SCENARIOS * 3, POLICIES, EDITIONS))
][:24]


def test_the_soak_is_big_enough():
    assert len(GAMES) >= 20
    assert {e for *_, e, _ in GAMES} == set(EDITIONS)
    assert {(us, jp) for _, us, jp, *_ in GAMES} == set(POLICIES)
    assert {s for s, *_ in GAMES} == set(SCENARIOS)


@pytest.mark.parametrize("scenario,us,jp,edition,seed", GAMES)
def test_a_bot_game_ends_verifies_and_audits(tmp_path, scenario, us, jp, edition, seed):
    result = run_demo(scenario, tmp_path / "demo", seed=seed, edition=edition, policies={"US": us, "JP": jp})
    assert result.player_turns >= 8
    last = result.game / turn_name(result.player_turns)
    assert last.exists() and not (result.game / turn_name(result.player_turns + 1)).exists()
    assert result.verify_findings == []
    assert result.audit.ok, [f.render() for f in result.audit.findings]
    assert result.audit.replayed == result.player_turns
    assert result.audit.views_checked == 2 * (result.player_turns + 1)
    assert result.report.winner in ("US", "JP", None)

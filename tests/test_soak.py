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
POLICIES = [("greedy", "greedy"), ("random", "random"), ("greedy", "random"), ("random", "greedy")]
EDITIONS = ["dg-2009", "spi-1975"]
GAMES = [
    (SCENARIOS[seed % 3], *POLICIES[seed % 4], EDITIONS[seed // 4 % 2], seed) for seed in range(12)
]
"""Twelve games: every pairing in both editions, each scenario under every pairing (its seeds differ).  Sized to what
the suite proves on each change; ``benchmarks/soak.py --games N`` soaks as long as wanted."""


def test_the_soak_is_big_enough():
    assert len(GAMES) >= 12
    assert {(us, jp, e) for _, us, jp, e, _ in GAMES} == {(us, jp, e) for (us, jp) in POLICIES for e in EDITIONS}
    assert {(s, (us, jp)) for s, us, jp, *_ in GAMES} == set(itertools.product(SCENARIOS, POLICIES))


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

"""Banzai losses (10.0-10.1, I14): the price of a massed infantry attack.

After the result is applied the Japanese side gives up units whose printed
attack strength totals at least the printed defense of the American
defenders: infantry and engineers first, then armor, then adjacent
artillery (at barrage strength), never barraging artillery (10.12, 10.13).
In dg-2009 the system chooses, within each group, the fewest units that
cover what is still owed (then the smallest total, then the earliest in the
attack's listing).  In spi-1975 the player's ``banzai_losses`` list is taken
in its order until the debt is covered; an entry that would break 10.12's
group order (armor while infantry or engineers are left, say) is dropped,
for good, and the dg-2009 rule takes whatever the list leaves owed (I14).
"""

from __future__ import annotations

from itertools import combinations

from pbem.engine.engagement import BANZAI_KINDS, Engagement
from pbem.engine.phase_state import CombatPhaseState


def _value(state: CombatPhaseState, unit_id: str) -> int:
    unit = state.units[unit_id]
    return unit.barrage if unit.is_artillery else unit.attack


def _fewest_covering(state: CombatPhaseState, group: list[str], owed: int, position: dict[str, int]) -> list[str]:
    """The fewest units of ``group`` whose values reach ``owed``; ties: smallest total, earliest listing."""
    best = None
    for size in range(1, len(group) + 1):
        for combo in combinations(group, size):
            total = sum(_value(state, u) for u in combo)
            if total < owed:
                continue
            key = (total, sorted(position[u] for u in combo))
            if best is None or key < best[0]:
                best = (key, list(combo))
        if best is not None:
            return best[1]
    return list(group)


def _players_choice(state: CombatPhaseState, choice: list[str], groups: list[list[str]], owed: int) -> list[str]:
    """spi-1975: the player's list in its order until the debt is covered, out-of-order entries dropped (I14)."""
    lost: list[str] = []
    for u in choice:
        if owed <= 0:
            break
        group = next((g for g, members in enumerate(groups) if u in members), None)
        if group is None or u in lost:
            continue  # not a candidate: barraging artillery, off the board, not in this attack
        if any(v not in lost for earlier in groups[:group] for v in earlier):
            continue  # 10.12: an earlier group still has units to give up
        lost.append(u)
        owed -= _value(state, u)
    return lost


def banzai_losses(state: CombatPhaseState, e: Engagement) -> list[str]:
    """The Japanese units lost to a Banzai attack, in the order they are removed."""
    owed = sum(state.units[d].defense for d in e.defenders)
    listing = e.attack.attackers + e.attack.barrage
    position = {u: i for i, u in reversed(list(enumerate(listing)))}
    on_board = [u for u in e.adjacent if state.placement.on_map(u)]
    groups = [
        [u for u in on_board if state.units[u].kind in BANZAI_KINDS],
        [u for u in on_board if state.units[u].kind == "armor"],
        [u for u in on_board if state.units[u].is_artillery],
    ]
    lost: list[str] = [] if state.ruleset.dg else _players_choice(state, e.attack.banzai_losses, groups, owed)
    owed -= sum(_value(state, u) for u in lost)
    for group in groups:
        if owed <= 0:
            break
        remaining = [u for u in group if u not in lost]
        if owed <= 0 or not remaining:
            continue
        total = sum(_value(state, u) for u in remaining)
        if total < owed:
            lost.extend(remaining)
            owed -= total
            continue
        lost.extend(_fewest_covering(state, remaining, owed, position))
        owed = 0
    return lost

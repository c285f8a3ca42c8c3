"""One attack as it stands just before its die is rolled: who fights, at what strengths, on which line.

Used twice: to resolve the attack, and by the FPF policy to look ahead at the
attacks still to come.  Strengths follow I4, the terrain line I3 (7.42-7.45,
8.62), artillery-only attacks I5 (8.15, 8.45), cancellation I9 (7.83).
"""

from __future__ import annotations

from dataclasses import dataclass

from pbem.engine import hexes
from pbem.engine.phase_state import CombatPhaseState
from pbem.engine.terrain import LINE_RANK
from pbem.model.orders import Attack

BANZAI_KINDS = ("infantry", "engineer")


@dataclass(frozen=True)
class Engagement:
    index: int
    attack: Attack
    defenders: tuple[str, ...]
    adjacent: tuple[str, ...]
    """Attacking units adjacent to the defenders, adjacent artillery included: they suffer A-results (8.33)."""
    barraging: tuple[str, ...]
    attack_strength: int
    base_defense: int
    artillery_only: bool
    """Only D2, D3 and De affect the defenders (8.15, I5)."""
    fpf_allowed: bool
    """At least one non-artillery unit attacks (8.45)."""
    line: str
    banzai: bool


def may_still_attack(state: CombatPhaseState, unit_id: str, defenders: tuple[str, ...]) -> bool:
    """I9 and I7: eliminated, retreated or advanced units attack no more; displaced
    artillery never fires; another displaced unit attacks if it still touches every defender."""
    if not state.placement.on_map(unit_id) or unit_id in state.moved:
        return False
    if unit_id in state.displaced:
        if state.units[unit_id].is_artillery:
            # A unit attacks once per phase (7.14), so artillery listed in a
            # later attack has not fired yet: displaced, it may not (7.82).
            return False
        here = state.placement.where(unit_id)
        return all(hexes.adjacent(here, state.placement.where(d)) for d in defenders)
    return True


def cancellation(state: CombatPhaseState, attack: Attack) -> str | None:
    """Why this attack may not take place now, or None (I9, 7.83; 19B.6 for an attack on dummies alone)."""
    if state.dummies_removed and all(d in state.dummies_removed for d in attack.defenders):
        where = sorted({state.dummies_removed[d] for d in attack.defenders})
        if len(where) == 1:
            return f"the unit in {where[0]} was a dummy, exposed and removed (19B.6)"
        return f"the units in {', '.join(where[:-1])} and {where[-1]} were dummies, exposed and removed (19B.6)"
    for d in attack.defenders:
        if state.placement.where(d) != state.start_hex.get(d):
            return f"{d} no longer stands in {state.start_hex.get(d)}"
    listed = attack.attackers + attack.barrage
    if listed and not any(may_still_attack(state, u, tuple(attack.defenders)) for u in listed):
        return "no listed attacker may still attack"
    return None


def defender_line(state: CombatPhaseState, defender: str, adjacent_non_artillery: tuple[str, ...]) -> str:
    """The CRT line one defender benefits from (I3, 7.42, 7.44, 8.62)."""
    here = state.placement.where(defender)
    line = state.board.terrain(here).crt
    if adjacent_non_artillery and all(
        state.board.river_between(state.placement.where(a), here) for a in adjacent_non_artillery
    ):
        if LINE_RANK["river"] > LINE_RANK[line]:
            line = "river"
    return line


def engage(state: CombatPhaseState, index: int, attack: Attack) -> Engagement:
    """Work out an attack's figures on the current position (it must not be cancelled)."""
    defenders = tuple(attack.defenders)
    able = [u for u in attack.attackers + attack.barrage if may_still_attack(state, u, defenders)]
    adjacent, barraging = [], []
    for u in able:
        here = state.placement.where(u)
        if any(hexes.adjacent(here, state.placement.where(d)) for d in defenders):
            adjacent.append(u)
        else:
            barraging.append(u)
    adjacent_non_artillery = tuple(u for u in adjacent if not state.units[u].is_artillery)
    banzai = attack.banzai and state.phasing == "JP"
    strength = attack.gsp
    for u in adjacent + barraging:
        unit = state.units[u]
        if unit.is_artillery:
            strength += unit.barrage
        else:
            doubled = banzai and unit.kind in BANZAI_KINDS
            strength += unit.attack * (2 if doubled else 1)
    base_defense = sum(state.units[d].defense for d in defenders)
    if state.ruleset.dg:
        artillery_only = not adjacent
    else:
        artillery_only = not adjacent_non_artillery
    line = max((defender_line(state, d, adjacent_non_artillery) for d in defenders), key=LINE_RANK.__getitem__)
    return Engagement(
        index=index,
        attack=attack,
        defenders=defenders,
        adjacent=tuple(adjacent),
        barraging=tuple(barraging),
        attack_strength=strength,
        base_defense=base_defense,
        artillery_only=artillery_only,
        fpf_allowed=bool(adjacent_non_artillery),
        line=line,
        banzai=banzai,
    )


def tenacity_applies(state: CombatPhaseState, unit_id: str) -> bool:
    """Leyte 14.1 (I15): a Japanese unit defending in or attacking from rough or mountain."""
    if not state.ruleset.leyte or state.units[unit_id].side != "JP":
        return False
    return state.board.rough_or_mountain(state.placement.where(unit_id))


class Lookahead:
    """Every attack of a combat phase as it stands now, for resolving it and for the FPF policy's look ahead.

    An attack's figures and whether it is cancelled depend only on where its
    own listed units and defenders stand and whether they have moved or been
    displaced (I9) — and a unit is marked moved or displaced only as it
    moves.  So each attack is worked out again only when one of its units
    appears in the placement's record of changes since it was last worked out.
    """

    def __init__(self, state: CombatPhaseState, attacks: list[Attack]) -> None:
        self.state = state
        self.numbered = list(enumerate(attacks, 1))
        self._memo: dict[int, Engagement | str] = {}
        self._attacks_of: dict[str, list[int]] = {}
        for index, attack in self.numbered:
            for u in {*attack.attackers, *attack.barrage, *attack.defenders}:
                self._attacks_of.setdefault(u, []).append(index)
        self._seen = len(state.placement.changes)

    def _catch_up(self) -> None:
        """Forget the figures of every attack one of whose units moved since the last look."""
        changes = self.state.placement.changes
        for u in changes[self._seen:]:
            for index in self._attacks_of.get(u, ()):
                self._memo.pop(index, None)
        self._seen = len(changes)

    def standing(self, index: int) -> Engagement | str:
        """Attack ``index`` (from 1) now: its engagement, or why it is cancelled."""
        self._catch_up()
        found = self._memo.get(index)
        if found is None:
            attack = self.numbered[index - 1][1]
            found = self._memo[index] = cancellation(self.state, attack) or engage(self.state, index, attack)
        return found

    def upcoming(self, index: int) -> list[Engagement]:
        """The attacks after ``index`` that would still take place on the position as it is now."""
        later = (self.standing(j) for j, _ in self.numbered[index:])
        return [e for e in later if isinstance(e, Engagement)]

"""Final Protective Fire (8.4) and Ground Support given as FPF (9.0), with Leyte's limits (13.1).

Who may fire (I12): a non-phasing artillery unit, once per enemy combat
phase, at a defender within its range, when at that moment it is not
adjacent to an enemy unit, has not been displaced, was not made to retreat
as a defender earlier this phase, and did not suffer a combat result in the
previous combat phase (``no_fpf``).  No FPF at all against an attack made
only by artillery and/or Ground Support (8.45).  Under Leyte, one artillery
unit per attacked hex (13.11) and never Ground Support as FPF (13.13).

Who decides: the defending player's standing choices (the ``defense``
block) when written down, entry by entry in order, an illegal entry dropped
without using up its artillery; else the system's policy
(docs/policies.md): FPF goes where it improves the defender's expected
result most, looking at this attack and those still to come.
"""

from __future__ import annotations

from bisect import insort
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable

from pbem.engine import crt, events, hexes
from pbem.engine.engagement import Engagement, tenacity_applies
from pbem.engine.phase_state import CombatPhaseState
from pbem.engine.retreat import PLAYER, SYSTEM

# How good each table entry is for the defender, for weighing FPF.
_DEFENDER_VALUE = {"De": -6, "D3": -3, "D2": -2, "D1": -1, "-": 0, "A1": 1, "A2": 2, "A3": 3, "Ae": 6}


@dataclass
class FpfAllotment:
    """FPF given to one combat: artillery (unit, defender) pairs and GSP points."""

    artillery: list[tuple[str, str]] = field(default_factory=list)
    gsp: list[tuple[str, int]] = field(default_factory=list)

    def strength(self, state: CombatPhaseState) -> int:
        return sum(state.units[a].fpf for a, _ in self.artillery) + sum(p for _, p in self.gsp)


def may_give_fpf(state: CombatPhaseState, artillery: str, defender: str) -> bool:
    """I12, 8.41, 8.42: may this artillery unit give FPF to this defender now?"""
    if not _ready(state, artillery) or not state.placement.on_map(defender):
        return False
    return _in_range(state, artillery, defender)


def _ready(state: CombatPhaseState, artillery: str) -> bool:
    """Everything of I12 but the range: the defending side's artillery, on the map, free to fire."""
    unit = state.units.get(artillery)
    if unit is None or not unit.is_artillery or unit.side != state.defending_side:
        return False
    return bool(_free(state, (artillery,)))


def _free(state: CombatPhaseState, guns) -> set[str]:
    """Which of the defending side's ``guns`` may fire FPF now, range aside (I12, 8.41, 8.42):
    on the map, not yet fired, not displaced, not made to retreat, not hit last phase, no enemy adjacent."""
    placement, side = state.placement, state.defending_side
    spent = state.fpf_used | state.displaced | state.no_fpf | state.forced_to_retreat
    return {a for a in guns if a not in spent and placement.on_map(a) and not placement.in_enemy_zoc(placement.where(a), side)}


def _in_range(state: CombatPhaseState, artillery: str, defender: str) -> bool:
    return hexes.distance(state.placement.where(artillery), state.placement.where(defender)) <= state.units[artillery].range


@lru_cache(maxsize=4096)
def outlook(line: str, differential: int, tenacious: bool = False) -> float:
    """The defender's expected result under a column: positive is good for him."""
    total = 0
    for entry in crt.results_under(crt.column(line, differential)):
        if tenacious and entry in ("D1", "D2", "D3"):
            total -= crt.retreat_hexes(entry) - 1
        else:
            total += _DEFENDER_VALUE[entry]
    return total / 6


def _tenacious(state: CombatPhaseState, e: Engagement) -> bool:
    return all(tenacity_applies(state, d) for d in e.defenders)


def allot(state: CombatPhaseState, current: Engagement, upcoming: Callable[[], list[Engagement]]) -> FpfAllotment:
    """Decide the FPF for ``current``, record it, and return it.

    ``upcoming`` gives the attacks still to come; only the system's policies
    look at them, so it is called only when a choice was not written down.
    """
    allotment = FpfAllotment()
    if not current.fpf_allowed:
        return allotment
    if state.defense.fpf is not None:
        _standing_artillery(state, current, allotment)
    else:
        _policy_artillery(state, current, upcoming(), allotment)
    if not state.ruleset.leyte:
        if state.defense.gsp_fpf is not None:
            _standing_gsp(state, current, allotment)
        else:
            _policy_gsp(state, current, upcoming(), allotment)
    return allotment


def _hex_served(state: CombatPhaseState, allotment: FpfAllotment, defender: str) -> bool:
    """Leyte 13.11: has this defender's hex already received FPF in this combat?"""
    if not state.ruleset.leyte:
        return False
    here = state.placement.where(defender)
    return any(state.placement.where(d) == here for _, d in allotment.artillery)


def _give(state: CombatPhaseState, current: Engagement, allotment: FpfAllotment, artillery: str, defender: str, chosen_by: str) -> None:
    allotment.artillery.append((artillery, defender))
    state.fpf_used.add(artillery)
    state.events.append(events.fpf_given(current.index, artillery, defender, state.units[artillery].fpf, chosen_by))


def _standing_artillery(state: CombatPhaseState, current: Engagement, allotment: FpfAllotment) -> None:
    for choice in state.defense.fpf or []:
        if choice.defender not in current.defenders:
            continue
        if not may_give_fpf(state, choice.artillery, choice.defender) or _hex_served(state, allotment, choice.defender):
            continue
        _give(state, current, allotment, choice.artillery, choice.defender, PLAYER)


def _standing_gsp(state: CombatPhaseState, current: Engagement, allotment: FpfAllotment) -> None:
    side = state.defending_side
    for choice in state.defense.gsp_fpf or []:
        if choice.defender not in current.defenders or choice.points > state.gsp_left.get(side, 0):
            continue
        state.gsp_left[side] = state.gsp_left.get(side, 0) - choice.points
        allotment.gsp.append((choice.defender, choice.points))
        state.events.append(events.gsp_fpf_given(current.index, side, choice.defender, choice.points, PLAYER))


class _Offers:
    """The (artillery, defender) pairs in range in one combat, by FPF strength, for :func:`_policy_artillery`.

    The gain of an allotment depends only on its strength, so each strength
    is weighed once, and the best choice of a combat is the first open pair
    of the strength that gains most.  A combat still to be fought keeps its
    defenders where they started, so the pairs change only when a gun moves.
    """

    def __init__(self, state: CombatPhaseState, e: Engagement, guns: list[str]) -> None:
        self.defenders = e.defenders
        self.tenacious = _tenacious(state, e)
        self.by_strength: dict[int, list[tuple[str, str]]] = {}
        for a in guns:
            self.add(state, a)

    def add(self, state: CombatPhaseState, gun: str) -> None:
        unit, here = state.units[gun], state.placement.where(gun)
        for d in self.defenders:
            if hexes.distance(here, state.placement.where(d)) <= unit.range:
                if unit.fpf not in self.by_strength:
                    self.by_strength = dict(sorted({**self.by_strength, unit.fpf: []}.items()))
                insort(self.by_strength[unit.fpf], (gun, d))

    def drop(self, gun: str) -> None:
        for pairs in self.by_strength.values():
            pairs[:] = [p for p in pairs if p[0] != gun]


@dataclass
class _Planning:
    """One combat while the greedy plan is made: its offers, the FPF added so far, the hexes served (13.11)."""

    e: Engagement
    offers: _Offers
    added: int = 0
    served: set[str] = field(default_factory=set)

    def best(self, state: CombatPhaseState, open_guns: set[str]) -> tuple | None:
        """The best open choice here as ``(key, artillery, defender, index, strength)``, or None when nothing gains."""
        e, tenacious = self.e, self.offers.tenacious
        margin = e.attack_strength - e.base_defense - self.added
        before = outlook(e.line, margin, tenacious)
        best = None
        for strength, pairs in self.offers.by_strength.items():
            gain = outlook(e.line, margin - strength, tenacious) - before
            if gain <= 0 or (best is not None and (-gain, strength) >= best[0][:2]):
                continue
            for a, d in pairs:
                if a not in open_guns or (state.ruleset.leyte and state.placement.where(d) in self.served):
                    continue
                best = ((-gain, strength, e.index, a, d), a, d, e.index, strength)
                break
        return best


class _OfferMemo:
    """Offers of every combat of the phase, kept from one decision to the next and mended when a gun moves."""

    def __init__(self, state: CombatPhaseState) -> None:
        side = state.defending_side
        self.guns = [a for a, unit in state.units.items() if unit.is_artillery and unit.side == side]
        self._gun_set = frozenset(self.guns)
        self._seen = len(state.placement.changes)
        self._offers: dict[int, _Offers] = {}
        self.last: _Plan | None = None

    def refresh(self, state: CombatPhaseState, combats: list[Engagement]) -> bool:
        """Keep the offers of ``combats`` only, mended for the guns that moved or were eliminated since the last decision.

        True when no gun moved.
        """
        self._offers = {e.index: self._offers[e.index] for e in combats if e.index in self._offers}
        changes = state.placement.changes
        moved = {u for u in changes[self._seen:] if u in self._gun_set}
        self._seen = len(changes)
        for a in sorted(moved):
            for offers in self._offers.values():
                offers.drop(a)
                if state.placement.on_map(a):
                    offers.add(state, a)
        return not moved

    def offers(self, state: CombatPhaseState, e: Engagement) -> _Offers:
        if e.index not in self._offers:
            self._offers[e.index] = _Offers(state, e, [a for a in self.guns if state.placement.on_map(a)])
        return self._offers[e.index]


@dataclass(frozen=True)
class _Plan:
    """A greedy plan and what it was made from: the combats (as engagements) and the guns open."""

    combats: dict[int, Engagement]
    open_guns: frozenset[str]
    picks: tuple[tuple[str, str, int], ...]

    def still_holds(self, combats: dict[int, Engagement], open_guns: set[str], current: int) -> tuple[tuple[str, str, int], ...] | None:
        """The plan the greedy would make now, when only combats fought since have dropped out, or None.

        When the combats left stand exactly as they did, and the only guns no
        longer open are those the plan gave the combats fought since, every
        step of the old plan for a combat still to come is again the best
        step on the smaller choice, so the new plan is the old one without
        the fought combats' picks.
        """
        if any(self.combats.get(i) is not e for i, e in combats.items()):
            return None
        fought = set(self.combats) - set(combats)
        if any(i >= current for i in fought):
            return None
        if open_guns != self.open_guns - {a for a, _, i in self.picks if i in fought}:
            return None
        return tuple(p for p in self.picks if p[2] not in fought)


def _policy_artillery(state: CombatPhaseState, current: Engagement, upcoming: list[Engagement], allotment: FpfAllotment) -> None:
    """Greedy over every (artillery, combat) pair still possible: the biggest gain first.

    Gains are the change in :func:`outlook`; ties go to the smaller FPF
    strength (keep the big guns for later), the earlier combat, then ids.
    Only what is assigned to the current combat is given now; the rest is
    planned again before the next combat, on the position as it then is.
    A combat's best choice is worked out again only when its own allotment
    changed or the gun it wanted went elsewhere, and the whole plan is made
    again only when the position changed in a way that could change it.
    """
    memo = state.memo.get("fpf_offers") or state.memo.setdefault("fpf_offers", _OfferMemo(state))
    open_guns = _free(state, memo.guns)
    if not open_guns:
        return
    combats = [e for e in [current, *upcoming] if e.fpf_allowed]
    still = memo.refresh(state, combats)
    by_index = {e.index: e for e in combats}
    plan = memo.last.still_holds(by_index, open_guns, current.index) if still and memo.last else None
    if plan is None:
        plan = _greedy(state, [_Planning(e, memo.offers(state, e)) for e in combats], set(open_guns))
    memo.last = _Plan(by_index, frozenset(open_guns), plan)
    for a, d, index in plan:
        if index == current.index:
            _give(state, current, allotment, a, d, SYSTEM)


def _greedy(state: CombatPhaseState, planning: list[_Planning], open_guns: set[str]) -> tuple[tuple[str, str, int], ...]:
    """The biggest gain first, until nothing gains; ``(artillery, defender, combat)`` in the order chosen."""
    bests = [p.best(state, open_guns) for p in planning]
    plan: list[tuple[str, str, int]] = []
    while True:
        chosen = min((b for b in bests if b is not None), default=None, key=lambda b: b[0])
        if chosen is None:
            break
        _, a, d, index, strength = chosen
        open_guns.discard(a)
        for i, p in enumerate(planning):
            if p.e.index == index:
                p.added += strength
                p.served.add(state.placement.where(d))
                bests[i] = p.best(state, open_guns)
            elif bests[i] is not None and bests[i][1] == a:
                bests[i] = p.best(state, open_guns)
        plan.append((a, d, index))
    return tuple(plan)


def _policy_gsp(state: CombatPhaseState, current: Engagement, upcoming: list[Engagement], allotment: FpfAllotment) -> None:
    """Spend Ground Support as FPF where a point buys the most, keeping the reserve."""
    side = state.defending_side
    pool = state.gsp_left.get(side, 0) - state.fpf_gsp_reserve
    if pool <= 0:
        return
    combats = [e for e in [current, *upcoming] if e.fpf_allowed]
    tenacious = {e.index: _tenacious(state, e) for e in combats}
    fpf_now = {e.index: 0 for e in combats}
    fpf_now[current.index] = allotment.strength(state)
    added = {e.index: 0 for e in combats}
    while pool > 0:
        best = None
        for e in combats:
            base = e.attack_strength - e.base_defense - fpf_now[e.index] - added[e.index]
            before = outlook(e.line, base, tenacious[e.index])
            for points in range(1, pool + 1):
                gain = outlook(e.line, base - points, tenacious[e.index]) - before
                if gain <= 0:
                    continue
                key = (-gain / points, points, e.index)
                if best is None or key < best[0]:
                    best = (key, e.index, points)
        if best is None:
            break
        _, index, points = best
        added[index] += points
        pool -= points
    if added.get(current.index):
        points = added[current.index]
        defender = current.defenders[0]
        state.gsp_left[side] -= points
        allotment.gsp.append((defender, points))
        state.events.append(events.gsp_fpf_given(current.index, side, defender, points, SYSTEM))

"""Odds before you commit: for each planned attack, the strengths that count and the chance of each result.

The figures are the engine's own: the attack is engaged on the position the
orders' movement would leave (:func:`~pbem.engine.engagement.engage`, I3-I5),
FPF eligibility is :func:`~pbem.engine.fpf.may_give_fpf` (8.4, I12) and the
column and results are read from the Integrated CRT (:mod:`~pbem.engine.crt`,
7.61).  Each attack is weighed on the position at the start of the combat
phase, before any other combat changes it (the combats are resolved in
order, I9, so an earlier result can cancel or change a later attack).

"The enemy's best FPF" is the most the defender could add from what the
holder sees: every enemy artillery unit that may fire FPF for a defender
(8.41, 8.42), one per attacked hex under Leyte (13.11), plus under the
standard rules all the enemy's Ground Support Points (9.0; never under
Leyte, 13.13) — and none against an attack of artillery and Ground Support
alone (8.45).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from pbem.engine import crt
from pbem.engine.adjudicator import check_orders
from pbem.engine.board import Board
from pbem.engine.dice import FixedDice
from pbem.engine.engagement import BANZAI_KINDS, Engagement, engage, tenacity_applies
from pbem.engine.fpf import may_give_fpf
from pbem.engine.phase_state import CombatPhaseState
from pbem.engine.matching import augment
from pbem.model.defense import Defense
from pbem.model.orders import Attack, Orders
from pbem.model.ruleset import Ruleset
from pbem.model.state import GameState

RESULT_ORDER = ("De", "D3", "D2", "D1", "-", "A1", "A2", "A3", "Ae")


@dataclass(frozen=True)
class ColumnOdds:
    """One column of the CRT with the differential that reached it, and each entry's chance on one die."""

    differential: int
    line: str
    column: str
    by_die: tuple[str, ...]
    """The entries under the column for die 1 to 6."""

    @property
    def chances(self) -> dict[str, Fraction]:
        return {r: Fraction(self.by_die.count(r), 6) for r in RESULT_ORDER if r in self.by_die}

    def as_dict(self) -> dict[str, Any]:
        return {
            "differential": self.differential, "line": self.line, "column": self.column, "by_die": list(self.by_die),
            "chances": {r: float(p) for r, p in self.chances.items()},
        }

    def text(self) -> str:
        shares = ", ".join(f"{r} {self.by_die.count(r)}/6" for r in self.chances)
        return f"{self.differential:+d} -> column {self.column}: {shares}"


def column_odds(line: str, differential: int) -> ColumnOdds:
    col = crt.column(line, differential)
    return ColumnOdds(differential, line, col.label, crt.results_under(col))


@dataclass
class AttackOdds:
    """A planned attack weighed before the die."""

    index: int
    attack: Attack
    problem: str | None = None
    contributions: list[tuple[str, int, str]] = field(default_factory=list)
    """(who, points, how): each attacking unit and the GSP."""
    attack_strength: int = 0
    defenders: list[tuple[str, int, str]] = field(default_factory=list)
    """(unit, defense, hex)."""
    defense: int = 0
    fpf: list[tuple[str, int]] = field(default_factory=list)
    """The enemy's best FPF: (artillery unit or 'GSP', points)."""
    line: str = ""
    line_why: str = ""
    without_fpf: ColumnOdds | None = None
    with_fpf: ColumnOdds | None = None
    notes: list[str] = field(default_factory=list)
    defense_range: tuple[int, int] | None = None
    """Against hidden units: the least and the most the defense could be, from what they could be (issue 20)."""
    best_case: ColumnOdds | None = None
    """Against hidden units: the odds without FPF if they defend with the least they could."""

    @property
    def best_fpf(self) -> int:
        return sum(p for _, p in self.fpf)

    def as_dict(self) -> dict[str, Any]:
        if self.problem:
            return {"index": self.index, "weighed": False, "problem": self.problem}
        return {
            "index": self.index, "weighed": True,
            "attack": self.attack_strength,
            "contributions": [{"from": w, "points": p, "as": how} for w, p, how in self.contributions],
            "defense": self.defense,
            "defenders": [{"unit": u, "defense": d, "hex": h} for u, d, h in self.defenders],
            "best_fpf": self.best_fpf,
            "fpf": [{"from": w, "points": p} for w, p in self.fpf],
            "terrain": self.line, "terrain_why": self.line_why,
            "without_fpf": self.without_fpf.as_dict() if self.without_fpf else None,
            "with_fpf": self.with_fpf.as_dict() if self.with_fpf else None,
            "defense_range": list(self.defense_range) if self.defense_range else None,
            "best_case": self.best_case.as_dict() if self.best_case else None,
            "notes": self.notes,
        }

    def lines(self) -> list[str]:
        head = f"Attack {self.index}: {', '.join(self.attack.attackers + self.attack.barrage) or 'Ground Support'} against {', '.join(self.attack.defenders)}"
        if self.problem:
            return [head, f"  cannot be weighed: {self.problem}"]
        out = [head]
        out.append(f"  attack {self.attack_strength} = " + " + ".join(f"{w} {p}" + (f" ({how})" if how else "") for w, p, how in self.contributions))
        if self.defense_range:
            lo, hi = self.defense_range
            out.append(f"  defense {lo} to {hi}: hidden units count as the least and the most they could be = "
                       + " + ".join(f"{u} in {h}" if u == h else f"{u} {d} in {h}" for u, d, h in self.defenders))
        else:
            out.append(f"  defense {self.defense} = " + " + ".join(f"{u} {d} in {h}" for u, d, h in self.defenders))
        if self.fpf:
            out.append(f"  enemy's best FPF +{self.best_fpf} = " + " + ".join(f"{w} {p}" for w, p in self.fpf))
        else:
            out.append("  enemy's best FPF: none")
        out.append(f"  terrain: {self.line} line ({self.line_why})")
        if self.best_case:
            out.append(f"  without FPF, at best:  {self.best_case.text()}")
            out.append(f"  without FPF, at worst: {self.without_fpf.text()}")
        else:
            out.append(f"  without FPF: {self.without_fpf.text()}")
        if self.with_fpf:
            out.append(f"  with FPF:    {self.with_fpf.text()}")
        out += [f"  note: {n}" for n in self.notes]
        return out


def _combat_phase(board: Board, ruleset: Ruleset, state: GameState, orders: Orders) -> CombatPhaseState:
    """The combat phase as the orders' movement would begin it; no die is rolled here."""
    check = check_orders(board, ruleset, state, orders)
    position = state.position
    return CombatPhaseState(
        board=board, ruleset=ruleset, units=state.unit_index(), placement=check.movement.placement,
        phasing=position.phasing, defense=Defense(), dice=FixedDice([]), gsp_left=dict(position.gsp), no_fpf=state.no_fpf,
    )


def _unweighable(phase: CombatPhaseState, attack: Attack) -> str | None:
    if not attack.defenders:
        return "it names no defender"
    for u in attack.attackers + attack.barrage + attack.defenders:
        if u not in phase.units:
            return f"there is no unit {u} in this position"
        if not phase.placement.on_map(u):
            return f"{u} is not on the map at the start of the combat phase"
    return None


def best_fpf(phase: CombatPhaseState, e: Engagement) -> list[tuple[str, int]]:
    """The most FPF the defender could give this attack, as (source, points) (8.4, 9.0, 13.1)."""
    if not e.fpf_allowed:
        return []
    side = phase.defending_side
    guns = [a for a in phase.placement.units_of(side) if phase.units[a].is_artillery]
    eligible = {a: [d for d in e.defenders if may_give_fpf(phase, a, d)] for a in guns}
    eligible = {a: ds for a, ds in eligible.items() if ds}
    if phase.ruleset.leyte:
        return [(a, phase.units[a].fpf) for a in _one_gun_per_hex(phase, eligible)]
    found = [(a, phase.units[a].fpf) for a in sorted(eligible)]
    gsp = phase.gsp_left.get(side, 0)
    return found + ([("GSP", gsp)] if gsp else [])


def _one_gun_per_hex(phase: CombatPhaseState, eligible: dict[str, list[str]]) -> list[str]:
    """The strongest set of guns with at most one per attacked hex (13.11), each gun firing once.

    Guns are taken strongest first and kept whenever the guns kept so far can
    still be given one hex each (an augmenting path may move an earlier gun
    to another hex it reaches); with weights on the guns alone this greedy
    choice is the best one.
    """
    serves = {a: sorted({phase.placement.where(d) for d in ds}) for a, ds in eligible.items()}
    holder: dict[str, str] = {}
    for gun in sorted(eligible, key=lambda a: (-phase.units[a].fpf, a)):
        augment(gun, serves, holder)
    return sorted(holder.values())


def _weigh(phase: CombatPhaseState, index: int, attack: Attack, hidden_defense: tuple[int, int] | None = None) -> AttackOdds:
    odds = AttackOdds(index, attack)
    odds.problem = _unweighable(phase, attack)
    if odds.problem:
        return odds
    e = engage(phase, index, attack)
    for u in e.adjacent + e.barraging:
        unit = phase.units[u]
        if unit.is_artillery:
            odds.contributions.append((u, unit.barrage, "barrage" if u in e.barraging else "adjacent artillery"))
        elif e.banzai and unit.kind in BANZAI_KINDS:
            odds.contributions.append((u, unit.attack * 2, "doubled in Banzai, 10.0"))
        else:
            odds.contributions.append((u, unit.attack, ""))
    if attack.gsp:
        odds.contributions.append(("GSP", attack.gsp, "9.1"))
    odds.attack_strength = e.attack_strength
    odds.defenders = [(d, phase.units[d].defense, phase.placement.where(d)) for d in e.defenders]
    odds.defense = e.base_defense
    odds.fpf = best_fpf(phase, e)
    odds.line = e.line
    terrains = ", ".join(f"{h} {phase.board.terrain(h).name}" for h in dict.fromkeys(h for _, _, h in odds.defenders))
    odds.line_why = terrains + ("; every adjacent attacker across a river (7.44)" if e.line == "river" else "")
    blind = [phase.placement.where(d) for d in e.defenders if phase.units[d].kind == "hidden"]
    known = e.base_defense - sum(phase.units[d].defense for d in e.defenders if phase.units[d].kind == "hidden")
    differential = e.attack_strength - e.base_defense
    if blind and hidden_defense:
        # A marker's defense is not 0: it is one of the hidden units' (19B.4); weigh the least and the most.
        lo, hi = known + hidden_defense[0] * len(blind), known + hidden_defense[1] * len(blind)
        odds.defense_range, odds.defense = (lo, hi), hi
        odds.best_case = column_odds(e.line, e.attack_strength - lo)
        differential = e.attack_strength - hi
    odds.without_fpf = column_odds(e.line, differential)
    if odds.fpf:
        odds.with_fpf = column_odds(e.line, differential - odds.best_fpf)
    if blind:
        counted = (f"counted from {hidden_defense[0]} to {hidden_defense[1]} each, what the hidden units could be" if hidden_defense
                   else "unknown, counted 0 here")
        odds.notes.append(f"hidden unit(s) in {' '.join(blind)}: their defense ({counted}) and any FPF they draw are unknown; "
                          "the referee resolves the attack with the true strengths, and cancels it if only dummies stood there (19B.4, 19B.6)")
    if not e.fpf_allowed:
        odds.notes.append("no FPF against artillery and Ground Support alone (8.45)")
    if e.artillery_only:
        odds.notes.append("no adjacent attacker: a D1 has no effect on the defenders (8.15)")
    if any(tenacity_applies(phase, d) for d in e.defenders):
        odds.notes.append("Japanese defenders in rough or mountain retreat one hex less (14.1)")
    if any(a != "GSP" for a, _ in odds.fpf):
        odds.notes.append("FPF counts only artillery free to fire when this attack comes; an earlier combat may use it first")
    return odds


def weigh_attacks(board: Board, ruleset: Ruleset, state: GameState, orders: Orders,
                  hidden_defense: tuple[int, int] | None = None) -> list[AttackOdds]:
    """Every planned attack of ``orders`` weighed on the position after their movement.

    ``hidden_defense``: the least and the most defense strength a hidden unit could have (the
    Japanese units the holder cannot see); without it a hidden unit's defense is unknown.
    """
    phase = _combat_phase(board, ruleset, state, orders)
    return [_weigh(phase, i, a, hidden_defense) for i, a in enumerate(orders.attacks, 1)]


def odds_text(weighed: list[AttackOdds]) -> str:
    if not weighed:
        return "No attacks planned."
    blocks = ["\n".join(o.lines()) for o in weighed]
    return "\n\n".join(blocks)

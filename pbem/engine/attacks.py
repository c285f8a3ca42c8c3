"""Checking the phasing player's attacks before any die is rolled.

What happens after the die — advances, retreat routes, Banzai losses — is
not checked here: an entry that cannot be carried out when its moment comes
is simply not carried out (a unit not entitled to advance stays put, 7.94).
Only the names in an advance entry are checked before the die: an entry
naming no unit of the game, or following a unit that is not a defender of
its attack, could never apply.

Attacks are judged on the position at the start of the combat phase (I9):
who may attack whom (7.14, 7.15, 7.23, 8.11-8.13, 8.32), who must attack and
be attacked (7.11, 7.12, 7.21, 8.31, 12.22), Ground Support (9.1, I13) and
Banzai (10.0, I14).  Which rule a faulty attack breaks follows I18; where an
artillery unit stands, not the list naming it, says whether it attacks as an
adjacent unit or barrages (I19).  Every problem is reported, once (I20): one
problem in an attack (7.14 included) never stops the check of the rest of
it, and a unit an attack lists attacks, for the obligations, even when that
attack has a problem.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.engine import hexes
from pbem.engine.engagement import BANZAI_KINDS
from pbem.engine.placement import Placement
from pbem.engine.problems import Problem
from pbem.model.common import Side
from pbem.model.orders import Attack
from pbem.model.ruleset import Ruleset
from pbem.model.units import Unit

@dataclass
class _Tally:
    """What the attacks so far have used, for the checks across attacks."""

    attacker_in: dict[str, int] = field(default_factory=dict)
    defender_in: dict[str, int] = field(default_factory=dict)
    listed: set[str] = field(default_factory=set)
    """Units some attack lists: they attack, for 7.11, 7.12, 8.31 and 12.22, even when that attack has a problem (I20)."""
    gsp: int = 0


def _adjacent_to(placement: Placement, unit_id: str, others: list[str]) -> list[str]:
    here = placement.where(unit_id)
    return [o for o in others if hexes.adjacent(here, placement.where(o))]


class _AttackChecker:
    def __init__(self, ruleset: Ruleset, units: dict[str, Unit], placement: Placement, phasing: Side,
                 moved_wrong: frozenset[str] = frozenset()) -> None:
        self.ruleset = ruleset
        self.moved_wrong = moved_wrong
        """Units whose moves have a problem: a problem that follows from it says so."""
        self.units = units
        self.placement = placement
        self.phasing = phasing
        self.tally = _Tally()
        self.problems: list[Problem] = []

    def add(self, rule: str, unit: str | None, message: str) -> None:
        self.problems.append(Problem(rule, unit, message))

    # -- one attack --------------------------------------------------------------
    def check(self, index: int, attack: Attack) -> None:
        tag = f"attack {index}"
        defenders = self._defenders(index, tag, attack)
        adjacent, barraging = self._attackers(index, tag, attack, defenders)
        if not attack.attackers and not attack.barrage:
            if attack.gsp == 0:
                self.add("7.0", None, f"{tag} has no attacking units and no Ground Support Points.")
            elif self.ruleset.dg:
                self.add("9.1", None, f"{tag} uses Ground Support Points alone; in the dg-2009 edition they only add to an attack by at least one unit.")
        # 8.13 is about a barrage, by artillery or by Ground Support Points, which 9.0 uses as artillery: an
        # attack with neither never breaks it (a refused adjacent attacker is reported once, as itself, not
        # again as a barrage nobody fires).
        if not adjacent and defenders and len({self.placement.where(d) for d in defenders}) > 1:
            if barraging:
                self.add("8.13", None, f"{tag} barrages more than one hex; without units attacking from adjacent hexes a barrage strikes a single hex.")
            elif attack.gsp and not attack.attackers and not attack.barrage and not self.ruleset.dg:
                # dg-2009 has refused Ground Support alone already (9.1): one problem, not two.
                self.add("8.13", None, f"{tag} aims {attack.gsp} Ground Support Points alone at more than one hex; they strike as "
                         "artillery (9.0), and without units attacking from adjacent hexes a barrage strikes a single hex: "
                         "give each hex its own attack, or add a unit that attacks from an adjacent hex.")
        self.tally.gsp += attack.gsp
        self._banzai(tag, attack, adjacent)
        self._advance_names(tag, attack)

    def _defenders(self, index: int, tag: str, attack: Attack) -> list[str]:
        ok = []
        for d in attack.defenders:
            unit = self.units.get(d)
            if unit is None:
                self.add("7.0", d, f"{tag}: there is no unit '{d}' in this game.")
            elif unit.side == self.phasing:
                self.add("7.0", d, f"{tag}: {d} is one of your own units; only enemy units are attacked.")
            elif not self.placement.on_map(d):
                self.add("7.0", d, f"{tag}: {d} is not on the map.")
            elif d in self.tally.defender_in:
                self.add("7.14", d, f"{d} is attacked in attack {self.tally.defender_in[d]} and again in {tag}; no unit may be attacked twice in a Combat Phase.")
                if d not in ok:
                    ok.append(d)  # I20: still a defender of this attack for the checks of the rest of it
            else:
                self.tally.defender_in[d] = index
                ok.append(d)
        return ok

    def _attackers(self, index: int, tag: str, attack: Attack, defenders: list[str]) -> tuple[list[str], list[str]]:
        """Sort the listed units into adjacent attackers and barraging artillery."""
        adjacent: list[str] = []
        barraging: list[str] = []
        checked: set[str] = set()
        for a in attack.attackers + attack.barrage:
            unit = self.units.get(a)
            if unit is None:
                self.add("7.0", a, f"{tag}: there is no unit '{a}' in this game.")
                continue
            if unit.side != self.phasing:
                self.add("7.0", a, f"{tag}: {a} is an enemy unit; only {self.phasing} units attack in this Combat Phase.")
                continue
            if unit.is_dummy:
                self.add("19B.6", a, f"{tag}: {a} is a dummy; a dummy never attacks (it leaves the map when contact exposes it).")
                continue
            if not self.placement.on_map(a):
                self.add("7.0", a, f"{tag}: {a} is not on the map.")
                continue
            if a in self.tally.attacker_in:
                self.add("7.14", a, f"{a} attacks in attack {self.tally.attacker_in[a]} and again in {tag}; no unit may attack twice in a Combat Phase.")
                if a in checked:
                    continue  # listed twice in this attack: checked once already
                # I20: the rest of the attack is still checked, this unit included.
            else:
                self.tally.attacker_in[a] = index
            checked.add(a)
            self.tally.listed.add(a)
            if not defenders:
                continue
            touching = _adjacent_to(self.placement, a, defenders)
            if unit.is_artillery:
                in_contact = touching or self.placement.adjacent_enemies(self.placement.where(a), self.phasing)
                if in_contact and len(touching) < len(defenders):
                    far = [d for d in defenders if d not in touching]
                    self.add("8.32", a, f"{tag}: artillery {a} is adjacent to an enemy unit, so it may not attack {', '.join(far)}, which it does not touch.")
                if touching:
                    adjacent.append(a)
                else:
                    here = self.placement.where(a)
                    nearest = min(hexes.distance(here, self.placement.where(d)) for d in defenders)
                    if nearest > unit.range:
                        self.add("8.11", a, f"{tag}: artillery {a} has range {unit.range}, and its target is {nearest} hexes away (8.12).")
                    barraging.append(a)
            else:
                if not touching:
                    cause = (f" (its move has a problem, above: it is checked where it stands, {self.placement.where(a)})"
                             if a in self.moved_wrong else "")
                    self.add("7.15", a, f"{tag}: {a} is not adjacent to {', '.join(defenders)}{cause}; only artillery attacks from a distance.")
                    continue
                if len(touching) < len(defenders):
                    far = [d for d in defenders if d not in touching]
                    self.add("7.23", a, f"{tag}: {a} is not adjacent to {', '.join(far)}; in one combat every attacking unit must touch every defender.")
                adjacent.append(a)
        return adjacent, barraging

    def _advance_names(self, tag: str, attack: Attack) -> None:
        """An advance entry must name units of this combat (7.9): a name that can never apply is a slip."""
        for entry in attack.advance:
            if entry.unit not in self.units:
                self.add("7.9", entry.unit, f"{tag}: advance names '{entry.unit}', and there is no unit '{entry.unit}' in this game.")
            if entry.follow is None:
                continue
            if entry.follow not in self.units:
                self.add("7.9", entry.follow, f"{tag}: advance follows '{entry.follow}', and there is no unit '{entry.follow}' in this game.")
            elif entry.follow not in attack.defenders:
                self.add("7.9", entry.follow, f"{tag}: advance follows {entry.follow}, which is not a defender in this attack; an advance follows a defeated defender's Path of Retreat.")

    def _banzai(self, tag: str, attack: Attack, adjacent: list[str]) -> None:
        if not attack.banzai:
            return
        if self.phasing != "JP":
            self.add("10.0", None, f"{tag}: only the Japanese player may declare a Banzai attack.")
            return
        if not any(self.units[a].kind in BANZAI_KINDS for a in adjacent):
            self.add("10.0", None, f"{tag}: a Banzai attack needs at least one adjacent Japanese infantry or engineer unit.")

    # -- across all attacks ------------------------------------------------------
    def check_obligations(self, gsp_available: int, arrived_in_zoc: frozenset[str]) -> None:
        if self.tally.gsp > gsp_available:
            self.add("9.1", None, f"the attacks use {self.tally.gsp} Ground Support Points; only {gsp_available} are left this Game-Turn.")
        for p in self.placement.units_of(self.phasing):
            enemies = self.placement.adjacent_enemies(self.placement.where(p), self.phasing)
            if not enemies:
                continue
            if p in self.tally.listed:
                continue  # I20: listed against units it does not touch, it was told already (7.15, 8.32)
            if self.units[p].is_artillery:
                self.add("8.31", p, f"artillery {p} is adjacent to {', '.join(enemies)} and must attack an adjacent enemy unit.")
            else:
                self.add("7.12", p, f"{p} ended its movement next to {', '.join(enemies)} and must attack.")
            if p in arrived_in_zoc:
                self.add("12.22", p, f"{p} arrived in an enemy zone of control and must attack a unit it is adjacent to.")
        enemy_side = "JP" if self.phasing == "US" else "US"
        for e in self.placement.units_of(enemy_side):
            if e in self.tally.defender_in:
                continue
            neighbours = self.placement.adjacent_enemies(self.placement.where(e), enemy_side)
            if not neighbours:
                continue
            self.add("7.11", e, f"{e} is adjacent to {', '.join(neighbours)} and must be attacked.")
            busy = [p for p in neighbours if p in self.tally.listed]
            if busy:
                self.add("7.21", e, f"{', '.join(busy)} attack elsewhere but are also adjacent to {e}, which no attack engages.")


def check_attacks(
    ruleset: Ruleset,
    units: dict[str, Unit],
    placement: Placement,
    phasing: Side,
    gsp_available: int,
    attacks: list[Attack],
    arrived_in_zoc: frozenset[str] = frozenset(),
    moved_wrong: frozenset[str] = frozenset(),
) -> list[Problem]:
    """Every problem with ``attacks`` on the position at the start of the combat phase.

    ``moved_wrong``: units whose moves have a problem (a problem that follows from one says so).
    """
    checker = _AttackChecker(ruleset, units, placement, phasing, moved_wrong)
    for index, attack in enumerate(attacks, 1):
        checker.check(index, attack)
    checker.check_obligations(gsp_available, arrived_in_zoc)
    return checker.problems

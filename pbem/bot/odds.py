"""What an attack is worth before its die is rolled: the engine's CRT, weighed in unit values.

The figures follow the engine's own reading of the rules — strengths (I4),
the terrain line (I3, 7.42-7.45), artillery-only attacks (8.15, I5), the
column (7.61, I2) — with two estimates only a player makes: how much Final
Protective Fire the defender will find (8.4, Leyte 13.11, 13.13) and what
a retreat costs.  Every result is weighed in victory-point value (15.11):
an elimination costs the unit's whole value, a retreat a little of it, a
retreat with nowhere to go (a unit "in a trap", 7.74) the whole value.
"""

from __future__ import annotations

from dataclasses import dataclass

from pbem.bot.reach import graph_of
from pbem.bot.sight import Sight
from pbem.engine import crt, hexes
from pbem.engine.engagement import BANZAI_KINDS
from pbem.engine.hexes import Hex
from pbem.engine.terrain import LINE_RANK

RETREAT_WEIGHT = 0.08
"""Share of a unit's value a retreat of one hex costs it: ground, tempo, the next attack's odds (assumed)."""


@dataclass(frozen=True)
class Odds:
    """One attack's figures and its expected worth to the attacker (value won minus value lost)."""

    strength: int
    defense: int
    differential: int
    line: str
    column: int
    worth: float


@dataclass
class Attackers:
    """Who an attack would use: adjacent units (artillery included), barraging artillery, Ground Support."""

    adjacent: list[str]
    barrage: list[str]
    gsp: int = 0
    banzai: bool = False

    def copy(self) -> "Attackers":
        return Attackers(list(self.adjacent), list(self.barrage), self.gsp, self.banzai)


class Judge:
    """Weighs attacks on one position: the enemy as the view shows it, the bot's units where its moves put them."""

    def __init__(self, sight: Sight, final: dict[str, Hex]) -> None:
        self.sight = sight
        self.final = final
        self.friendly_hexes = {h for h in final.values()}
        self.steps = graph_of(sight.board).steps
        self._trapped: dict[str, bool] = {}

    # -- who is caught -----------------------------------------------------------
    def _my_zoc(self, h: Hex) -> bool:
        return any(n in self.friendly_hexes for n in hexes.neighbours(h))

    def defender_trapped(self, d: str) -> bool:
        """No hex the enemy unit could retreat into: every neighbour is ours, in our zone of control, sea or barred (7.71-7.74)."""
        if d not in self._trapped:
            here = self.sight.where[d]
            self._trapped[d] = not any(
                n not in self.friendly_hexes and not self._my_zoc(n) for n, _, _ in self.steps.get(here, ())
            )
        return self._trapped[d]

    def attacker_trapped(self, a: str) -> bool:
        """No hex our unit could retreat into after an A-result."""
        key = "+" + a
        if key not in self._trapped:
            here, sight = self.final[a], self.sight
            self._trapped[key] = not any(
                n not in sight.enemy_at and n not in sight.enemy_zoc for n, _, _ in self.steps.get(here, ())
            )
        return self._trapped[key]

    # -- the defender's fire -----------------------------------------------------
    def fpf(self, defenders: list[str]) -> int:
        """The Final Protective Fire the defenders can expect (8.4): eligible enemy artillery in range and not next to us.

        Under Leyte one battery per defending hex (13.11) and no Ground
        Support as FPF (13.13); otherwise the two best batteries and the
        enemy's Ground Support Points.
        """
        sight = self.sight
        per_hex: dict[Hex, list[int]] = {}
        for here, fpf, reach in sight.enemy_batteries:
            if self._my_zoc(here):
                continue
            for d in defenders:
                dh = sight.where[d]
                if hexes.distance(here, dh) <= reach:
                    per_hex.setdefault(dh, []).append(fpf)
                    break
        if sight.ruleset.leyte:
            return sum(max(v) for v in per_hex.values())
        best = sorted((v for vs in per_hex.values() for v in vs), reverse=True)
        return sum(best[:2]) + sight.enemy_gsp

    # -- the attack ----------------------------------------------------------------
    def _tenacious(self, unit_id: str, here: Hex) -> bool:
        """Leyte 14.1 (I15): a Japanese unit in rough or mountain retreats one hex less."""
        return self.sight.ruleset.leyte and self.sight.units[unit_id].side == "JP" and self.sight.board.rough_or_mountain(here)

    def line(self, attackers: Attackers, defenders: list[str]) -> str:
        """The CRT line the defenders fight on (I3)."""
        sight, board = self.sight, self.sight.board
        movers = [a for a in attackers.adjacent if not sight.units[a].is_artillery]
        best = "clear"
        for d in defenders:
            here = sight.where[d]
            line = board.terrain(here).crt
            if movers and all(board.river_between(self.final[a], here) for a in movers) and LINE_RANK["river"] > LINE_RANK[line]:
                line = "river"
            if LINE_RANK[line] > LINE_RANK[best]:
                best = line
        return best

    def judge(self, attackers: Attackers, defenders: list[str]) -> Odds:
        sight, units = self.sight, self.sight.units
        banzai = attackers.banzai and sight.side == "JP"
        strength = attackers.gsp
        for a in attackers.adjacent + attackers.barrage:
            unit = units[a]
            if unit.is_artillery:
                strength += unit.barrage
            else:
                strength += unit.attack * (2 if banzai and unit.kind in BANZAI_KINDS else 1)
        movers = [a for a in attackers.adjacent if not units[a].is_artillery]
        defense = sum(units[d].defense for d in defenders)
        if movers:
            defense += self.fpf(defenders)  # 8.45: no FPF against artillery and Ground Support alone
        differential = strength - defense
        line = self.line(attackers, defenders)
        column = crt.column(line, differential)
        if sight.ruleset.dg:
            artillery_only = not attackers.adjacent
        else:
            artillery_only = not movers
        worth = sum(self._result_worth(r, attackers, defenders, artillery_only) for r in crt.results_under(column)) / 6
        if banzai:
            worth -= self._banzai_cost(attackers, defenders)
        return Odds(strength, defense, differential, line, column.position, worth)

    def _result_worth(self, result: str, attackers: Attackers, defenders: list[str], artillery_only: bool) -> float:
        sight, units = self.sight, self.sight.units
        if result == "-":
            return 0.0
        if result == "De":
            return float(sum(units[d].combat_value for d in defenders))
        if result == "Ae":
            if artillery_only and sight.ruleset.dg:
                return 0.0
            return -float(sum(units[a].combat_value for a in attackers.adjacent))
        n = crt.retreat_hexes(result)
        total = 0.0
        if result[0] == "D":
            if artillery_only and n == 1:
                return 0.0  # 8.15
            for d in defenders:
                due = n - self._tenacious(d, sight.where[d])
                if due > 0:
                    value = units[d].combat_value
                    total += value if self.defender_trapped(d) else RETREAT_WEIGHT * due * value
            return total
        if artillery_only and sight.ruleset.dg:
            return 0.0
        for a in attackers.adjacent:
            due = n - self._tenacious(a, self.final[a])
            if due > 0:
                value = units[a].combat_value
                total -= value if self.attacker_trapped(a) else RETREAT_WEIGHT * due * value
        return total

    def _banzai_cost(self, attackers: Attackers, defenders: list[str]) -> float:
        """The units a Banzai gives up whatever the result (10.0, I14): attack strength covering the defenders' defense."""
        units = self.sight.units
        owed = sum(units[d].defense for d in defenders)
        cost = 0.0
        for a in sorted((a for a in attackers.adjacent if units[a].kind in BANZAI_KINDS), key=lambda a: (units[a].combat_value, a)):
            if owed <= 0:
                break
            owed -= units[a].attack
            cost += units[a].combat_value
        return cost

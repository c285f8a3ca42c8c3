"""From a plan to orders the engine accepts: written out, checked by the engine, repaired if need be.

Every set of orders the bot hands back has passed the same
:func:`~pbem.engine.adjudicator.check_orders` that ``pbem validate`` and the
referee run.  Should a plan break a rule after all, the moves the problems
name are dropped (those units stay put), the forced attacks are worked out
again on the new position, and the whole is checked again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pbem.bot.contact import Group, mandatory_attacks
from pbem.bot.sight import Sight
from pbem.model.construct import construct
from pbem.engine.adjudicator import check_orders
from pbem.engine.hexes import Hex
from pbem.engine.problems import Problem
from pbem.model.orders import Orders

class BotError(RuntimeError):
    """The bot could not find valid orders: a fault of the bot's, never of the game."""


@dataclass
class Plan:
    """What a policy decided: moves (unit -> entry hex or None, path), where its units end, and its attacks."""

    sight: Sight
    moves: dict[str, tuple[Hex | None, list[Hex]]] = field(default_factory=dict)
    final: dict[str, Hex] = field(default_factory=dict)
    attacks: list[Group] = field(default_factory=list)
    exits: set[str] = field(default_factory=set)
    """Units leaving the map from the last hex of their path (Leyte 16.13)."""
    intelligence: dict[str, Any] | None = None
    """An American intelligence roll and its priority of hexes (hidden units, 19B.7), or None."""
    _at: dict[Hex, str] = field(default_factory=dict)

    @classmethod
    def standing(cls, sight: Sight) -> "Plan":
        """Nobody moves yet: every unit of the side where it stands."""
        return cls(sight, final={u: sight.where[u] for u in sight.mine + sight.still})

    def __post_init__(self) -> None:
        self._at = {h: u for u, h in self.final.items()}

    def occupant(self, h: Hex) -> str | None:
        """The unit of the side that ends its move in ``h``, if any (5.31 allows one)."""
        return self._at.get(h)

    def _put(self, unit: str, h: Hex | None) -> None:
        old = self.final.pop(unit, None)
        if old is not None and self._at.get(old) == unit:
            del self._at[old]
        if h is not None:
            self.final[unit] = h
            self._at[h] = unit

    def move(self, unit: str, enter: Hex | None, path: list[Hex]) -> None:
        self.moves[unit] = (enter, path)
        self._put(unit, path[-1] if path else (enter or self.final[unit]))

    def leave(self, unit: str, enter: Hex | None, path: list[Hex]) -> None:
        """The unit moves along ``path`` and leaves the map from its last hex (16.13): it ends in no hex, so a
        friendly unit may stand there (5.31 judges where units end)."""
        self.moves[unit] = (enter, path)
        self.exits.add(unit)
        self._put(unit, None)

    def unmove(self, unit: str) -> None:
        enter, _ = self.moves.pop(unit)
        self.exits.discard(unit)
        self._put(unit, self.sight.where[unit] if enter is None else None)

    def document(self) -> dict[str, Any]:
        moves = []
        for unit, (enter, path) in self.moves.items():
            move: dict[str, Any] = {"unit": unit, "path": list(path)}
            if enter is not None:
                move["enter"] = enter
            if unit in self.exits:
                move["exit"] = True
            moves.append(move)
        attacks = []
        for g in self.attacks:
            attack: dict[str, Any] = {"attackers": list(g.attackers.adjacent), "defenders": list(g.defenders)}
            if g.attackers.barrage:
                attack["barrage"] = list(g.attackers.barrage)
            if g.attackers.gsp:
                attack["gsp"] = g.attackers.gsp
            if g.attackers.banzai:
                attack["banzai"] = True
            if g.advance:
                attack["advance"] = list(g.advance)
            attacks.append(attack)
        document: dict[str, Any] = {"moves": moves, "attacks": attacks}
        if self.intelligence:
            document["intelligence"] = dict(self.intelligence)
        return document


def problems_with(sight: Sight, document: dict[str, Any]) -> tuple[Problem, ...]:
    """Every problem the engine finds with ``document`` on the side's own view."""
    orders = construct(Orders, document)  # the bot's own document: built as model_validate builds it, without its validator
    return check_orders(sight.board, sight.ruleset, sight.state, orders).problems


def _first(_: str, options: list[Group]) -> Group:
    return options[0]


def _air_assault(sight: Sight, unit: str) -> bool:
    u = sight.units.get(unit)
    return u is not None and u.kind == "airassault" and sight.ruleset.leyte and unit not in sight.where


def _withheld_air_assaults(sight: Sight, plan: Plan) -> list[str]:
    """Air assault units available now and not placed by the plan (Leyte 12.42 forbids withholding them)."""
    return [u for u, h in sight.state.locations.items() if h == "offmap" and u not in plan.moves and _air_assault(sight, u)
            and sight.units[u].side == sight.side]


def _land_air_assault(plan: Plan, unit: str) -> None:
    """Place an air assault unit in the first empty land hex out of every enemy zone of control, else any empty land hex."""
    sight = plan.sight
    taken = set(sight.where.values()) | {path[-1] if path else enter for enter, path in plan.moves.values() if enter or path}
    land = [h for h in sight.board.all_hexes if sight.board.land(h) and h not in taken]
    quiet = [h for h in land if h not in sight.enemy_zoc]
    choice = (quiet or land or [None])[0]
    if choice is not None:
        plan.move(unit, choice, [])


def settle(plan: Plan) -> dict[str, Any]:
    """The plan's orders when the engine accepts them; otherwise the nearest orders it does accept.

    First the same moves with the forced attacks alone; then without the
    moves of every unit a problem names (a reinforcement first just lands),
    again and again; at last nobody moves.  The forced attacks always exist (:mod:`.contact`), so the last
    step cannot fail unless the engine and the bot disagree on a rule.
    """
    sight = plan.sight
    document = plan.document()
    found = problems_with(sight, document)
    while found:
        plan.intelligence = None
        plan.attacks = mandatory_attacks(sight, plan.final, _first)
        document = plan.document()
        found = problems_with(sight, document)
        if not found:
            break
        named = {p.unit for p in found if p.unit in plan.moves}
        if not named and not plan.moves:
            raise BotError("the bot found no valid orders: " + "; ".join(str(p) for p in found))
        for unit in sorted(named or plan.moves):
            enter, path = plan.moves[unit]
            if enter is not None and path:
                plan.move(unit, enter, [])  # a reinforcement first tries landing and going no farther
                plan.exits.discard(unit)
            elif _air_assault(sight, unit):
                plan.unmove(unit)
                _land_air_assault(plan, unit)  # 12.42: never withheld, so it lands somewhere quiet instead
            else:
                plan.unmove(unit)
        for unit in _withheld_air_assaults(sight, plan):
            _land_air_assault(plan, unit)
    return document

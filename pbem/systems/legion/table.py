"""The position being worked on during one adjudication: mutable, thrown away or frozen into a new state.

Holds where each counter stands and its markers, and answers what the rules
ask of a unit at a moment: its class and Stacking Points (3A), its current
strengths after Hit markers, CI and Disruption (9D.3, 9E, 14), its ZOC (5A)
and who owns a hex (5B).
"""

from __future__ import annotations

from fractions import Fraction

from pbem.engine import hexes
from pbem.model.common import Side, enemy_of
from pbem.systems.legion.board import LegionBoard
from pbem.systems.legion.charts import UnitTypeSpec
from pbem.systems.legion.counters import Counter
from pbem.systems.legion.state import ELIMINATED, NOT_ON_MAP, REMOVED, LegionState

SIZE_ARTILLERY_ATTACK = {"regiment": 2, "battalion": 2, "company": 1, "platoon": 1}
"""11: an artillery unit attacking in Assault or Fire Combat has a printed Attack Strength of 2 (battalion or
regiment) or 1 (battery or smaller)."""

MARKER_TYPE = "hidden"
"""A counter a side may not examine, in its view of the position (19B.1, 19B.2: :func:`pbem.systems.legion.views.known`)."""
MARKER_SPEC = UnitTypeSpec(unit_class="infantry", source="assumed: a marker in a side's view is judged as infantry (19B.2: "
                           "its type is not shown); its ZOC then reaches every hex a unit's may, so a move judged on the view "
                           "never gets past a ZOC the whole position has")


class Table:
    """One position under adjudication (a working copy of a :class:`LegionState`)."""

    def __init__(self, board: LegionBoard, state: LegionState, cp_per_unit: int = 0) -> None:
        self.board = board
        self.charts = board.charts
        self.state = state
        self.turn = state.position.turn
        self.phasing: Side = state.position.phasing
        self.units: dict[str, Counter] = state.unit_index()
        self.locations = dict(state.locations)
        self.hits = dict(state.hits)
        self.ci = set(state.ci)
        self.disrupted = dict(state.disrupted)
        self.fired = set(state.fired)
        self.defended = dict(state.defended)
        self.reserve = set(state.reserve)
        self.owner = dict(state.owner)
        self.casualties = state.casualties
        self.exposed = set(state.exposed) if state.exposed is not None else None
        self.cp_per_unit = cp_per_unit
        """20: the Casualty Points a U.S. unit's elimination adds to its Combat Losses (the scenario's Victory Table)."""
        self.no_zoc: set[str] = set()
        """Units that have lost their ZOC for now (5A: same-hex combat, the target of an Overrun)."""

    # -- where --------------------------------------------------------------------
    def where(self, u: str) -> str:
        return self.locations.get(u, ELIMINATED)

    def on_map(self, u: str) -> bool:
        return self.where(u) not in NOT_ON_MAP

    def in_hex(self, h: str, side: Side | None = None) -> list[str]:
        return [u for u, at in self.locations.items() if at == h and (side is None or self.units[u].side == side)]

    def side_units(self, side: Side) -> list[str]:
        return [u for u in sorted(self.units) if self.units[u].side == side and self.on_map(u)]

    # -- what a unit is -----------------------------------------------------------------
    def spec(self, u: str) -> UnitTypeSpec:
        if self.units[u].type == MARKER_TYPE:
            return MARKER_SPEC
        return self.charts.unit_types.types[self.units[u].type]

    def cls(self, u: str):
        return self.spec(u).unit_class

    def sp(self, u: str) -> int:
        """3A.4, 8: the unit's Stacking Points (its type's value where the Stacking Value Table gives one)."""
        unit = self.units[u]
        table = self.charts.stacking
        return (table.types.get(unit.type) or table.sizes[unit.size]).sp

    def printed(self, u: str) -> tuple[int, int, int]:
        """Attack, Defense and MA printed on the side showing: the CI side once flipped (9E)."""
        unit = self.units[u]
        if u in self.ci and unit.reverse is not None:
            return unit.reverse.attack, unit.reverse.defense, unit.reverse.move
        return unit.attack, unit.defense, unit.move

    def disruption(self, u: str) -> int:
        return self.disrupted.get(u, 0)

    def attack_strength(self, u: str) -> Fraction:
        """The Attack Strength a unit attacks with (9D.3, 11, 14): printed (2 or 1 for artillery) less Hit markers, halved if Disrupted."""
        unit = self.units[u]
        printed = SIZE_ARTILLERY_ATTACK[unit.size] if self.cls(u) == "artillery" and unit.bs > 0 else self.printed(u)[0]
        value = Fraction(max(0, printed - self.hits.get(u, 0)))
        return value / 2 if self.disruption(u) >= 1 else value

    def loss_strength(self, u: str, attacking: bool) -> int:
        """9D.1: the strength Combat Losses are counted on — printed less Hit markers, nothing else."""
        a, d, _ = self.printed(u)
        if attacking and self.cls(u) == "artillery" and self.units[u].bs > 0:
            a = SIZE_ARTILLERY_ATTACK[self.units[u].size]
        return max(0, (a if attacking else d) - self.hits.get(u, 0))

    def defense_strength(self, u: str) -> Fraction:
        """Defense Strength less Hit markers, halved if Badly Disrupted (14); a Dummy counts 0 (1 for overrun odds, 19B.6)."""
        value = Fraction(max(0, self.printed(u)[1] - self.hits.get(u, 0)))
        return value / 2 if self.disruption(u) >= 2 else value

    def bs_strength(self, u: str) -> int:
        return max(0, self.units[u].bs - self.hits.get(u, 0))

    def is_armor(self, u: str) -> bool:
        return self.spec(u).armor

    def is_anti_tank(self, u: str) -> bool:
        return self.spec(u).anti_tank

    # -- zones of control (5A) and ownership (5B) -------------------------------------------------
    def exerts_zoc(self, u: str, h: str) -> bool:
        """Does ``u`` exert a ZOC into ``h`` (5A)? Its own hex always; an adjacent one unless it is a platoon,
        Disrupted, has lost its ZOC, shares its hex with the enemy (9I), or may not enter that hex or cross that hex-side."""
        at = self.where(u)
        if at in NOT_ON_MAP:
            return False
        if at == h:
            return u not in self.no_zoc
        if not hexes.adjacent(at, h) or u in self.no_zoc:
            return False
        if any(self.units[o].side != self.units[u].side for o in self.in_hex(at)):
            return False  # 9I: units in same-hex combat exert no ZOC into adjacent hexes
        unit = self.units[u]
        if unit.size == "platoon" or self.disruption(u) >= 1:
            return False
        cls = self.cls(u)
        if self.board.hex_prohibited(cls, h) and not self.board.road(at, h):
            return False
        return not (self.board.side_prohibited(cls, at, h) and not self.board.road(at, h))

    def zoc_of(self, side: Side, h: str) -> bool:
        """Does any unit of ``side`` exert a ZOC into ``h``?"""
        if not self.board.on_board(h):
            return False
        near = {h, *hexes.neighbours(h)}
        return any(self.units[u].side == side and at in near and self.exerts_zoc(u, h) for u, at in self.locations.items())

    def in_enemy_zoc(self, side: Side, h: str) -> bool:
        return self.zoc_of(enemy_of(side), h)

    def update_ownership(self, around: set[str] | None = None) -> None:
        """5B: a side owns a hex its unit occupies, or into which only its units exert a ZOC; else the last owner keeps it."""
        if around is None:
            around = set()
            for u, at in self.locations.items():
                if at not in NOT_ON_MAP:
                    around |= {at, *hexes.neighbours(at)}
        for h in sorted(around):
            if not self.board.land(h):
                continue
            here = {self.units[u].side for u in self.in_hex(h) if u not in self.no_zoc}
            if len(here) == 1:
                self.owner[h] = next(iter(here))
                continue
            if here:
                continue
            us, jp = self.zoc_of("US", h), self.zoc_of("JP", h)
            if us != jp:
                self.owner[h] = "US" if us else "JP"

    # -- stacking (8) -------------------------------------------------------------------
    def stack_ok(self, h: str, side: Side, extra: list[str] = (), leaving: set[str] = frozenset()) -> bool:
        """8: the units of ``side`` in ``h`` (with ``extra`` added and ``leaving`` gone) within the hex's limit,
        artillery SPs using the additional artillery allowance first."""
        units = [u for u in self.in_hex(h, side) if u not in leaving] + [u for u in extra if u not in self.in_hex(h, side)]
        return self.fits(h, units)

    def fits(self, h: str, units: list[str]) -> bool:
        limit = self.board.limit(h)
        artillery = sum(self.sp(u) for u in units if self.cls(u) == "artillery")
        other = sum(self.sp(u) for u in units if self.cls(u) != "artillery")
        beyond = max(0, artillery - limit.artillery_sp)
        return other + beyond <= limit.sp

    # -- removing units --------------------------------------------------------------------
    def eliminate(self, u: str, *, permanently: bool = False) -> None:
        """9D.3 to the Replacement Pool, or 6B.2b out of play; a U.S. unit eliminated adds to the Casualty Points (20)."""
        self.locations[u] = REMOVED if permanently else ELIMINATED
        if self.units[u].side == "US":
            self.casualties += self.cp_per_unit
        self.reserve.discard(u)
        self.disrupted.pop(u, None)
        if self.exposed is not None:
            self.exposed.discard(u)

    def frozen(self) -> LegionState:
        """The worked position as a new :class:`LegionState`."""
        return self.state.model_copy(update={
            "locations": dict(self.locations),
            "hits": {u: n for u, n in sorted(self.hits.items()) if n and self.on_map(u)},
            "ci": frozenset(self.ci),
            "disrupted": {u: n for u, n in sorted(self.disrupted.items()) if n and self.on_map(u)},
            "fired": frozenset(u for u in self.fired if self.on_map(u)),
            "defended": dict(sorted(self.defended.items())),
            "reserve": frozenset(u for u in self.reserve if self.on_map(u)),
            "owner": dict(sorted(self.owner.items())),
            "casualties": self.casualties,
            "exposed": frozenset(self.exposed) if self.exposed is not None else None,
        })

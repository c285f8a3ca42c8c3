"""Hypothesis strategies: random boards, positions and orders in the engine's own models."""

from __future__ import annotations

from hypothesis import strategies as st

from pbem.engine import hexes
from pbem.engine.board import Board
from pbem.model.map import MapSpec
from pbem.model.orders import Advance, Attack, Move, Orders, Route
from pbem.model.state import GameState, Position
from pbem.model.units import Unit

TERRAINS = ["clear", "clear", "clear", "town", "broken", "rough", "mountain"]
KINDS = ["infantry", "infantry", "cavalry", "engineer", "recon", "armor", "artillery"]


@st.composite
def boards(draw, min_size=5, max_size=9) -> MapSpec:
    cols = draw(st.integers(min_size, max_size))
    rows = draw(st.integers(min_size, max_size))
    all_hexes = [hexes.hex_id(c, r) for c in range(1, cols + 1) for r in range(1, rows + 1)]
    terrain = {h: draw(st.sampled_from(TERRAINS)) for h in draw(st.lists(st.sampled_from(all_hexes), max_size=cols * rows // 2, unique=True))}
    sea = draw(st.lists(st.sampled_from(all_hexes), max_size=4, unique=True))
    pairs = [(a, b) for a in all_hexes for b in hexes.neighbours(a) if a < b and b in all_hexes]
    rivers = draw(st.lists(st.sampled_from(pairs), max_size=8, unique=True))
    prohibited = draw(st.lists(st.sampled_from(pairs), max_size=4, unique=True))
    roads = draw(st.lists(st.sampled_from(pairs), max_size=8, unique=True))
    trails = draw(st.lists(st.sampled_from(pairs), max_size=6, unique=True))
    beaches = draw(st.lists(st.sampled_from(all_hexes), max_size=3, unique=True))
    edges = draw(st.lists(st.sampled_from(all_hexes), max_size=3, unique=True))
    return MapSpec(
        cols=cols, rows=rows, terrain=terrain, sea=sea,
        rivers=[list(p) for p in rivers], prohibited=[list(p) for p in prohibited],
        roads=[list(p) for p in roads], trails=[list(p) for p in trails],
        beaches=beaches, edges=edges,
    )


@st.composite
def units(draw, uid: str, side: str) -> Unit:
    kind = draw(st.sampled_from(KINDS))
    small = st.integers(0, 8)
    if kind == "artillery":
        return Unit(id=uid, side=side, kind=kind, barrage=draw(small), fpf=draw(small), range=draw(st.integers(1, 6)), defense=draw(small), move=draw(st.integers(0, 6)))
    return Unit(id=uid, side=side, kind=kind, attack=draw(small), defense=draw(small), move=draw(st.integers(0, 8)))


@st.composite
def positions(draw, max_units=8) -> tuple[MapSpec, GameState]:
    spec = draw(boards())
    board = Board(spec)
    land = [h for h in board.all_hexes if board.land(h)]
    count = draw(st.integers(2, min(max_units, len(land))))
    places = draw(st.lists(st.sampled_from(land), min_size=count, max_size=count, unique=True))
    roster = []
    locations = {}
    for i, hex_id in enumerate(places):
        side = "US" if i % 2 == 0 else "JP"
        unit = draw(units(f"{side.lower()}-{i}", side))
        roster.append(unit)
        locations[unit.id] = hex_id
    phasing = draw(st.sampled_from(["US", "JP"]))
    phase = draw(st.sampled_from(["movement", "combat"]))
    gsp = {"US": draw(st.integers(0, 4)), "JP": draw(st.integers(0, 4))}
    state = GameState(position=Position(turn=1, phasing=phasing, phase=phase, gsp=gsp), units=tuple(roster), locations=locations)
    return spec, state


@st.composite
def random_walks(draw, start: str, hex_ids: list[str], max_steps: int = 5) -> list[str]:
    """Up to ``max_steps`` hexes, each a neighbour of the one before or, half the time, any hex at all."""
    path, here = [], start
    for _ in range(draw(st.integers(0, max_steps))):
        here = draw(st.sampled_from(hexes.neighbours(here) if draw(st.booleans()) else hex_ids))
        path.append(here)
    return path


@st.composite
def orders_for(draw, spec: MapSpec, state: GameState) -> Orders:
    """Orders that are often wrong: random walks, random attackers and defenders, unknown ids."""
    ids = [u.id for u in state.units] + ["nobody"]
    hex_ids = [hexes.hex_id(c, r) for c in range(1, spec.cols + 2) for r in range(1, spec.rows + 2)]
    moves = []
    for uid in draw(st.lists(st.sampled_from(ids), max_size=4)):
        start = state.locations.get(uid, "0101")
        path = draw(random_walks(start if start not in ("offmap", "eliminated") else "0101", hex_ids))
        moves.append(Move(unit=uid, path=path))
    attacks = []
    for _ in range(draw(st.integers(0, 3))):
        attacks.append(
            Attack(
                attackers=draw(st.lists(st.sampled_from(ids), max_size=3)),
                barrage=draw(st.lists(st.sampled_from(ids), max_size=2)),
                gsp=draw(st.integers(0, 3)),
                defenders=draw(st.lists(st.sampled_from(ids), min_size=1, max_size=2)),
                banzai=draw(st.booleans()),
                advance=[Advance(unit=u, to=draw(st.integers(1, 3))) for u in draw(st.lists(st.sampled_from(ids), max_size=2))],
                retreats=[Route(unit=u, path=draw(st.lists(st.sampled_from(hex_ids), max_size=3))) for u in draw(st.lists(st.sampled_from(ids), max_size=1))],
            )
        )
    return Orders(moves=moves, attacks=attacks)


@st.composite
def valid_attack_orders(draw, spec: MapSpec, state: GameState) -> Orders:
    """Attacks meeting 7.11-7.23 on a combat-phase position, when the position allows it.

    Phasing units with the same set of adjacent enemies attack them together;
    distant artillery may add a barrage, Ground Support may be added, and
    advances are ordered at random depths.  Callers ``assume`` the result is valid.
    """
    from pbem.engine.placement import Placement

    placement = Placement(state.unit_index(), state.locations)
    phasing = state.position.phasing
    groups: dict[tuple[str, ...], list[str]] = {}
    for p in placement.units_of(phasing):
        enemies = tuple(sorted(placement.adjacent_enemies(placement.where(p), phasing)))
        if enemies:
            groups.setdefault(enemies, []).append(p)
    gsp_left = state.position.gsp_of(phasing)
    used = {u for members in groups.values() for u in members}
    attacks = []
    for defenders, attackers in groups.items():
        barrage = []
        for a in placement.units_of(phasing):
            unit = placement.units[a]
            if a in used or not unit.is_artillery:
                continue
            if any(hexes.distance(placement.where(a), placement.where(d)) <= unit.range for d in defenders) and draw(st.booleans()):
                barrage.append(a)
                used.add(a)
        gsp = draw(st.integers(0, gsp_left))
        gsp_left -= gsp
        advance = [Advance(unit=u, to=draw(st.integers(1, 3))) for u in attackers if draw(st.booleans())]
        attacks.append(Attack(attackers=attackers, barrage=barrage, gsp=gsp, defenders=list(defenders), banzai=phasing == "JP" and draw(st.booleans()), advance=advance))
    draw(st.randoms()).shuffle(attacks)
    return Orders(attacks=attacks)


# -- reinforcements, rulesets and orders that name them (for the I20 metamorphic tests) --

@st.composite
def rulesets(draw):
    from pbem.model.ruleset import Ruleset

    return Ruleset(edition=draw(st.sampled_from(["dg-2009", "spi-1975"])), exclusive=draw(st.sampled_from([None, "leyte"])))


@st.composite
def positions_with_reinforcements(draw, max_units=9) -> tuple[MapSpec, GameState]:
    """As :func:`positions`, but some units wait off the map (beach, edge or air assault) and some are gone."""
    spec, state = draw(positions(max_units=max_units))
    roster, locations = [], dict(state.locations)
    for unit in state.units:
        fate = draw(st.sampled_from(["on", "on", "on", "offmap", "eliminated"]))
        if fate == "offmap":
            kind = "airassault" if draw(st.booleans()) and not unit.is_artillery else unit.kind
            entry = draw(st.sampled_from(["beach", "edge", None]))
            unit = unit.model_copy(update={"kind": kind, "entry": entry})
        if fate != "on":
            locations[unit.id] = fate
        roster.append(unit)
    return spec, state.model_copy(update={"units": tuple(roster), "locations": locations})


@st.composite
def entering_orders_for(draw, spec: MapSpec, state: GameState) -> Orders:
    """:func:`orders_for`, with an ``enter`` hex (beach, edge or any) for most moves of units off the map."""
    orders = draw(orders_for(spec, state))
    on_board = [hexes.hex_id(c, r) for c in range(1, spec.cols + 1) for r in range(1, spec.rows + 1)]
    places = spec.beaches + spec.edges + on_board
    moves = []
    for m in orders.moves:
        if state.locations.get(m.unit) == "offmap" and draw(st.integers(0, 3)):
            enter = draw(st.sampled_from(places))
            m = Move(unit=m.unit, enter=enter, path=draw(random_walks(enter, on_board, max_steps=3)))
        moves.append(m)
    return orders.model_copy(update={"moves": moves})

"""Seeded random Legion positions and orders, for the property tests of tests/test_legion_properties.py.

A small island of random terrain (the shipped Terrain Effects Chart's hex
lines), a few steep hex-sides and a road, two small forces facing each
other, and orders of every kind built half at random: moves that may or may
not be legal, attacks by adjacent units on enemy hexes, Support, Overruns.
Built with :class:`random.Random` from a seed alone.
"""

from __future__ import annotations

import random

from pbem.engine import hexes
from pbem.systems.legion.board import LegionBoard
from pbem.systems.legion.board_model import LegionMap
from pbem.systems.legion.counters import Counter, Reverse
from pbem.systems.legion.files import DATA, charts_from
from pbem.systems.legion.orders import LegionAttack, LegionMove, LegionOrders
from pbem.systems.legion.state import LegionPosition, LegionState
from pbem.systems.legion.table import Table

CHARTS, _ = charts_from({n: f"{n}.json" for n in (
    "unit-types", "stacking", "terrain", "zoc", "fire", "assault", "retreat-before-combat", "banzai", "bombardment", "disruption")}, DATA / "charts", "shipped")
TERRAINS = ("clear", "clear", "clear", "rough", "jungle", "town", "mountain", "swamp", "airfield")
TYPES = ("infantry", "infantry", "infantry", "engineer", "tank", "light-tank", "recon", "anti-tank", "artillery")
COLS, ROWS = 8, 7


def board(rng: random.Random) -> LegionBoard:
    cells = [hexes.hex_id(c, r) for c in range(1, COLS + 1) for r in range(1, ROWS + 1)]
    terrain = {h: [rng.choice(TERRAINS)] for h in cells if rng.random() < 0.6}
    for h in rng.sample(cells, 3):
        terrain[h] = ["town", "jungle"]
    sides = []
    for h in rng.sample(cells, 4):
        n = rng.choice(hexes.neighbours(h))
        if n in cells:
            sides.append({"feature": rng.choice(("steep", "steep", "cliff")), "hexes": [h, n]})
    road = [hexes.hex_id(1, 3)]
    while len(road) < 7:
        options = [n for n in hexes.neighbours(road[-1]) if n in cells and n not in road and hexes.parse(n)[0] >= hexes.parse(road[-1])[0]]
        if not options:
            break
        road.append(rng.choice(options))
    spec = LegionMap(cols=COLS, rows=ROWS, terrain=terrain, hexsides=sides, roads=[road] if len(road) > 1 else [])
    return LegionBoard(spec, CHARTS)


def counter(rng: random.Random, uid: str, side: str) -> Counter:
    kind = rng.choice(TYPES)
    size = rng.choice(("battalion", "battalion", "company", "platoon"))
    if kind == "artillery":
        return Counter(id=uid, side=side, type=kind, size="battalion", defense=rng.randint(1, 3), move=rng.randint(2, 4), bs=rng.randint(2, 8), range=rng.randint(3, 8))
    attack, defense = rng.randint(0, 8), rng.randint(1, 8)
    extra = {}
    if side == "US" and kind == "infantry" and attack >= 4 and defense >= 4 and rng.random() < 0.5:
        extra = {"ci": 2, "reverse": Reverse(attack=2, defense=3, move=4)}
    return Counter(id=uid, side=side, type=kind, size=size, attack=attack, defense=defense,
                   move=rng.randint(1, 8), rbc=kind == "recon", **extra)


def position(rng: random.Random) -> tuple[LegionBoard, LegionState]:
    b = board(rng)
    units = []
    locations = {}
    table_units = {}
    for side, cols in (("US", (1, 2, 3, 4)), ("JP", (4, 5, 6, 7))):
        for i in range(rng.randint(3, 7)):
            c = counter(rng, f"{side.lower()}-{i}", side)
            units.append(c)
            table_units[c.id] = c
    phase = rng.choice(("movement", "movement", "combat", "exploitation", "night"))
    state = LegionState(position=LegionPosition(turn=1, phasing="JP" if phase == "night" else rng.choice(("US", "JP")), phase=phase),
                        units=tuple(units), locations={}, exposed=frozenset() if rng.random() < 0.5 else None)
    table = Table(b, state)
    for c in units:
        cols = (2, 3, 4) if c.side == "US" else (4, 5, 6)
        for _ in range(30):
            h = hexes.hex_id(rng.choice(cols), rng.randint(1, ROWS))
            cls = CHARTS.unit_types.types[c.type].unit_class
            enemy_here = any(table.units[u].side != c.side for u in table.in_hex(h))
            if not b.hex_prohibited(cls, h) and not enemy_here and table.fits(h, table.in_hex(h) + [c.id]):
                table.locations[c.id] = h
                break
        else:
            table.locations[c.id] = "eliminated"
    hits = {u: rng.randint(0, 1) for u in table.units if rng.random() < 0.3 and table.printed(u)[1] > 1}
    disrupted = {u: rng.choice((1, 1, 2)) for u in table.units if rng.random() < 0.15}
    locations = dict(table.locations)
    state = state.model_copy(update={"locations": locations, "hits": hits, "disrupted": disrupted})
    t = Table(b, state)
    t.update_ownership()
    return b, t.frozen()


def orders(rng: random.Random, b: LegionBoard, state: LegionState) -> LegionOrders:
    table = Table(b, state)
    side = state.position.phasing
    mine = table.side_units(side)
    moves, attacks = [], []
    moving = [u for u in mine if rng.random() < 0.3]
    for u in moving:
        here = table.where(u)
        contact = [n for n in hexes.neighbours(here) if any(table.units[e].side != side for e in table.in_hex(n))]
        if contact and rng.random() < 0.5:
            moves.append(LegionMove(units=[u], path=[contact[0]], overruns=[contact[0]]))
            continue
        path = []
        for _ in range(rng.randint(1, 2)):
            options = [n for n in b.neighbours(here) if n not in path]
            if not options:
                break
            here = rng.choice(options)
            path.append(here)
        if path:
            overruns = [h for h in path if any(table.units[e].side != side for e in table.in_hex(h))]
            moves.append(LegionMove(units=[u], path=path, overruns=overruns))
    phase = state.position.phase
    if phase != "exploitation":
        targets = sorted({table.where(e) for e in table.side_units("JP" if side == "US" else "US")})
        used: set[str] = set()
        for t in targets:
            near = [u for u in mine if u not in used and u not in moving and hexes.adjacent(table.where(u), t)]
            if not near or rng.random() < 0.15:
                continue
            chosen = rng.sample(near, rng.randint(1, len(near)))
            used.update(chosen)
            support = [a for a in mine if a not in used and table.units[a].bs and rng.random() < 0.5][:1]
            used.update(support)
            kind = "assault" if phase == "night" else rng.choice(("fire", "assault", "assault"))
            attacks.append(LegionAttack(type=kind, target=t, attackers=chosen, support=support if kind == "assault" else [],
                                        banzai=side == "JP" and kind == "assault" and rng.random() < 0.3,
                                        advance=chosen[:1] if kind == "assault" else []))
    if phase == "movement":
        return LegionOrders(moves=moves, attacks=attacks)
    if phase == "combat":
        return LegionOrders(attacks=attacks)
    if phase == "night":
        return LegionOrders(exploitation=moves, attacks=attacks)
    return LegionOrders(exploitation=moves)

"""Seeded random player-turns whose orders are legal: for the engine comparison test and the benchmark.

A position is two armies facing each other across a ragged front on a map
of random terrain, rivers, sea and prohibited hexsides, with artillery on
both sides so that Final Protective Fire, retreats through crowded hexes and
displacement chains all happen.  Orders are built to be legal (7.11-7.23,
8.31-8.32, 9.1, 5.31): every enemy in contact is attacked once by units
that touch it, an enemy whose neighbours all attack elsewhere is taken off
the board, quiet units step one hex to a safe vacant hex, distant artillery
may add a barrage or fire one alone.

Generated with :class:`random.Random` from a seed alone, so that a seed
names the same turn on every machine and every Python version.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from pbem.engine import hexes
from pbem.engine.board import Board
from pbem.engine.placement import Placement
from pbem.model.defense import Defense, FpfChoice, GspFpf
from pbem.model.map import MapSpec
from pbem.model.orders import Advance, Attack, Move, Orders, Route
from pbem.model.ruleset import Ruleset
from pbem.model.state import GameState, Position
from pbem.model.units import Unit

KINDS = ("infantry", "infantry", "infantry", "cavalry", "engineer", "armor", "artillery", "artillery")
TERRAINS = ("clear", "clear", "town", "broken", "broken", "rough", "mountain")


@dataclass(frozen=True)
class Turn:
    """One player-turn to adjudicate: everything :func:`~pbem.engine.adjudicator.adjudicate` takes."""

    spec: MapSpec
    ruleset: Ruleset
    state: GameState
    orders: Orders
    dice: tuple[int, ...]
    defense: Defense | None


def _map(rng: random.Random, cols: int, rows: int) -> MapSpec:
    every = [hexes.hex_id(c, r) for c in range(1, cols + 1) for r in range(1, rows + 1)]
    pairs = [(a, b) for a in every for b in hexes.neighbours(a) if a < b and int(b[:2]) <= cols and int(b[2:]) <= rows]
    terrain = {h: rng.choice(TERRAINS) for h in every if rng.random() < 0.45}
    sea = [h for h in every if rng.random() < 0.03]
    return MapSpec(
        cols=cols, rows=rows, terrain=terrain, sea=sea,
        rivers=[list(p) for p in rng.sample(pairs, len(pairs) // 25)],
        prohibited=[list(p) for p in rng.sample(pairs, len(pairs) // 60)],
        roads=[list(p) for p in rng.sample(pairs, len(pairs) // 30)],
    )


def _unit(rng: random.Random, uid: str, side: str) -> Unit:
    kind = rng.choice(KINDS)
    if kind == "artillery":
        return Unit(id=uid, side=side, kind=kind, barrage=rng.randint(1, 6), fpf=rng.randint(1, 5), range=rng.randint(2, 6), defense=rng.randint(1, 3), move=rng.randint(3, 6))
    return Unit(id=uid, side=side, kind=kind, attack=rng.randint(1, 8), defense=rng.randint(1, 6), move=rng.randint(4, 8))


def _place(rng: random.Random, board: Board, count: int) -> tuple[list[Unit], dict[str, str]]:
    """Each side in its own zone, the zones winding into each other, most units near the line between them."""
    waves = [(rng.uniform(0.2, 0.9), rng.uniform(0.2, 0.9), rng.uniform(0, 6.3)) for _ in range(3)]

    def japanese(h: str) -> bool:
        c, r = hexes.parse(h)
        return (c - board.cols / 2) / 3 + sum(math.cos(a * c + b * r + p) for a, b, p in waves) > 0

    land = [h for h in board.all_hexes if board.land(h)]
    zones = {"JP": [h for h in land if japanese(h)], "US": [h for h in land if not japanese(h)]}
    near_line = {h: sum(japanese(n) != japanese(h) for n in board.neighbours(h)) for h in land}
    taken: set[str] = set()
    units, where = [], {}
    for i in range(count):
        side = "US" if i % 2 == 0 else "JP"
        pool = zones[side] or land
        free = [h for h in rng.sample(pool, min(len(pool), 8)) if h not in taken]
        if not free:
            continue
        h = max(free, key=lambda x: near_line[x] + rng.random() * 2)
        taken.add(h)
        unit = _unit(rng, f"{side.lower()}-{i}", side)
        units.append(unit)
        where[unit.id] = h
    return units, where


def _contacts(placement: Placement, phasing: str) -> dict[str, set[str]]:
    return {
        p: set(placement.adjacent_enemies(placement.where(p), phasing))
        for p in placement.units_of(phasing)
        if placement.adjacent_enemies(placement.where(p), phasing)
    }


def _enemy(side: str) -> str:
    return "JP" if side == "US" else "US"


def _moves(rng: random.Random, board: Board, placement: Placement, phasing: str) -> list[Move]:
    """Quiet units step one hex to a vacant hex out of enemy control (5.1-5.3, 6.0)."""
    moves, claimed = [], set()
    for u in placement.units_of(phasing):
        here = placement.where(u)
        unit = placement.units[u]
        if placement.in_enemy_zoc(here, phasing) or rng.random() < 0.5:
            continue
        options = [
            n for n in board.neighbours(here)
            if board.passable(here, n) and placement.vacant(n) and n not in claimed
            and not placement.in_enemy_zoc(n, phasing) and board.step_cost(here, n) <= unit.move
            and (unit.kind != "armor" or board.armor_may_enter(here, n))
        ]
        if options:
            to = rng.choice(options)
            claimed.add(to)
            moves.append(Move(unit=u, path=[to]))
    return moves


def _attacks(rng: random.Random, placement: Placement, phasing: str, gsp: int, ruleset: Ruleset) -> list[Attack]:
    """Every enemy in contact attacked once, every phasing unit in contact attacking once (7.11-7.23).

    A unit touching several enemies attacks one of them; two defenders are
    attacked together when every attacker touches both.  Artillery out of
    contact may barrage an attacked hex or, alone, one out of contact (8.13).
    """
    contacts = _contacts(placement, phasing)
    enemies = sorted({e for es in contacts.values() for e in es})
    rng.shuffle(enemies)
    groups: list[tuple[list[str], list[str]]] = []
    assigned: set[str] = set()
    for e in enemies:
        free = [p for p in sorted(contacts) if e in contacts[p] and p not in assigned]
        if not free:
            continue  # unattackable as the others were assigned: removed by the caller
        chosen = rng.sample(free, rng.randint(1, len(free)))
        assigned.update(chosen)
        groups.append(([e], chosen))
    for p in sorted(contacts):
        if p not in assigned:
            rng.choice([g for g in groups if g[0][0] in contacts[p]])[1].append(p)
    merged: list[tuple[list[str], list[str]]] = []
    for defenders, attackers in groups:
        partner = next((m for m in merged if len(m[0]) == 1 and all(set(defenders + m[0]) <= contacts[a] for a in attackers + m[1])), None)
        if partner is not None and rng.random() < 0.5:
            partner[0].extend(defenders)
            partner[1].extend(attackers)
        else:
            merged.append((defenders, attackers))
    guns = [a for a in placement.units_of(phasing) if placement.units[a].is_artillery and a not in contacts]
    targets = [e for e in placement.units_of(_enemy(phasing)) if e not in enemies and rng.random() < 0.15]
    merged += [([e], []) for e in targets]
    attacks = []
    for defenders, attackers in merged:
        barrage = []
        for a in guns:
            unit = placement.units[a]
            if rng.random() < 0.5 and len({placement.where(d) for d in defenders}) == 1 and hexes.distance(placement.where(a), placement.where(defenders[0])) <= unit.range:
                barrage.append(a)
        guns = [a for a in guns if a not in barrage]
        if not attackers and not barrage:
            continue
        points = rng.randint(0, min(gsp, 2))
        gsp -= points
        banzai = phasing == "JP" and rng.random() < 0.3 and any(placement.units[a].kind in ("infantry", "engineer") for a in attackers)
        advance = [Advance(unit=a, to=rng.randint(1, 3)) for a in attackers if rng.random() < 0.5]
        losses = rng.sample(attackers, len(attackers)) if banzai and not ruleset.dg else []
        attacks.append(Attack(attackers=attackers, barrage=barrage, gsp=points, defenders=defenders, banzai=banzai, banzai_losses=losses, advance=advance))
    rng.shuffle(attacks)
    return attacks


def _defense(rng: random.Random, board: Board, placement: Placement, defending: str, attacks: list[Attack]) -> Defense | None:
    """Standing choices now and then, some of them illegal when their moment comes."""
    if rng.random() < 0.6:
        return None
    defenders = [d for a in attacks for d in a.defenders]
    guns = [u for u in placement.units_of(defending) if placement.units[u].is_artillery]
    fpf = [FpfChoice(artillery=rng.choice(guns), defender=rng.choice(defenders)) for _ in range(rng.randint(0, 4))] if guns and defenders else []
    advances = [Advance(unit=d, to=rng.randint(1, 2)) for d in rng.sample(defenders, min(len(defenders), 3))]
    retreats = []
    for d in rng.sample(defenders, min(len(defenders), 3)):
        path, here = [], placement.where(d)
        for _ in range(rng.randint(1, 3)):
            here = rng.choice(board.neighbours(here))
            path.append(here)
        retreats.append(Route(unit=d, path=path))
    gsp_fpf = [GspFpf(defender=d, points=rng.randint(1, 2)) for d in rng.sample(defenders, min(len(defenders), 2))]
    return Defense(
        fpf=fpf if rng.random() < 0.7 else None,
        gsp_fpf=gsp_fpf if rng.random() < 0.5 else None,
        retreats=retreats if rng.random() < 0.7 else None,
        advances=advances if rng.random() < 0.5 else None,
    )


def _gsp_alone(seed: int, placement: Placement, phasing: str, attacks: list[Attack]) -> list[Attack]:
    """Ground Support Points attacking alone (9.0-9.13): one to three attacks on enemies out of contact, each at one
    hex or at two, with 1 to 3 points each.  Drawn from a generator of their own, so that every other part of the
    turn a seed names stays as it was (the recorded outcomes of :mod:`tests.test_engine_equivalence`)."""
    rng = random.Random(f"gsp-alone:{seed}")
    touched = {e for es in _contacts(placement, phasing).values() for e in es}
    attacked = {d for a in attacks for d in a.defenders}
    free = [e for e in placement.units_of(_enemy(phasing)) if e not in touched and e not in attacked]
    rng.shuffle(free)
    added = []
    for _ in range(rng.randint(1, 3)):
        take = rng.choice((1, 2))
        if len(free) < take:
            break
        defenders, free = free[:take], free[take:]
        added.append(Attack(attackers=[], barrage=[], gsp=rng.randint(1, 3), defenders=defenders))
    return added


def random_turn(seed: int, cols: int, rows: int, count: int, *, ruleset: Ruleset | None = None, choices: bool = True,
                gsp_alone: bool = False) -> Turn:
    """The player-turn named by ``seed``: ``count`` units (fewer after thinning) on a ``cols`` x ``rows`` map.

    ``gsp_alone`` adds Ground Support Points attacking alone, at one hex or two (:func:`_gsp_alone`), and the points
    they use to the phasing side's allotment; the map, units, moves and other attacks are those the seed names without it."""
    rng = random.Random(seed)
    spec = _map(rng, cols, rows)
    board = Board(spec)
    if ruleset is None:
        ruleset = Ruleset(edition=rng.choice(["dg-2009", "spi-1975"]), exclusive=rng.choice(["leyte", None]))
    phasing = rng.choice(["US", "JP"])
    units, where = _place(rng, board, count)
    index = {u.id: u for u in units}
    placement = Placement(index, where)
    phase = rng.choice(["movement", "movement", "combat"])
    moves = _moves(rng, board, placement, phasing) if phase == "movement" else []
    after = placement.copy()
    for m in moves:
        after.move(m.unit, m.path[-1])
    gsp = {"US": rng.randint(0, 6), "JP": rng.randint(0, 3)}
    attacks = _attacks(rng, after, phasing, gsp[phasing], ruleset)
    attacked = {d for a in attacks for d in a.defenders}
    unattacked = {e for es in _contacts(after, phasing).values() for e in es} - attacked
    if unattacked:  # enemies every neighbour of which attacks elsewhere: off the board (7.11)
        where = {u: h for u, h in where.items() if u not in unattacked}
        after = Placement(index, {u: h for u, h in after.locations().items() if u not in unattacked})
    if gsp_alone:
        alone = _gsp_alone(seed, after, phasing, attacks)
        attacks = attacks + alone
        gsp[phasing] += sum(a.gsp for a in alone)
    guns = [u.id for u in units if u.is_artillery and u.side != phasing]
    no_fpf = frozenset(g for g in guns if rng.random() < 0.1)
    state = GameState(position=Position(turn=1, phasing=phasing, phase=phase, gsp=gsp), units=tuple(units), locations={u.id: where.get(u.id, "eliminated") for u in units}, no_fpf=no_fpf)
    defense = _defense(rng, board, after, _enemy(phasing), attacks) if choices else None
    dice = tuple(rng.randint(1, 6) for _ in attacks[:len(attacks) - len(alone)]) if gsp_alone else tuple(rng.randint(1, 6) for _ in attacks)
    if gsp_alone:
        extra = random.Random(f"gsp-alone-dice:{seed}")
        dice += tuple(extra.randint(1, 6) for _ in alone)
    return Turn(spec, ruleset, state, Orders(moves=moves, attacks=attacks), dice, defense)

"""Simple scripted orders for whole Leyte games: deterministic, and never in contact unless the set-up is.

A scripted side places reinforcements on free entry hexes out of enemy
control, walks a few named units toward named hexes along the cheapest
route that never enters an enemy zone of control (so no new contact ever
arises), exits where told, and makes only the attacks the rules force
(7.11, 7.12) — one defender per attack, every unit in contact used.
"""

from __future__ import annotations

import heapq
from fractions import Fraction

from pbem.engine import hexes
from pbem.engine.board import Board
from pbem.engine.matching import augment
from pbem.model.common import NOT_ON_MAP


def _where(view: dict) -> dict[str, str]:
    return {u: h for u, h in view["state"]["locations"].items() if h not in NOT_ON_MAP}


def _units(view: dict) -> dict[str, dict]:
    return {u["id"]: u for u in view["state"]["units"]}


def enemy_zoc(view: dict, side: str) -> set[str]:
    units, where = _units(view), _where(view)
    zoc = set()
    for uid, h in where.items():
        if units[uid]["side"] != side:
            zoc.update(hexes.neighbours(h))
    return zoc


def route(board: Board, view: dict, start: str, goal: str, allowance: int, blocked: set[str]) -> list[str]:
    """The hexes a unit enters this turn along the cheapest path to ``goal`` that avoids ``blocked``."""
    best = {start: (Fraction(0), [])}
    queue = [(Fraction(0), start, [])]
    while queue:
        cost, here, path = heapq.heappop(queue)
        if here == goal:
            break
        if cost > best[here][0]:
            continue
        for nxt in board.neighbours(here):
            if not board.passable(here, nxt) or nxt in blocked:
                continue
            c = cost + board.step_cost(here, nxt)
            if nxt not in best or c < best[nxt][0]:
                best[nxt] = (c, path + [nxt])
                heapq.heappush(queue, (c, nxt, path + [nxt]))
    if goal not in best:
        return []
    full = best[goal][1]
    taken, spent, prev = [], Fraction(0), start
    for h in full:
        spent += board.step_cost(prev, h)
        if spent > allowance:
            break
        taken.append(h)
        prev = h
    return taken


def forced_attacks(view: dict) -> list[dict]:
    """Attacks the rules force (7.11, 7.12, 7.21), each unit used once (7.14), every attacker next to all its defenders (7.23).

    A maximum matching gives every enemy in contact an attacker of its own
    where it can; an enemy left over joins an attack whose attackers all
    touch it; an own unit left over joins an attack whose defenders it all touches.
    """
    side = view["side"]
    units, where = _units(view), _where(view)
    mine = [u for u in where if units[u]["side"] == side]
    theirs = [u for u in where if units[u]["side"] != side]
    touch = {u: [e for e in theirs if hexes.adjacent(where[u], where[e])] for u in mine}
    touched_by = {e: [u for u in mine if e in touch[u]] for e in theirs}
    match: dict[str, str] = {}  # own unit -> enemy
    for e in theirs:
        augment(e, touched_by, match)
    attacks = {e: {"attackers": [u], "defenders": [e]} for u, e in match.items()}
    for e in theirs:
        if touched_by[e] and e not in attacks:
            host = next((a for a in attacks.values() if all(hexes.adjacent(where[x], where[e]) for x in a["attackers"])), None)
            if host is not None:
                host["defenders"].append(e)
    for u in mine:
        if touch[u] and u not in match:
            host = next((a for a in attacks.values() if all(hexes.adjacent(where[u], where[d]) for d in a["defenders"])), None)
            if host is not None:
                host["attackers"].append(u)
    return list(attacks.values())


def scripted_orders(board: Board, view: dict, plan: dict[str, tuple[str, bool]], land: int = 99) -> dict:
    """Orders for ``view``'s side: ``plan`` maps a unit id to (goal hex, exit there?)."""
    side = view["side"]
    units, where = _units(view), _where(view)
    zoc = enemy_zoc(view, side)
    taken = set(where.values())
    moves = []
    for uid, (goal, leave) in plan.items():
        if uid not in where or where[uid] in zoc:
            continue
        blocked = zoc | (taken - {where[uid]}) | set(board.closed.get(side, ()))
        path = route(board, view, where[uid], goal, units[uid]["move"] - (1 if leave else 0), blocked)
        # a move ends on a free hex; exit only from the goal itself
        while path and path[-1] in taken:
            path.pop()
        if not path:
            continue
        taken.discard(where[uid])
        taken.add(path[-1])
        move = {"unit": uid, "path": path}
        if leave and path[-1] == goal:
            move["exit"] = True
            taken.discard(goal)
        moves.append(move)
    offmap = [u for u, h in view["state"]["locations"].items() if h == "offmap" and units[u]["side"] == side]
    for uid in offmap[:land]:
        unit = units[uid]
        if unit["kind"] == "airassault":
            choices = sorted(h for h in board.all_hexes if board.land(h))
        else:
            choices = sorted(board.entry_hexes(unit.get("entry")) or ())
        free = [h for h in choices if h not in taken and h not in zoc and h not in board.closed.get(side, ())]
        if unit["kind"] == "armor":
            free = [h for h in free if board.armor_may_be_placed(h)]
        if free:
            moves.append({"unit": uid, "enter": free[0], "path": []})
            taken.add(free[0])
    return {"moves": moves, "attacks": forced_attacks(view)}

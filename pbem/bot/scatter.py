"""The random policy: legal orders drawn at random, for shaking the engine.

Each unit stays or goes to a hex drawn from everywhere it can reach; each
reinforcement comes in or is held back; the forced attacks are formed with
random choices; idle batteries in range barrage a random target; Ground
Support Points and Banzai are scattered over the attacks.  Nothing here
aims to win — only to reach the corners of the rules a careful player
never would.
"""

from __future__ import annotations

import random

from pbem.bot.contact import Group, mandatory_attacks
from pbem.bot.odds import Attackers
from pbem.bot.orders import Plan
from pbem.bot.reach import reach_of, reinforcement_reach
from pbem.bot.sight import Sight
from pbem.engine import hexes
from pbem.engine.engagement import BANZAI_KINDS

STAY = 0.3
HOLD_BACK = 0.3


def random_plan(sight: Sight, rng: random.Random) -> Plan:
    plan = Plan.standing(sight)
    for u in sight.mine + sight.waiting:
        reinforcement = u in sight.waiting
        if rng.random() < (HOLD_BACK if reinforcement else STAY):
            continue
        reach = reinforcement_reach(sight, u) if reinforcement else reach_of(sight, u)
        options = [h for h in reach.hexes() if plan.occupant(h) in (None, u)]
        if not options:
            continue
        h = rng.choice(options)
        if not reinforcement and h == sight.where[u]:
            continue
        enter, path = reach.path(h)
        plan.move(u, enter, path)
        if sight.side in sight.board.exits.get(h, ()) and h not in sight.enemy_zoc and rng.random() < 0.5:
            plan.exits.add(u)

    plan.attacks = mandatory_attacks(sight, plan.final, lambda _, options: rng.choice(options))
    attacking = {a for g in plan.attacks for a in g.attackers.adjacent}
    for b in sight.mine:
        unit = sight.units[b]
        here = plan.final[b]
        if not unit.is_artillery or b in attacking or here in sight.enemy_zoc or rng.random() < 0.3:
            continue
        targets = [e for e in sight.theirs if hexes.distance(here, sight.where[e]) <= unit.range]
        if not targets:
            continue
        target = rng.choice(targets)
        joined = next((g for g in plan.attacks if target in g.defenders and len({sight.where[d] for d in g.defenders}) == 1), None)
        if joined is None and any(target in g.defenders for g in plan.attacks):
            continue
        if joined is None:
            joined = Group([target], Attackers([], []))
            plan.attacks.append(joined)
        joined.attackers.barrage.append(b)
    points = sight.gsp
    for g in plan.attacks:
        if points and (g.attackers.adjacent or not sight.ruleset.dg) and rng.random() < 0.5:
            spent = rng.randint(1, points)
            g.attackers.gsp += spent
            points -= spent
        if sight.side == "JP" and any(sight.units[a].kind in BANZAI_KINDS for a in g.attackers.adjacent):
            g.attackers.banzai = rng.random() < 0.3
    rng.shuffle(plan.attacks)
    return plan

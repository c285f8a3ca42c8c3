"""The attacks the rules force on a position: every unit in contact attacks, every enemy in contact is attacked.

7.11 and 7.12 (with 8.31 for adjacent artillery) oblige each of the
phasing side's units next to an enemy to attack, and each enemy unit next
to one of them to be attacked; 7.14 lets a unit attack and be attacked
once; 7.23 makes every attacker of a combat touch every defender.  So the
attacks are a partition of the contact graph into groups in which every
attacker touches every defender.  One always exists: a maximum matching
gives each enemy that can have one an attacker of its own; an enemy left
over joins the attack of a matched neighbour (which then fights two
defenders); a unit left over joins an attack whose defenders it all
touches, or takes over one defender of a two-defender attack.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from pbem.bot.odds import Attackers
from pbem.bot.sight import Sight
from pbem.engine import hexes
from pbem.engine.hexes import Hex
from pbem.engine.matching import augment


@dataclass
class Group:
    """One attack: its defenders and who attacks them."""

    defenders: list[str]
    attackers: Attackers = field(default_factory=lambda: Attackers([], []))
    advance: list[dict] = field(default_factory=list)


Chooser = Callable[[str, list[Group]], Group]
"""Picks which of several attacks a unit joins."""


def touching(sight: Sight, final: dict[str, Hex]) -> dict[str, list[str]]:
    """Each of the bot's units on the map that ends next to an enemy unit -> those enemy units.

    A dummy in contact is not one: it leaves before the attacks are checked (19B.6, docs/hidden-units.md)."""
    found = {}
    for m, h in final.items():
        if h not in sight.enemy_zoc or m in sight.still:
            continue
        found[m] = [e for n in hexes.neighbours(h) for e in sight.enemy_at.get(n, ())]
    return found


def mandatory_attacks(sight: Sight, final: dict[str, Hex], choose: Chooser) -> list[Group]:
    """Attacks meeting every obligation of 7.11, 7.12 and 8.31 on the position after the moves ``final``."""
    touch = touching(sight, final)
    if not touch:
        return []
    by_enemy: dict[str, list[str]] = {}
    for m in sorted(touch):
        for e in touch[m]:
            by_enemy.setdefault(e, []).append(m)
    owner: dict[str, str] = {}  # my unit -> the enemy it is matched to
    for e in sorted(by_enemy, key=lambda e: (len(by_enemy[e]), e)):
        augment(e, by_enemy, owner)
    groups: dict[str, Group] = {m: Group([e], Attackers([m], [])) for m, e in sorted(owner.items())}
    matched = set(owner.values())
    for e in sorted(by_enemy):
        if e not in matched:
            # Every neighbour of an unmatched enemy is matched, and so far alone in its attack.
            host = choose(e, [groups[m] for m in by_enemy[e] if m in groups])
            host.defenders.append(e)
    attacks = list(groups.values())
    for m in sorted(touch):
        if m in owner:
            continue
        options = [g for g in attacks if all(d in touch[m] for d in g.defenders)]
        if options:
            choose(m, options).attackers.adjacent.append(m)
            continue
        # Every enemy next to m fights in a two-defender attack: take one over.
        shared = [g for g in attacks if len(g.defenders) > 1 and any(d in touch[m] for d in g.defenders)]
        group = shared[0]
        taken = next(d for d in group.defenders if d in touch[m])
        group.defenders.remove(taken)
        attacks.append(Group([taken], Attackers([m], [])))
    return attacks

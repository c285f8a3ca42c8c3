"""Invasion Pearl Harbor 6.8 as a fog variant: stacks examined only when attacked, and the attack then kept.

IPH 6.8 lets the Japanese player examine every American stack and the
American player a Japanese stack only when he declares an attack on it;
once he has looked he may not call the attack off.  Read on Island War's
one unit per hex (5.31), a stack is one unit, so pbem plays it so
(docs/hidden-units.md):

- the American player sees a marker for every Japanese unit and never a
  dummy (6.8 has none: a set-up that places one is refused);
- declaring an attack examines its target: the defenders are exposed as his
  Combat Phase begins and the attack is fought with the true strengths;
  ``hidden.declared`` holds the stacks examined, and orders that leave one
  of them unattacked are refused (6.8: no call-off);
- no terrain exposes a unit and there is no intelligence roll (19B's, not
  IPH's); a Japanese unit that fights is seen (**pbem**: the combat's
  strengths are public); everything seen is hidden again as the next
  Japanese player-turn begins (**pbem**, as 19B.5 for combat exposure).
"""

from __future__ import annotations

from pbem.engine import exposure
from pbem.engine.fog_variants.base import FogVariant, Sight, alive, misplaced_fields
from pbem.engine.limited import BeforeCombat
from pbem.engine.problems import Problem
from pbem.model.common import FOG_IPH


def _attacked_hexes(state, orders) -> set[str]:
    """The hexes the orders' attacks name a defender in (a hidden defender is named by its hex or, in a case, its id)."""
    found = set()
    for attack in orders.attacks:
        for name in attack.defenders:
            found.add(state.locations.get(name, name))
    return found


class InvasionPearlHarbor(FogVariant):
    option = FOG_IPH
    rule = "6.8"
    sight = Sight(
        japanese_sees="every American stack, always (6.8)",
        american_sees="a marker per Japanese unit; a unit only when he declares an attack on it, and a unit that fights "
                      "(pbem); hidden again as the Japanese player-turn begins (pbem)",
        attack_commits="the attack is declared and the stack examined at once; it may not be called off (6.8): orders "
                       "leaving an examined stack unattacked are refused",
        japanese_may_reveal="nothing of his own will",
        never_move_concealed="none; no dummies (6.8 has none)",
        no_referee_opening="the defenders of each American attack opened against the root he acknowledged, before the "
                           "combat; hidden moves on the Japanese word until the audit",
    )

    def deployment_problems(self, state, orders):
        if orders.deployment is not None and orders.deployment.dummies:
            return [Problem("6.8", None, "Invasion Pearl Harbor's fog of war has no dummies: remove 'deployment.dummies'")]
        return []

    def order_problems(self, state, orders):
        problems = misplaced_fields(state, orders, self.option)
        if orders.deployment is not None:
            problems.append(Problem("6.8", None, "'deployment' belongs only to the Japanese secret set-up, before the first player-turn; remove it"))
        declared = state.hidden.declared if state.hidden is not None else ()
        if declared and state.position.phasing == "US":
            attacked = _attacked_hexes(state, orders)
            for hex_id in declared:
                if hex_id not in attacked:
                    problems.append(Problem("6.8", None, f"the attack on the stack in {hex_id} was declared and the stack examined: "
                                                         "it may not be called off (IPH 6.8); attack it"))
        return problems

    def exposed_as_combat_begins(self, board, state, orders, placement):
        return frozenset() if state.position.phasing == "JP" else state.hidden.exposed

    def before_american_combat(self, board, state, orders, placement, dice):
        """6.8: every Japanese unit in a stack his attacks name is examined as the attack is declared."""
        step = BeforeCombat()
        hexes = _attacked_hexes(state, orders)
        step.exposed |= {u for u in placement.units_of("JP") if placement.where(u) in hexes}
        return step

    def after_turn(self, board, state, placement, exposed_before, events, orders):
        exposed = alive(placement, set(exposed_before) | exposure.combatants(events))
        return state.hidden.model_copy(update={"exposed": exposed, "declared": ()}), []


IPH = InvasionPearlHarbor()

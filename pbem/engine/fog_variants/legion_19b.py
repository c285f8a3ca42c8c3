"""Legion 19B as a fog variant: a thin adapter over the existing modules, which stay where they are.

The rules and their readings live in :mod:`pbem.engine.limited`,
:mod:`pbem.engine.exposure`, :mod:`pbem.engine.dummies` and
:mod:`pbem.engine.deployment` (docs/hidden-units.md); this adapter only
gives them the variant's shape, so the adjudicator asks every variant alike.
It also answers for games without hidden units: their orders are refused
an ``intelligence`` or ``reveal`` block exactly as before.
"""

from __future__ import annotations

from pbem.engine import exposure, limited
from pbem.engine.fog_variants.base import FogVariant, Sight, misplaced_fields
from pbem.model.common import HIDDEN_UNITS


class Legion19B(FogVariant):
    option = HIDDEN_UNITS
    rule = "19B.2"
    setup_intelligence_dice = 2
    sight = Sight(
        japanese_sees="every American unit, always (19B.1)",
        american_sees="a marker per hidden unit; a unit in or moving through clear terrain, every combatant, and what an "
                      "intelligence roll picks (19B.3, 19B.4, 19B.7); hidden again as the Japanese player-turn begins (19B.5)",
        attack_commits="declared blind in the whole orders, fought with the true strengths; an attack on dummies alone is "
                       "cancelled (19B.4, 19B.6)",
        japanese_may_reveal="nothing of his own will",
        never_move_concealed="none (dummies move like the fastest unit, 19B.6)",
        no_referee_opening="what 19B exposes is opened against the committed root; hidden moves on his word until the audit",
    )

    def order_problems(self, state, orders):
        return limited.order_problems(state, orders) + misplaced_fields(state, orders, self.option)

    def intelligence_cost(self, state, orders):
        return limited.intelligence_cost(state, orders)

    def before_japanese_attacks(self, board, movement):
        return limited.before_japanese_attacks(board, movement)

    def exposed_as_combat_begins(self, board, state, orders, placement):
        return limited.at_japanese_start(board, state) if state.position.phasing == "JP" else state.hidden.exposed

    def before_american_combat(self, board, state, orders, placement, dice):
        return limited.before_american_combat(board, state, orders, placement, dice)

    def after_turn(self, board, state, placement, exposed_before, events, orders):
        return limited.after_turn(board, state, placement, exposed_before, events, orders)

    def sightings(self, board, events, japanese):
        return exposure.sightings(board, events, japanese)


LEGION_19B = Legion19B()

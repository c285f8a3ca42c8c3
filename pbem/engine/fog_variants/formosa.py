"""Operation Causeway: Formosa 1944, 11.0-11.2, as a fog variant: concealed and revealed units.

Read on Island War (docs/hidden-units.md):

- a Japanese unit is concealed (a marker to the American player) or
  revealed (11.0); once revealed it stays so (11.2);
- a concealed unit has a zone of control (11.1, as every marker does) and
  moves with the one public movement factor printed on the back
  (``hidden.concealed_move``, scenario data); revealed, its own (11.1);
- the Japanese player reveals any of his units when he likes in his
  player-turn (11.1, 11.2): ``"reveal": [ids]`` in his orders, carried out
  before his movement; a deception unit revealed is removed at once and
  never returns (11.1);
- concealed static units (``hidden.static``) and deception units may not
  move (11.1);
- a concealed unit in an enemy zone of control as any Combat Phase begins
  is revealed (11.2 item 1): a deception unit so is removed;
- an attack reveals its target as 19B.4 does (**pbem**: a combat's
  strengths are public); no terrain exposes and there is no intelligence;
- no one examines the enemy's off-map displays (11.0): Japanese units off
  the map are never shown to the American player, as under 19B.

Deception units are the scenario's ``deception`` counters, kind ``dummy``.
"""

from __future__ import annotations

from pbem.engine import dummies, exposure
from pbem.engine.fog_variants.base import FogVariant, Sight, alive, japanese_units, misplaced_fields
from pbem.engine.limited import BeforeCombat
from pbem.engine.problems import Problem
from pbem.model.common import FOG_FORMOSA

REVEALED_WHY = "revealed by the Japanese player: a deception unit is removed for good (11.1)"
CONTACT_WHY = "in an enemy zone of control as the Combat Phase began: revealed (11.2), and a deception unit is removed (11.1)"
ATTACKED_WHY = "attacked: revealed, and a deception unit is removed (11.1)"


def concealed(state, unit: str, revealing: set[str]) -> bool:
    return unit not in state.hidden.exposed and unit not in revealing


class Formosa(FogVariant):
    option = FOG_FORMOSA
    rule = "11.1"
    sight = Sight(
        japanese_sees="every American unit on the map, always (11.0); not the American off-map displays (11.0)",
        american_sees="a marker per concealed unit; a revealed unit for good: revealed by the Japanese player, in an "
                      "enemy zone of control as a Combat Phase begins, or attacked (11.1, 11.2)",
        attack_commits="declared blind in the whole orders; the target is revealed, a deception unit removed and the "
                       "attack on it alone cancelled",
        japanese_may_reveal="any unit, whenever he likes in his player-turn ('reveal'); a deception unit revealed is "
                            "removed and never returns (11.1)",
        never_move_concealed="deception units (always) and static units while concealed (11.1); the rest move with the "
                             "one public concealed movement factor",
        no_referee_opening="what 11.2 reveals is opened against the committed root; every concealed move is checked at "
                           "once by the American player against the one public movement factor",
    )

    def order_problems(self, state, orders):
        problems = misplaced_fields(state, orders, self.option)
        if orders.deployment is not None:
            problems.append(Problem("11.1", None, "'deployment' belongs only to the Japanese secret set-up, before the first player-turn; remove it"))
        units = state.unit_index()
        revealing = set(orders.reveal or ())
        if revealing and state.position.phasing != "JP":
            problems.append(Problem("11.2", None, "the Japanese player reveals units during his own player-turn (11.2): remove 'reveal'"))
        for unit in orders.reveal or ():
            if unit not in units or units[unit].side != "JP" or not state.on_map(unit):
                problems.append(Problem("11.1", unit, f"'reveal' names {unit}: not a Japanese unit on the map; remove it"))
            elif unit in state.hidden.exposed:
                problems.append(Problem("11.2", unit, f"{unit} is revealed already, and stays so (11.2); remove it from 'reveal'"))
        for move in orders.moves:
            unit = units.get(move.unit)
            if unit is None or unit.side != "JP" or not move.path:
                continue
            if unit.is_dummy:
                problems.append(Problem("11.1", move.unit, f"{move.unit} is a deception unit: it may not move (11.1); remove its move"))
            elif move.unit in state.hidden.static and concealed(state, move.unit, revealing) and move.enter is None:
                problems.append(Problem("11.1", move.unit, f"{move.unit} is a static unit, concealed: it may not move (11.1); "
                                                           "reveal it first, or remove its move"))
        return problems

    def before_movement(self, state, orders, placement):
        gone = {}
        for unit in orders.reveal or ():
            if unit in placement.units and placement.units[unit].is_dummy and placement.on_map(unit):
                gone[unit] = (placement.where(unit), "11.1", REVEALED_WHY)
                placement.eliminate(unit)
        return gone

    def moving_units(self, state, orders, units):
        """11.1: a concealed unit moves with the one public factor; revealed (this player-turn too), with its own."""
        common = state.hidden.concealed_move
        if common is None or state.position.phasing != "JP":
            return units
        revealing = set(orders.reveal or ())
        out = dict(units)
        for uid, unit in units.items():
            if unit.side == "JP" and not unit.is_dummy and concealed(state, uid, revealing) and unit.move != common:
                out[uid] = unit.model_copy(update={"move": common})
        return out

    def before_japanese_attacks(self, board, movement):
        return {u: (h, "11.2", CONTACT_WHY) for u, h in dummies.remove_in_contact(movement.placement).items()}

    def exposed_as_combat_begins(self, board, state, orders, placement):
        """11.2 item 1, and the units the Japanese player revealed by order (11.1)."""
        revealing = set(orders.reveal or ()) if state.position.phasing == "JP" else set()
        contact = {u for u in japanese_units(placement) if placement.in_enemy_zoc(placement.where(u), "JP")}
        return alive(placement, set(state.hidden.exposed) | revealing | contact)

    def before_american_combat(self, board, state, orders, placement, dice):
        step = BeforeCombat()
        gone = {u: (h, "11.2", CONTACT_WHY) for u, h in dummies.remove_in_contact(placement).items()}
        attacked = {d for attack in orders.attacks for d in attack.defenders}
        gone |= {u: (h, "11.1", ATTACKED_WHY) for u, h in dummies.remove_attacked(placement, attacked).items()}
        step.removed |= {u: h for u, (h, _r, _w) in gone.items()}
        step.events += [dummies.removed(u, h, r, w) for u, (h, r, w) in sorted(gone.items(), key=lambda item: item[1][0])]
        return step

    def after_turn(self, board, state, placement, exposed_before, events, orders):
        """11.2: revealed stays revealed; every unit that fought is revealed."""
        exposed = alive(placement, set(exposed_before) | exposure.combatants(events))
        return state.hidden.model_copy(update={"exposed": exposed}), []


FORMOSA = Formosa()

"""A player's side of a game: open your view, get an orders template, check orders offline.

Everything here works on the holder's own view — what the referee sealed to
that side — and the scenario from the game's first turn file, so a player
needs nothing but the turn files and his key.
"""

from __future__ import annotations

from typing import Any

from pbem.errors import BadInput, VerificationFailed
from pbem.game.modes import mode_of
from pbem.game.record_checks import combat_roll_problems, view_problems
from pbem.game.roles import role_of
from pbem.protocol.keys import PrivateIdentity
from pbem.protocol.turnfile import REFEREE, SIDES, TurnFile, open_referee_state


def view_for(turn: TurnFile, identity: PrivateIdentity, *, deep: bool = True) -> tuple[str, dict[str, Any]]:
    """The holder's role and what it may see: a side's sealed view, or the referee's full state (``deep``: see checked_view)."""
    from pbem.game.views import checked_view

    role = role_of(turn, identity)
    if role == REFEREE:
        secret = open_referee_state(turn, identity)
        public = turn.public if isinstance(turn.public, dict) else {}
        view = {
            "format": "pbem-referee-view-1",
            "side": REFEREE,
            "game": turn.game,
            "seq": turn.seq,
            "scenario": {"id": turn.scenario_id, "hash": turn.scenario_hash},
            "ruleset": turn.ruleset,
            "awaiting": public.get("awaiting"),
            "over": public.get("over", False),
            "state": secret.state.get("state") if isinstance(secret.state, dict) else None,
            "last": secret.state.get("last") if isinstance(secret.state, dict) else None,
            "victory": public.get("victory"),
        }
        return role, checked_view(view, turn.source, deep=deep)
    view = checked_view(mode_of(turn).side_view(turn, role, identity), turn.source, deep=deep)
    if not isinstance(turn.public, dict) or any(k not in turn.public for k in ("turn", "phasing", "awaiting", "over")):
        raise BadInput("the public record is malformed (not an object, or without turn, phasing, awaiting and over): the scenario and the public state cannot be read from it", file=turn.source,
                       hint="the referee's pbem may be another version; ask the referee to check the file with 'pbem verify'")
    disagreements = view_problems(view, turn.public) + combat_roll_problems(turn.public, turn.dice.rolls)
    if not disagreements:  # every unit as its counter prints it (3.0; issue 37: the only check a lie to JP about his own units meets)
        from pbem.game.record_checks import printed_problems
        from pbem.loading.turns import scenario_document_of  # the JSON alone: 'pbem view' builds no model

        lies = printed_problems(view, scenario_document_of(turn)[0].get("units") or [])
        if lies:
            raise VerificationFailed(f"your {role} view {lies[0].removeprefix('your view ')}", file=turn.source, field=f"views.{role}",
                                     hint=f"{turn.written_by}'s file is faulty or lying; " + mode_of(turn).faulty_view_hint(turn))
    if disagreements:
        raise VerificationFailed(
            f"your {role} view does not match the signed public record: {disagreements[0]}",
            file=turn.source, field=f"views.{role}",
            hint=f"{turn.written_by}'s file is faulty or lying; " + mode_of(turn).faulty_view_hint(turn),
        )
    return role, view


def side_to_move(turn: TurnFile, identity: PrivateIdentity, *, deep: bool = True) -> tuple[str, dict[str, Any]]:
    """The holder's side and view, when it is that side's turn to give orders; else BadInput (``deep``: see checked_view)."""
    role, view = view_for(turn, identity, deep=deep)
    if role == REFEREE:
        raise BadInput("the referee gives no orders", file=turn.source, hint="use a player's key")
    if view["over"]:
        raise BadInput("the game is over", file=turn.source)
    if view["awaiting"] != role and (view["state"].get("hidden") or {}).get("deployed") is False:
        raise BadInput("the Japanese secret set-up comes before the first player-turn (docs/hidden-units.md)",
                       file=turn.source, hint="wait for the next turn file")
    if view["awaiting"] != role:
        position = view["state"]["position"]
        raise BadInput(
            f"it is {view['awaiting']}'s turn to move (Game-Turn {position['turn']}), not {role}'s",
            file=turn.source,
            hint="wait for the next turn file",
        )
    return role, view


def check_own_orders(turn: TurnFile, identity: PrivateIdentity, document: Any, source: str) -> tuple[str, list]:
    """The holder's side and every problem with ``document`` on the holder's own view."""
    from pbem.loading.turns import scenario_of
    from pbem.game.views import state_of_view
    from pbem.systems import system_of

    side, view = side_to_move(turn, identity)
    orders = system_of(scenario_of(turn)).read_orders(document, source)
    state = state_of_view(view)
    found = problems_on_view(scenario_of(turn), view["ruleset"], state, side, orders)
    from pbem.systems import system_of_state

    if system_of_state(state).hides(state):
        from pbem.game.hidden_names import hidden_named

        seen = set(state.locations)
        found = hidden_named(found, {u.id for u in scenario_of(turn).scenario.units if u.id not in seen})
    return side, found


def problems_on_view(loaded, ruleset: dict[str, Any], state, side: str, orders) -> list:
    """Every problem with ``orders`` on a side's own view (the side to move's): what ``pbem validate`` and the
    ``pbem play`` page report, as the game's rules system finds them (:mod:`pbem.systems`)."""
    from pbem.systems import system_of

    system = system_of(loaded)
    orders = system.as_carried(orders, state, side)  # a hidden target is named by its marker, as the referee reads it
    return system.with_suggestions(list(system.check_orders(loaded, ruleset, state, orders).problems), state)


def deployment_template(view: dict[str, Any], board, offered: dict[str, Any]) -> tuple[dict, list[str]]:
    """The Japanese secret set-up to start from — ``offered``, a deployment drawn at random within the set-up
    zone — and hints: the printed set-up is public, and where units and dummies may go (docs/hidden-units.md)."""
    from pbem.engine.deployment import SetupZone, dummies_of, setup_hexes
    from pbem.game.views import state_of_view

    state = state_of_view(view)
    listed = setup_hexes(state)
    zone = SetupZone.of(board, state)
    places = zone.places(dummy=True)
    hints = [
        "the scenario's printed set-up is public: the American player can read it ('pbem scenario show'), so a unit left "
        "on its printed hex is known to him; this template holds a set-up drawn at random within the limits instead",
        f"your secret set-up (19B.2): each listed unit and each dummy in the set-up zone, at most {zone.radius} hexes from a "
        "printed Japanese set-up hex (" + " ".join(sorted(set(listed.values()))) + "), one per hex (5.31), none closed to "
        "Japanese units (16.23), none on a beach (12.21), armor where it may be placed (5.25)",
        f"place up to {len(dummies_of(state))} dummies (19B.6) in \"dummies\": where a unit may stand, but not a clear hex "
        f"(19B.3); {len(places)} such hexes, e.g. " + " ".join(places[:12]) + (" ..." if len(places) > 12 else ""),
        "then 2d6 of American intelligence are rolled by the referee's adjudication from the committed seeds "
        "(no player rolls anything): that many hidden units are exposed (19B.7)",
    ]
    return {"deployment": offered["deployment"]}, hints


def entry_hexes(map_document: dict[str, Any]) -> dict[str, list[str]]:
    """The hexes a reinforcement may enter by, for each ``entry`` it may name: ``beach``, ``edge`` or one of the map's areas (12.2)."""
    areas = {name: sorted(hexes) for name, hexes in map_document.get("areas", {}).items()}
    return {**areas, "beach": sorted(map_document.get("beaches", [])), "edge": sorted(map_document.get("edges", []))}


def orders_template(view: dict[str, Any], entry_hexes: dict[str, list[str]]) -> tuple[dict, list[str]]:
    """An orders skeleton for the side to move, and hints about what else it may or must do.

    Every unit of the side on the map gets a move with an empty path (stay
    put); reinforcements are not brought in unless the player adds them.
    """
    side = view["side"]
    state = view["state"]
    units = {u["id"]: u for u in state["units"]}
    locations = state["locations"]
    moves = [
        {"unit": uid, "path": []}
        for uid, where in locations.items()
        if units[uid]["side"] == side and where not in ("offmap", "eliminated") and units[uid]["move"] > 0
    ]
    hints = []
    for uid, where in locations.items():
        unit = units[uid]
        if unit["side"] == side and where == "offmap":
            if unit["kind"] == "airassault":
                area = "any hex"
            else:
                area = " ".join(entry_hexes.get(unit.get("entry") or "", [])) or "(no entry hexes on this map)"
            hints.append(f"reinforcement {uid} may enter ({unit.get('entry') or 'air assault'}): {area}; "
                         f'add {{"unit": "{uid}", "enter": "<hex>", "path": [...]}} to bring it in')
    gsp = state["position"].get("gsp", {}).get(side, 0)
    if gsp:
        hints.append(f"{gsp} Ground Support Point(s) to use in attacks this Game-Turn (\"gsp\" in an attack)")
    hints.append("list attacks in the order they are to be resolved; every unit next to an enemy must attack (7.11, 7.12)")
    hints.append('add "note": "..." to send your opponent a few words, signed with your orders and shown in his view')
    if (state.get("hidden") or {}) and side == "US":
        hints.append('a hidden Japanese unit is named by its hex: "defenders": ["2215"] (docs/hidden-units.md)')
        hints.append('add "intelligence": {"roll": true, "priority": ["<hex>", ...]} to spend a Ground Support Point on 1d6 exposures (19B.7)')
    if view["ruleset"].get("edition") == "spi-1975":
        hints.append('add "defense": {"fpf": [...], "retreats": [...]} to choose your FPF and retreats for the enemy\'s next player-turn (README, Checking your orders)')
    return {"moves": moves, "attacks": []}, hints

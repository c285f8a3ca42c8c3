"""The referee's side of a game: start it, and adjudicate one player-turn at a time.

:func:`play` is the single step from one position to the next — orders and
dice in, position, views and public record out — used both by
:func:`pbem.game.adjudication.adjudicate_orders` (which then signs and seals the next turn file) and
by the post-game audit (which replays it and compares).  It is pure given its
dice; all randomness is the protocol's committed seed and the player's salt.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pbem.loading.datafiles import LoadedScenario, find_scenario, scenario_document
from pbem.errors import BadInput, PbemError
from pbem.game.codec import state_to_json
from pbem.game.limits import capped, size_problem
from pbem.loading.turns import scenario_hash, shipped_mismatch, with_overrides
from pbem.game.sizes import sealed_bucket
from pbem.game.views import build_view, last_turn_record, public_record
from pbem.model.common import FOG_OPTIONS, OPTIONS, SIDES, fog_option
from pbem.model.state import GameState
from pbem.protocol.keys import PublicIdentity
from pbem.protocol.ordersfile import OrdersBody
from pbem.protocol.turnfile import TurnFile, new_game_id
from pbem.systems import name_in, refuse_options, scenario_from_document, system_of
from pbem.systems.base import DiceSource, Problem


@dataclass(frozen=True)
class Step:
    """One player-turn played: everything the next turn file records."""

    state: GameState
    over: bool
    last: dict | None
    views: dict[str, dict]
    public: dict
    referee_state: dict


def record_step(
    state: GameState,
    *,
    game: str,
    seq: int,
    scenario_ref: dict,
    ruleset: dict,
    over: bool,
    last: dict | None,
    loaded: LoadedScenario,
    extra_public: dict | None = None,
    before: GameState | None = None,
) -> Step:
    """The views, public record and sealed full state for a position (the genesis one, or after a player-turn).

    Both views carry the victory tally (eliminations and points already
    awarded, which both sides witnessed); once the game is over, the final
    victory report (15.4) goes into the public part and both views.
    """
    system = system_of(loaded)
    victory = system.victory(loaded, state, final=over)
    # Under hidden units what the report scores from hidden units (a timed award) stays out of a view until the final
    # report (docs/hidden-units.md), as the rules system says.
    views = {
        side: build_view(side, state, game=game, seq=seq, scenario=scenario_ref, ruleset=ruleset, over=over, last=last,
                         victory=system.known_victory(loaded, state, side, victory, final=over), board=loaded.board, before=before)
        for side in SIDES
    }
    public = public_record(state, over=over, last=last) | (extra_public or {})
    if over:
        public["victory"] = victory
    referee_state = {"state": state_to_json(state), "last": last}
    return Step(state, over, last, views, public, referee_state)


def play(
    loaded: LoadedScenario,
    ruleset: dict,
    state: GameState,
    orders_document: Any,
    dice: DiceSource,
    *,
    game: str,
    seq: int,
    scenario_ref: dict,
    source: str,
) -> Step:
    """Adjudicate one player-turn and work out the position after it.

    Orders with any problem are rejected as a whole: the position stands,
    the same side moves again, and the problems are recorded for both sides.
    Under hidden units the American orders are judged on the American view
    alone (:func:`verdict`): every rejection of them is one his own view
    reproduces, and nothing found on the true position alone refuses them.
    """
    system = system_of(loaded)
    phasing = state.to_act()
    seen = system.judged_on(state, phasing)  # the position the side to move may know, under hidden units
    orders, problems, checked = _judged(loaded, ruleset, seen, orders_document, source)
    if orders is not None and not problems:
        carried = system.as_carried(orders, state, phasing)
        # Judged on the very position it is carried out on (no hidden units, or the Japanese side): checked once.
        result = system.adjudicate(loaded, ruleset, state, carried, dice, checked=checked if seen is state else None)
        if not result.valid:
            if seen is not state:  # a rejection the American view cannot reproduce must never be signed (issue 19)
                raise PbemError(
                    f"{source}: the true position finds problems ({', '.join(sorted({p.rule for p in result.problems}))}) "
                    "in American orders his view finds none in; pbem refuses to sign a rejection he cannot check",
                    hint="this is a fault of pbem, not of the orders: report it with the game folder, and do not change your "
                         "orders to get past it (issue 37: the dice of a player-turn are fixed by its first salt, so a new "
                         "revision rolls the same dice and cannot help; the orders stand as sent)",
                )
            problems = list(result.problems)
        after, turn_end = system.end_player_turn(loaded, state, result.state) if result.valid else (state, [])
        events = list(result.events) + turn_end
        combats = list(result.combats)
    else:
        after, events, combats = state, [], []
    note = orders.note if orders is not None else None
    last = last_turn_record(phasing, not problems, capped([p.as_dict() for p in problems]), events, combats, note)
    over = system.game_over(loaded, after)
    return record_step(after, game=game, seq=seq, scenario_ref=scenario_ref, ruleset=ruleset, over=over, last=last, loaded=loaded, before=state)


def verdict(loaded: LoadedScenario, ruleset: dict, seen: GameState, orders_document: Any, source: str) -> tuple[Any, list[Problem]]:
    """The orders read (or None) and every problem with them, judged on ``seen``: the position the side to move
    may know (the American view under hidden units, else the whole position).

    The referee's adjudication and the American player's re-judging of it
    (``verify --replay-mine``, ``status``) both call this, so a rejection of
    American orders is always one his own view gives.
    """
    orders, problems, _ = _judged(loaded, ruleset, seen, orders_document, source)
    return orders, problems


def _judged(loaded: LoadedScenario, ruleset: dict, seen: GameState, orders_document: Any, source: str):
    """:func:`verdict`, and the rules system's check of the orders on ``seen`` (None when they were not read)."""
    phasing = seen.to_act()
    too_large = size_problem(orders_document, len(seen.units))
    if too_large:
        return None, [Problem("limits", None, f"{source}: {too_large}; pbem does not adjudicate orders this large")], None
    system = system_of(loaded)
    try:
        orders = system.read_orders(orders_document, f"{source} (the orders inside)")
    except BadInput as exc:
        return None, [Problem("schema", None, exc.render())], None
    orders = system.as_carried(orders, seen, phasing)  # a hidden target named by its marker, as his own 'pbem validate' reads it
    checked = system.check_orders(loaded, ruleset, seen, orders)
    return orders, list(checked.problems), checked


def genesis_step(
    loaded: LoadedScenario, document: dict, *, game: str, scenario_ref: dict, ruleset: dict, overrides: dict | None = None,
    options: list[str] | None = None,
) -> Step:
    """The opening position's record; its public part carries the scenario document (and any override) for every party,
    and the game's options (``hidden-units``), which every later command reads from there."""
    extra = {"title": loaded.scenario.title, "scenario_document": document} | ({"overrides": overrides} if overrides else {})
    if options:
        extra["options"] = sorted(set(options))
    return record_step(
        fog_opening(loaded, options), game=game, seq=0, scenario_ref=scenario_ref, ruleset=ruleset, over=False, last=None, loaded=loaded,
        extra_public=extra,
    )


def check_options(options: list[str] | None) -> None:
    """BadInput for a game option pbem does not know, or for two ways of hiding units at once: asked before anything
    is written (a new game's folder, a demo's)."""
    unknown = [o for o in options or () if o not in OPTIONS]
    if unknown:
        raise BadInput(f"unknown game option '{unknown[0]}'", hint=f"the options are: {', '.join(OPTIONS)}")
    refuse_two_fogs(options)


def refuse_two_fogs(options: list[str] | None) -> None:
    """One game hides units one way: 19B, IPH 6.8 or Formosa 11.0 (docs/hidden-units.md)."""
    fogs = sorted({o for o in options or () if o in FOG_OPTIONS})
    if len(fogs) > 1:
        raise BadInput(f"the options {' and '.join(fogs)} are two ways of hiding units; a game plays one",
                       field="--option", hint="keep one of: " + ", ".join(FOG_OPTIONS) + " (docs/hidden-units.md)")


def fog_opening(loaded: LoadedScenario, options: list[str] | None) -> GameState:
    """The opening position under the game's options, as its rules system lays it out: hidden units the way the
    game's fog option says (19B, IPH 6.8, Formosa 11.0; docs/hidden-units.md), none without one."""
    return system_of(loaded).opening(loaded, hidden=fog_option(options) is not None, options=options)


@dataclass(frozen=True)
class Opening:
    """A new game before anyone signs it: its id, scenario, rules and opening position."""

    game: str
    scenario_ref: dict
    ruleset: dict
    step: Step
    sealed_size: int = 0  # the bucket of its sealed parts, from public data (pbem.game.sizes)


def open_game(
    scenario_name: str, parties: dict[str, PublicIdentity], edition: str | None, ground_support: list[dict] | None,
    options: list[str] | None = None,
) -> Opening:
    """What every genesis file records, whoever signs it (the parties must hold keys of their own)."""
    check_options(options)
    path = find_scenario(scenario_name)
    document = scenario_document(path)
    refuse_options(name_in(document), options, str(path))
    overrides = {"ground_support": ground_support} if ground_support is not None else None
    loaded = with_overrides(scenario_from_document(document, Path(path)), overrides, str(path))
    document = system_of(loaded).carried_document(loaded, document)  # self-contained: what every party plays with
    keys = list(parties.items())
    for i, (role_a, a) in enumerate(keys):
        for role_b, b in keys[i + 1:]:
            if a.same_keys(b):
                raise BadInput(f"the {role_a} and {role_b} identities are the same key", hint="each party needs a key of its own (pbem keygen)")
    ruleset = system_of(loaded).pinned_ruleset(loaded, edition)
    game = new_game_id()
    scenario_ref = {"id": loaded.scenario.id, "hash": scenario_hash(document)}
    mismatch = shipped_mismatch(loaded.scenario.id, scenario_ref["hash"])
    if mismatch:
        raise BadInput(mismatch, file=str(path), hint="give the edited scenario an id of its own")
    step = genesis_step(loaded, document, game=game, scenario_ref=scenario_ref, ruleset=ruleset, overrides=overrides, options=options)
    return Opening(game, scenario_ref, ruleset, step, sealed_bucket(loaded.scenario, hidden=fog_option(options) is not None, previous=None))


@dataclass(frozen=True)
class Adjudicated:
    turn: TurnFile
    orders: OrdersBody
    step: Step



"""The SPI system: SPI's *Island War* standard rules (1975, and the dg-2009 edition) with the Leyte exclusive rules.

Its rules live in ``pbem/engine/`` (pure, deterministic: the first room pbem
had, and still this system's) with the data models of ``pbem/model/`` and
the loading of ``pbem/loading/``; this package is the thin adapter that
answers the seam (:class:`pbem.systems.base.RulesSystem`) from them, and
holds what only this system checks beside the engine (the defender's
standing choices, I1: :mod:`pbem.systems.spi.standing`).  A scenario or
genesis that names no system is played with this one, so every SPI file is
what it was before the seam.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem.protocol.fog_options import FOG_OPTIONS
from pbem.systems.base import Checked, DiceSource, PlayerTurn, Problem

NAME = "spi"


class SpiSystem:
    """The SPI system, answering the seam from ``pbem/engine/``."""

    name = NAME
    title = "SPI Island War standard rules (spi-1975, dg-2009) with the Leyte exclusive rules"
    options = frozenset(FOG_OPTIONS)  # hidden units as 19B, IPH 6.8 or Formosa 11.0 (pbem/engine/fog_variants), in every mode

    def load_scenario(self, document: dict, path: Path, *, verified: bool = False):
        from pbem.loading.datafiles import scenario_from

        return scenario_from(document, path, verified=verified)

    def carried_document(self, loaded, document: dict) -> dict:
        """The document as read (:func:`pbem.loading.datafiles.scenario_document` has read its map in)."""
        return document

    def catalogue_entry(self, loaded, *, full: bool) -> dict:
        from pbem.systems.spi.catalogue import details, summary

        return details(loaded.scenario) if full else summary(loaded.scenario)

    def describe(self, entry: dict) -> list[str]:
        from pbem.systems.spi.catalogue import describe

        return describe(entry)

    def state_to_json(self, state) -> dict:
        """:mod:`pbem.game.codec`'s own writing of the engine's :class:`~pbem.model.state.GameState` (no ``system`` key)."""
        from pbem.game.codec import spi_state_to_json

        return spi_state_to_json(state)

    def state_from_json(self, document: dict):
        from pbem.game.codec import spi_state_from_json

        return spi_state_from_json(document)

    def tell_view(self, view: dict, outlook: dict | None) -> str:
        from pbem.game.narrate import narrate

        return narrate(view, outlook)

    def tell_last(self, last: dict) -> list[str]:
        from pbem.game.narrate import last_lines

        return last_lines(last)

    def orders_template(self, view: dict, document: dict) -> tuple[dict, list[str]]:
        from pbem.game.player import entry_hexes, orders_template

        return orders_template(view, entry_hexes(document["map"]))

    def map_scene(self, view: dict, loaded, *, centre: str | None = None, radius: int | None = None,
                  show_zoc: bool = False, show_events: bool = True, objectives: bool = True):
        """:func:`pbem.render.scene.build_scene` on the scenario's board (the renderers' own key: SPI's terrain and counters);
        without ``objectives``, those of the view's outlook, as the play page has always drawn them."""
        from pbem.render.scene import build_scene, refuse_off_map

        board = loaded.board
        refuse_off_map(board, centre)
        # an objective's fields are plain values: its model_dump(exclude_none=True) without building a serializer (issue 26)
        listed = [{name: value for name, value in o if value is not None} for o in loaded.scenario.objectives] if objectives else None
        return build_scene(view, board, centre=centre, radius=radius, show_zoc=show_zoc, show_events=show_events, objectives=listed)

    def planner(self, view: dict, loaded, source: str):
        """The clicking page's planner (:class:`pbem.game.planning.Planner`): reach, paths, odds, the set-up, from the engine."""
        from pbem.game.planning import Planner

        return Planner(view, loaded, source)

    def pinned_ruleset(self, loaded, edition: str | None) -> dict:
        ruleset = loaded.scenario.ruleset.model_dump(mode="json")
        if edition:
            ruleset["edition"] = edition
        if loaded.system not in (None, NAME):  # a system that borrows this one's scenario model pins its own name (pbem.systems)
            ruleset["system"] = loaded.system
        return ruleset

    def rules_named(self, ruleset: dict) -> str | None:
        """The edition the ruleset pins (``dg-2009`` or ``spi-1975``), as ``pbem status`` has always printed it."""
        return ruleset.get("edition") if isinstance(ruleset, dict) else None

    def rules(self, ruleset: dict):
        """The edition and exclusive rules (I1, :class:`pbem.model.ruleset.Ruleset`)."""
        return _rules(ruleset)

    def opening(self, loaded, *, hidden: bool, options: list[str] | None = None):
        """19B's hidden units with ``hidden``; under a fog variant of the game's ``options`` (IPH 6.8, Formosa 11.0),
        that variant's, with its scenario data (pbem/data/fog_variants.json)."""
        from pbem.engine.sequence import opening
        from pbem.protocol.fog_options import fog_option

        fog = fog_option(options)
        if fog is None:
            return opening(loaded.scenario, hidden=hidden)
        from pbem.loading.fog_data import fog_setting

        return opening(loaded.scenario, hidden=True, variant=fog, fog=fog_setting(loaded.scenario.id, fog))

    def read_orders(self, document: Any, source: str):
        from pbem.loading.datafiles import orders_from

        return orders_from(document, source)

    def check_orders(self, loaded, ruleset: dict, state, orders) -> Checked:
        """The engine's check (5-10, 12, 19B), then the defender's standing choices written in these orders (I1);
        the choices are not checked during the Japanese secret set-up (19B.2), which has none."""
        from pbem.engine.adjudicator import check_orders
        from pbem.systems.spi.standing import standing_problems

        rules = _rules(ruleset)
        setup = state.hidden is not None and not state.hidden.deployed
        written = [] if setup else standing_problems(loaded.board, rules, state, state.to_act(), orders.defense)
        check = check_orders(loaded.board, rules, state, orders)
        return Checked(tuple(check.problems) + tuple(written), check)

    def adjudicate(self, loaded, ruleset: dict, state, orders, dice: DiceSource, *, checked: Checked | None = None) -> PlayerTurn:
        """The engine's player-turn, with the defender's standing choices written in its last orders (I1) and, when
        it still has a player-turn of its own to come in this Game-Turn, its Ground Support kept (docs/policies.md);
        the phasing side's own standing choices, written in these orders, are kept for the enemy's next player-turn."""
        from pbem.engine.adjudicator import adjudicate
        from pbem.model.common import enemy_of
        from pbem.systems.spi.standing import with_standing

        phasing = state.to_act()
        defender = enemy_of(phasing)
        reserve = state.position.gsp_of(defender) if phasing == loaded.scenario.first_player else 0
        result = adjudicate(loaded.board, _rules(ruleset), state, orders, dice, state.standing.get(defender), fpf_gsp_reserve=reserve,
                            checked=checked.handle if checked is not None else None)
        after = with_standing(result.state, phasing, orders.defense) if result.valid else state
        return PlayerTurn(result.valid, tuple(result.problems), tuple(result.events), tuple(c.as_dict() for c in result.combats), after)

    def end_player_turn(self, loaded, before, after):
        """The next player-turn (and the end of a Game-Turn: 4.0, 15.x awards, arrivals, withdrawals); the Japanese
        secret set-up (19B.2) is followed by the first player-turn of the same Game-Turn, with nothing between."""
        from pbem.engine.sequence import advance

        if before.hidden is not None and not before.hidden.deployed:
            return after, []
        return advance(loaded.scenario, after, loaded.board)

    def game_over(self, loaded, state) -> bool:
        from pbem.engine.sequence import game_over

        return game_over(loaded.scenario, state)

    def victory(self, loaded, state, *, final: bool) -> dict:
        from pbem.engine.scoring import victory_report

        return victory_report(loaded.board, loaded.scenario, state, final=final).as_dict()

    def record_problems(self, public: dict, rolls: list[dict], scenario: dict | None = None) -> list[str]:
        """The Combat Results Table is the engine's own (7.61): the scenario adds nothing to the check."""
        from pbem.systems.spi.records import combat_table_problems

        return combat_table_problems(public, rolls)

    def bot_orders(self, view: dict, loaded, policy: str, seed: int | None, think: float | None = None) -> dict:
        """The SPI bot's (``pbem/bot/``: its tactics read this system's rules)."""
        from pbem.bot.play import bot_orders

        return bot_orders(view, loaded, policy, seed, think)

    def with_suggestions(self, problems: list[Problem], state) -> list[Problem]:
        from pbem.engine.suggest import with_suggestions

        return with_suggestions(problems, state.locations)

    # -- hidden units: what each side may know (pbem/game/fog.py: 19B, IPH 6.8, Formosa 11.0) ----------------------

    def hides(self, state) -> bool:
        return state.hidden is not None

    def known_position(self, state, side: str):
        """The American picture (:func:`pbem.game.fog.american_state`), or the Japanese one (all but the American
        intelligence priorities)."""
        from pbem.game import fog

        return fog.american_state(state) if side == "US" else fog.japanese_state(state)

    def known_events(self, board, before, after, side: str, events: list[dict]) -> list[dict]:
        """The Japanese moves as the American player saw them (19B.3, 19B.4, 19B.6, 19B.7); the Japanese side reads all."""
        from pbem.game import fog

        return fog.american_events(board, before, after, events) if side == "US" else events

    def known_victory(self, loaded, state, side: str, victory: dict, *, final: bool) -> dict:
        """A timed award (Leyte 16.34) stays out of the American view until the final report (issue 19 item 6)."""
        if final or state.hidden is None or not state.awards or side != "US":
            return victory
        from pbem.game.fog import without_awards

        return self.victory(loaded, without_awards(state), final=False)

    def judged_on(self, state, side: str):
        """The American orders on his picture; the Japanese player, who knows every unit, on the whole position."""
        if state.hidden is not None and side == "US":
            from pbem.game.fog import american_state

            return american_state(state)
        return state

    def as_carried(self, orders, state, side: str):
        """A hidden target of American orders is named by its hex (its marker's id): the unit standing there."""
        if state.hidden is not None and side == "US":
            from pbem.game.fog import named_by_hex

            return named_by_hex(orders, state)
        return orders

    def committed_position(self, state):
        """The American picture under hidden units (the Japanese player derives it from the whole position), else all."""
        if state.hidden is not None:
            from pbem.game.fog import american_state

            return american_state(state)
        return state

    def view_position(self, state_json: dict, side: str) -> dict:
        if side == "JP" and state_json.get("hidden") is not None:
            from pbem.game.codec import spi_state_from_json, spi_state_to_json
            from pbem.game.fog import american_state

            return spi_state_to_json(american_state(spi_state_from_json(state_json)))
        return state_json

    def sees_everything(self, side: str) -> bool:
        """The Japanese player sees every unit (19B.1: one unit a hex, 5.31); the American player his markers."""
        return side == "JP"

    def awaits_secret_setup(self, state) -> bool:
        return state.hidden is not None and not state.hidden.deployed

    # -- hidden units with no referee (pbem/game/modes/blind/: its checks read these rules) -------------------------

    def committed_pieces(self, state, key: bytes) -> dict[str, dict]:
        """One counter a hex (5.31), under its hex: the marker id is the hex."""
        from pbem.game.modes.blind.exposure import pieces

        return pieces(state)

    def view_markers(self, view: dict) -> list[str]:
        from pbem.model.common import NOT_ON_MAP

        where = view["state"]["locations"]
        return sorted(where[u["id"]] for u in view["state"]["units"] if u["side"] == "JP" and where[u["id"]] not in NOT_ON_MAP)

    def marker_hex(self, marker: str) -> str:
        return marker

    def blind_exposure(self, board, before, after, events: list[dict], side: str, keys: tuple[bytes, bytes]):
        from pbem.game.modes.blind import exposure as blind  # looked up at the call: the mode's cheat tests replace it

        found = blind.exposure(board, before, after, events, side)
        return found.before, found.after, found.claims

    def order_of_battle(self, loaded) -> dict[str, dict]:
        from pbem.game.modes.blind.exposure import PIECE_FIELDS

        return {u.id: {k: getattr(u, k) for k in PIECE_FIELDS if getattr(u, k) is not None}
                for u in loaded.scenario.units if u.side == "JP" and u.kind not in ("dummy", "hidden")}

    def dummies_removed(self, events: list[dict]) -> list[str]:
        return [e["hex"] for e in events if e["type"] == "dummy_removed"]

    def blind_public_checks(self) -> frozenset[str]:
        """Every check: each module of pbem/game/modes/blind/ reads this system's rules."""
        return frozenset({"setup", "setup_openings", "exposure", "moves", "concealed", "events", "attack", "defense"})


def _rules(ruleset: dict):
    """The game's rules as the engine reads them, from the ruleset its signed turn file carries."""
    from pbem.model.construct import construct
    from pbem.model.ruleset import Ruleset

    return construct(Ruleset, {k: v for k, v in ruleset.items() if k != "system"}, trusted=True)


SYSTEM = SpiSystem()

"""A rules system for tests only, registered through the registry: its units never move, and each player-turn rolls
one die and logs it (issue 39).  It borrows the SPI system's scenario, position and orders models (a system may bring
its own); its rules are its own, so a game played with it shows what the game layer asks of the seam and nothing more.

Its rule cases are ``toy.1`` (no unit moves) and ``toy.2`` (no unit attacks).
"""

from __future__ import annotations

from pathlib import Path

from pbem.errors import BadInput
from pbem.systems.base import Checked, PlayerTurn, Problem

NAME = "toy-still"


class StillSystem:
    name = NAME
    title = "Still Life (tests only): nothing moves; each player-turn rolls a die and logs it"
    options: frozenset[str] = frozenset()

    def load_scenario(self, document: dict, path: Path, *, verified: bool = False):
        from pbem.loading.datafiles import scenario_from

        return scenario_from(document, path, verified=verified)

    def carried_document(self, loaded, document: dict) -> dict:
        return document

    def catalogue_entry(self, loaded, *, full: bool) -> dict:
        """The borrowed scenario model's entry, as the SPI system gives it."""
        from pbem.systems import system_named

        return system_named(None).catalogue_entry(loaded, full=full)

    def describe(self, entry: dict) -> list[str]:
        return [f"{entry['id']}: {entry['title']} (the {NAME} system: nothing moves)"]

    def state_to_json(self, state) -> dict:
        """The borrowed position model, written as the SPI system writes it."""
        from pbem.systems import system_named

        return system_named(None).state_to_json(state)

    def state_from_json(self, document: dict):
        from pbem.systems import system_named

        return system_named(None).state_from_json(document)

    def tell_view(self, view: dict, outlook: dict | None) -> str:
        from pbem.systems import system_named

        return system_named(None).tell_view(view, outlook)

    def tell_last(self, last: dict) -> list[str]:
        from pbem.systems import system_named

        return system_named(None).tell_last(last)

    def map_scene(self, view: dict, loaded, **options):
        """Its views are the SPI models': drawn as the SPI system draws them."""
        from pbem.systems import system_named

        return system_named(None).map_scene(view, loaded, **options)

    def planner(self, view: dict, loaded, source: str):
        from pbem.systems import system_named

        return system_named(None).planner(view, loaded, source)

    def orders_template(self, view: dict, document: dict) -> tuple[dict, list[str]]:
        return {"moves": [], "attacks": []}, [f"the {NAME} system: nothing moves, nothing attacks"]

    def rules_named(self, ruleset: dict) -> str:
        return NAME

    def pinned_ruleset(self, loaded, edition: str | None) -> dict:
        if edition:
            raise BadInput(f"the {NAME} system has no editions, not {edition!r}", field="edition")
        return {"system": NAME}

    def rules(self, ruleset: dict) -> dict:
        return dict(ruleset)

    def opening(self, loaded, *, hidden: bool, options=None):
        """The scenario's set-up as the SPI system lays it out (its position model is borrowed too)."""
        from pbem.engine.sequence import opening

        if hidden:
            raise BadInput(f"the {NAME} system has no hidden units")
        return opening(loaded.scenario)

    def read_orders(self, document, source: str):
        from pbem.loading.datafiles import orders_from

        return orders_from(document, source)

    def check_orders(self, loaded, ruleset: dict, state, orders) -> Checked:
        problems = [Problem("toy.1", m.unit, "no unit moves in the toy system") for m in orders.moves]
        problems += [Problem("toy.2", None, "no unit attacks in the toy system") for _ in orders.attacks]
        return Checked(tuple(problems))

    def adjudicate(self, loaded, ruleset: dict, state, orders, dice, *, checked: Checked | None = None) -> PlayerTurn:
        checked = checked or self.check_orders(loaded, ruleset, state, orders)
        if not checked.valid:
            return PlayerTurn(False, checked.problems, (), (), state)
        side, turn = state.to_act(), state.position.turn
        die = dice.roll(f"toy: {side} player-turn of Game-Turn {turn}")
        return PlayerTurn(True, (), ({"type": "toy-roll", "side": side, "turn": turn, "die": die},), (), state)

    def end_player_turn(self, loaded, before, after):
        position, first = after.position, loaded.scenario.first_player
        if position.phasing == first:
            nxt = position.model_copy(update={"phasing": "JP" if first == "US" else "US"})
        else:
            nxt = position.model_copy(update={"phasing": first, "turn": position.turn + 1})
        return after.model_copy(update={"position": nxt}), []

    def game_over(self, loaded, state) -> bool:
        return state.position.turn > loaded.scenario.last_turn

    def victory(self, loaded, state, *, final: bool) -> dict:
        return {"final": final, "points": {"US": 0, "JP": 0}, "ratio": None, "level": "Draw" if final else None, "lines": []}

    def record_problems(self, public: dict, rolls: list[dict], scenario: dict | None = None) -> list[str]:
        """A valid player-turn rolls one die, an invalid one none, and no other roll is made."""
        valid = (public.get("last") or {}).get("valid")
        ours = [r for r in rolls if r["purpose"].startswith("toy: ")]
        return [] if len(ours) == len(rolls) == (1 if valid else 0) else [f"{len(rolls)} roll(s) made for a player-turn of the toy system"]

    def bot_orders(self, view: dict, loaded, policy: str, seed, think=None) -> dict:
        return {"moves": [], "attacks": []}

    def with_suggestions(self, problems, state):
        return list(problems)

    # -- hidden units (pbem/systems/base.py): it plays none, so a position never hides anything
    def hides(self, state) -> bool:
        return False

    def known_position(self, state, side: str):
        return state

    def known_events(self, board, before, after, side: str, events: list[dict]) -> list[dict]:
        return events

    def known_victory(self, loaded, state, side: str, victory: dict, *, final: bool) -> dict:
        return victory

    def judged_on(self, state, side: str):
        return state

    def as_carried(self, orders, state, side: str):
        return orders

    def committed_position(self, state):
        return state

    def view_position(self, state_json: dict, side: str) -> dict:
        return state_json

    def sees_everything(self, side: str) -> bool:
        return True

    def awaits_secret_setup(self, state) -> bool:
        return False

    # -- with no referee: it has no hidden units, so the mode never asks; the SPI system's answers, borrowed
    def committed_pieces(self, state, key: bytes) -> dict[str, dict]:
        return _spi().committed_pieces(state, key)

    def view_markers(self, view: dict) -> list[str]:
        return _spi().view_markers(view)

    def marker_hex(self, marker: str) -> str:
        return marker

    def blind_exposure(self, board, before, after, events, side, keys):
        return {}, {}, frozenset()

    def order_of_battle(self, loaded) -> dict[str, dict]:
        return _spi().order_of_battle(loaded)

    def dummies_removed(self, events: list[dict]) -> list[str]:
        return []

    def blind_public_checks(self) -> frozenset[str]:
        return frozenset()


def _spi():
    from pbem.systems import system_named

    return system_named(None)


SYSTEM = StillSystem()

"""Games for the ``pbem play`` tests: three unprotected keys and a genesis turn file, built in this process."""

from __future__ import annotations

from pathlib import Path


def new_game(base: Path, scenario: str = "leyte-assault", options: list[str] | None = None, edition: str | None = None) -> Path:
    """``base/{ref,us,jp}.key`` and ``base/game/turn-0000.pbem`` of a new game of ``scenario``; returns the turn file."""
    from pbem.game.modes.referee.start import start_game
    from pbem.protocol.files import write_new
    from tests.games import write_parties

    ids = write_parties(base)
    folder = base / "game"
    folder.mkdir()
    genesis = start_game(scenario, ids["ref"], ids["us"].public, ids["jp"].public, edition=edition, options=options)
    turn = folder / "turn-0000.pbem"
    write_new(turn, genesis.text)
    return turn


def planner_of(turn: Path, key: Path):
    """The :class:`~pbem.game.planning.Planner` of the holder of ``key`` on ``turn``."""
    from pbem.loading.turns import load_turn, scenario_of
    from pbem.game.planning import Planner
    from pbem.game.player import side_to_move
    from pbem.protocol.keys import read_private

    turn_file = load_turn(turn)
    _, view = side_to_move(turn_file, read_private(key, None))
    return Planner(view, scenario_of(turn_file))


def after_set_up(base: Path) -> Path:
    """A hidden-units ``leyte-assault`` game past the Japanese secret set-up (one drawn as the template draws it, seed 0):
    ``base/game/turn-0001.pbem``, the American player to move."""
    from pbem.loading.turns import load_turn, scenario_of
    from pbem.bot.setup import setup_orders
    from pbem.game.player import deployment_template, side_to_move
    from pbem.game.adjudication import adjudicate_orders
    from pbem.protocol.files import write_new
    from pbem.protocol.keys import read_private
    from pbem.protocol.ordersfile import build_orders_for_turn

    turn = new_game(base, options=["hidden-units"])
    genesis = load_turn(turn)
    jp = read_private(base / "jp.key", None)
    _, view = side_to_move(genesis, jp)
    from pbem.game.views import state_of_view

    board = scenario_of(genesis).board
    skeleton, _ = deployment_template(view, board, setup_orders(state_of_view(view), board, "greedy", 0))
    sent = build_orders_for_turn(jp, genesis, "JP", skeleton)
    done = adjudicate_orders(genesis, sent.text, "orders", read_private(base / "ref.key", None))
    nxt = turn.parent / "turn-0001.pbem"
    write_new(nxt, done.turn.text)
    return nxt

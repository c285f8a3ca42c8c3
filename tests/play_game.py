"""Games for the ``pbem play`` tests: three unprotected keys and a genesis turn file, built in this process."""

from __future__ import annotations

from pathlib import Path


def new_game(base: Path, scenario: str = "leyte-assault", options: list[str] | None = None, edition: str | None = None) -> Path:
    """``base/{ref,us,jp}.key`` and ``base/game/turn-0000.pbem`` of a new game of ``scenario``; returns the turn file."""
    from pbem.game.referee import start_game
    from pbem.protocol.files import write_new
    from pbem.protocol.keys import generate, write_private, write_public

    ids = {name: generate(name) for name in ("ref", "us", "jp")}
    for name, identity in ids.items():
        write_private(base / f"{name}.key", identity, None)
        write_public(base / f"{name}.pub", identity)
    folder = base / "game"
    folder.mkdir()
    genesis = start_game(scenario, ids["ref"], ids["us"].public, ids["jp"].public, edition=edition, options=options)
    turn = folder / "turn-0000.pbem"
    write_new(turn, genesis.text)
    return turn


def planner_of(turn: Path, key: Path):
    """The :class:`~pbem.game.planning.Planner` of the holder of ``key`` on ``turn``."""
    from pbem.game.folder import load_turn
    from pbem.game.planning import Planner
    from pbem.game.player import side_to_move
    from pbem.game.scenario_ref import scenario_of
    from pbem.protocol.keys import read_private

    turn_file = load_turn(turn)
    _, view = side_to_move(turn_file, read_private(key, None))
    return Planner(view, scenario_of(turn_file))

"""Short bot games of any scenario, written to real files, for the tests that read every turn file.

The loop is the one ``pbem demo`` runs (bot orders from the side's own
view, submitted, adjudicated by the referee), cut after a number of
player-turns.  The American bot never leaves the map, so :func:`exit_march`
amends its orders: one unit heads for an exit hex (16.13) and leaves by it,
so that the games include an exited unit (issue 20: a Japanese map once
read ``exited`` as a hex).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pbem.bot.fields import toward
from pbem.bot.orders import problems_with
from pbem.bot.play import bot_orders
from pbem.bot.reach import reach_of, reinforcement_reach
from pbem.bot.sight import see
from pbem.loading.datafiles import LoadedScenario
from pbem.loading.folder import keep_orders, turn_name
from pbem.loading.turns import load_turn, scenario_of
from pbem.game.player import side_to_move
from pbem.game.receipts import submit_orders
from pbem.game.adjudication import adjudicate_received
from pbem.game.modes.referee.start import start_game
from pbem.protocol.files import write_new
from tests.games import write_parties


def exit_march(view: dict[str, Any], loaded: LoadedScenario, document: dict[str, Any]) -> dict[str, Any]:
    """The bot's orders with one American unit moved as far as it can towards an exit hex, leaving by it when there.

    The marcher is the first unit (on the map, else waiting to land) that
    the bot does not use in an attack; it never ends next to the enemy.
    Orders the engine refuses are left as the bot wrote them.
    """
    if view["side"] != "US" or not loaded.scenario.exits and not loaded.scenario.exit_requirements:
        return document
    sight = see(view, loaded)
    goals = sorted({rule.hex for rule in [*loaded.scenario.exits, *loaded.scenario.exit_requirements] if rule.side == "US"})
    attacking = {u for a in document.get("attacks", []) for u in [*a.get("attackers", []), *a.get("barrage", [])]}
    others = {m["unit"]: (m.get("path") or [m.get("enter")])[-1] for m in document.get("moves", [])}
    taken = {h for u, h in sight.where.items()} | {h for h in others.values() if h}
    candidates = [u for u in sight.mine + sight.waiting if sight.units[u].kind != "artillery" and u not in attacking]
    options = []
    for unit in candidates:
        reach = reach_of(sight, unit) if unit in sight.where else reinforcement_reach(sight, unit)
        for goal in goals:
            field = toward(sight.board, goal)
            ends = [h for h in reach.hexes() if h in field and (h == goal or h not in sight.enemy_zoc)
                    and (h not in taken or h == sight.where.get(unit))]
            if ends:
                best = min(ends, key=lambda h: (field[h], h))
                if best != sight.where.get(unit) or best == goal:
                    options.append((field[best], unit, best, goal, reach))
    for _, unit, best, goal, reach in sorted(options, key=lambda o: o[:4]):  # the unit nearest an exit goes on
        enter, path = reach.path(best)
        move: dict[str, Any] = {"unit": unit, "path": path}
        if enter is not None:
            move["enter"] = enter
        if best == goal:
            move["exit"] = True
        amended = {**document, "moves": [m for m in document.get("moves", []) if m["unit"] != unit] + [move]}
        if not problems_with(sight, amended):
            return amended
    return document


def play_bot_game(base: Path, scenario: str, *, options: list[str] | None = None, player_turns: int = 4, exits: bool = True) -> Path:
    """``player_turns`` player-turns (or the whole game) of bots in ``base/game``, keys ``ref``/``us``/``jp`` in ``base``."""
    ids = write_parties(base)
    game = base / "game"
    game.mkdir()
    genesis = start_game(scenario, ids["ref"], ids["us"].public, ids["jp"].public, None, options=options)
    path = write_new(game / turn_name(0), genesis.text)
    for _ in range(player_turns):
        turn = load_turn(path)
        if turn.public["over"]:
            break
        side = turn.public["awaiting"]
        player = ids[side.lower()]
        _, view = side_to_move(turn, player)
        loaded = scenario_of(turn)
        document = bot_orders(view, loaded)
        if exits and not (view["state"].get("hidden") or {}).get("deployed") is False:
            document = exit_march(view, loaded, document)
        submitted = submit_orders(turn, player, side, document)
        done = adjudicate_received(turn, [(submitted.built.text, str(submitted.path))], ids["ref"])
        keep_orders(game, turn.seq, side, submitted.path, submitted.built.text, submitted.revision)
        path = write_new(game / turn_name(turn.seq + 1), done.turn.text)
    return game


def exited_units(turn_path: Path, key: Path) -> list[str]:
    """The units a turn file's referee state shows as exited."""
    from pbem.protocol.keys import read_private
    from pbem.protocol.turnfile import open_referee_state

    state = open_referee_state(load_turn(turn_path), read_private(key, None)).state["state"]
    return sorted(u for u, where in state["locations"].items() if where == "exited")


def dump(obj: Any) -> str:
    return json.dumps(obj, indent=2)

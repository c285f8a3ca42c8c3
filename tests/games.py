"""Small games built in this process, and ``pbem`` run in this process, for the command-line tests.

Building keys and turn files through the library (unprotected keys, no
subprocess) keeps the many command-line tests fast; the commands themselves
still run whole, through :func:`pbem.cli.main`, exactly as from a shell.
"""

from __future__ import annotations

import contextlib
import io
import os
import json
from pathlib import Path

from pbem.cli import main

ROOT = Path(__file__).resolve().parent.parent
SKIRMISH = ROOT / "scenarios" / "test-skirmish.json"
LANDING = {"moves": [{"unit": "us-7cav", "enter": "1104", "path": []}]}


def run(*args, cwd: Path | None = None) -> tuple[int, str, str]:
    """``pbem ARGS`` in this process (in ``cwd`` when given): exit status, stdout, stderr."""
    out, err = io.StringIO(), io.StringIO()
    previous = os.getcwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main([str(a) for a in args])
                status = 0
            except SystemExit as exc:
                status = exc.code if isinstance(exc.code, int) else 2
    finally:
        os.chdir(previous)
    return status, out.getvalue(), err.getvalue()


def pbem(*args, code: int = 0, cwd: Path | None = None) -> str:
    """``pbem ARGS`` expected to exit with ``code`` and never with a traceback: its stdout and stderr together."""
    status, out, err = run(*args, cwd=cwd)
    assert "Traceback" not in err, err
    assert status == code, f"pbem {' '.join(map(str, args))} -> {status}\n{out}\n{err}"
    return out + err


def cheaper_key(path: Path, passphrase: str) -> None:
    """The key file ``pbem keygen`` wrote re-protected with the same passphrase at a small scrypt cost (the file records
    it): every command that opens it then derives in milliseconds, not a third of a second each — a game of many
    commands proves its play, not the cost that protects a real player's key (tests/protocol/test_keys.py does)."""
    from pbem.protocol.keys import read_private, write_private

    identity = read_private(path, passphrase.encode())
    path.unlink()
    write_private(path, identity, passphrase.encode(), scrypt_n=2**10)


def shortened_scenario(folder: Path, scenario: str, last_turn: int) -> Path:
    """``scenario`` ended at Game-Turn ``last_turn``, written as ``folder/scenarios/ID.json`` under an id of its own
    (``assumed: test``): for a test that needs a scenario's units and map, not its length.  A refereed game takes the
    file's path; a game without a referee names its scenario by id, found in ``./scenarios`` when run from ``folder``."""
    from pbem.loading.datafiles import scenario_document, scenario_paths

    document = scenario_document(scenario_paths()[scenario])
    sid = f"{scenario}-to-{last_turn}"
    document |= {"id": sid, "last_turn": last_turn, "title": f"{document['title']}, to Game-Turn {last_turn} (assumed: test)"}
    path = folder / "scenarios" / f"{sid}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document))
    return path


def new_game(tmp_path: Path) -> Path:
    """Three identities and a refereed test-skirmish game in ``tmp_path/game``."""
    for name in ("ref", "us", "jp"):
        pbem("keygen", name, "--dir", tmp_path, "--no-passphrase")
    game = tmp_path / "game"
    pbem("new", "test-skirmish", "--us", tmp_path / "us.pub", "--jp", tmp_path / "jp.pub", "--referee", tmp_path / "ref.pub",
         "--key", tmp_path / "ref.key", "--out", game)
    return game


def write_parties(base: Path) -> dict:
    """Three unprotected identities, ``ref``, ``us`` and ``jp``, written as ``base/NAME.key`` and ``base/NAME.pub``."""
    from pbem.protocol.keys import generate, write_private, write_public

    ids = {name: generate(name) for name in ("ref", "us", "jp")}
    for name, identity in ids.items():
        write_private(base / f"{name}.key", identity, None)
        write_public(base / f"{name}.pub", identity)
    return ids


def small_game(base: Path, first_orders: dict | None = None) -> dict:
    """Three unprotected keys in ``base`` and a game in ``base/game``: the genesis turn file and,
    with ``first_orders``, the US player's first player-turn adjudicated.  Returns the identities."""
    from pbem.loading.turns import load_turn
    from pbem.game.adjudication import adjudicate_orders
    from pbem.game.modes.referee.start import start_game
    from pbem.protocol.files import write_new
    from pbem.protocol.ordersfile import build_orders_for_turn

    ids = write_parties(base)
    folder = base / "game"
    folder.mkdir()
    genesis = start_game(str(SKIRMISH), ids["ref"], ids["us"].public, ids["jp"].public)
    write_new(folder / "turn-0000.pbem", genesis.text)
    if first_orders is not None:
        sent = build_orders_for_turn(ids["us"], genesis, "US", first_orders)
        done = adjudicate_orders(load_turn(folder / "turn-0000.pbem"), sent.text, "orders", ids["ref"])
        write_new(folder / "turn-0001.pbem", done.turn.text)
    return ids

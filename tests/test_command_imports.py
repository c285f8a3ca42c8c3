"""What each command loads at start-up, for every command, in a plain game and under hidden units (issue 26).

``tests/test_startup_imports.py`` holds the quick commands to their light
imports; this file puts every command of ``pbem --help`` in one of three
classes and runs each (the game commands on a plain game and on a game with
hidden units) under ``python -X importtime``:

* LIGHT — neither pydantic nor jsonschema is imported (view, verify, …);
* NO_VALIDATOR — the models are used but no pydantic validator is built:
  what is read was checked before (:mod:`pbem.model.construct`);
* READS_INPUT — the command checks a document the user gives it (a scenario,
  a case, a map) with the models' validators: they may be built.

A command not in the table fails :func:`test_every_command_is_classed`.
A command listed in STILL_BUILDS would be marked as an expected failure,
strict, so that the mark must go when it stops (none is, since issue 26
took the bot's last validators out).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_startup_imports import BUILDS_A_VALIDATOR, HEAVY, _heavy, _loaded

ROOT = Path(__file__).resolve().parent.parent
LIGHT, NO_VALIDATOR, READS_INPUT = "light", "no validator", "reads input"

#: The game commands: how each is run on a game (T: the turn file the US moves on, S: its number) and its class.
GAME_COMMANDS = {
    "view": (["view", "{T}", "--key", "us.key"], LIGHT),
    "verify": (["verify", "game"], LIGHT),
    "orders template": (["orders", "template", "{T}", "--key", "us.key"], LIGHT),
    # with a key, status checks what verify --replay-mine does (issue 19 item 8): it replays the player's own turns
    "status": (["status", "game", "--key", "us.key"], NO_VALIDATOR),
    "dice": (["dice", "game"], LIGHT),
    "reveal": (["reveal", "game", "--key", "ref.key", "-o", "{OUT}/reveal.pbem"], LIGHT),
    "validate": (["validate", "orders/orders-{S}-US.json", "--turn", "{T}", "--key", "us.key"], NO_VALIDATOR),
    "submit": (["submit", "orders/orders-{S}-US.json", "--turn", "{OUT}/{T}", "--key", "us.key"], NO_VALIDATOR),
    "adjudicate": (["adjudicate", "{T}", "game/orders-{S}-US.pbem", "--key", "ref.key", "-o", "{OUT}/next.pbem"], NO_VALIDATOR),
    "audit": (["audit", "game", "--reveal", "reveal.pbem"], NO_VALIDATOR),
    "show": (["show", "{T}", "--key", "us.key", "--svg", "{OUT}/map.svg", "--html", "{OUT}/map.html"], NO_VALIDATOR),
    "bot": (["bot", "{T}", "--key", "us.key", "-o", "{OUT}/orders.json"], NO_VALIDATOR),
    "bot lookahead": (["bot", "{T}", "--key", "us.key", "--policy", "lookahead", "--think", "0.2", "-o", "{OUT}/orders.json"], NO_VALIDATOR),
}

#: Commands that need no game, with their class.
OTHER_COMMANDS = {
    "--help": (["--help"], LIGHT),
    "keygen": (["keygen", "zed", "--no-passphrase", "--dir", "{OUT}"], LIGHT),
    "new": (["new", "leyte-assault", "--us", "us.pub", "--jp", "jp.pub", "--referee", "ref.pub", "--key", "ref.key", "--out", "{OUT}/g"], READS_INPUT),
    "demo": (["demo", "--scenario", "test-skirmish", "--dir", "{OUT}/demo"], READS_INPUT),
    "case run": (["case", "run", str(ROOT / "examples" / "cases" / "IW-RET-001.json")], READS_INPUT),
    "orders check": (["orders", "check", "orders/orders-0000-US.json", "--position", "test-skirmish"], READS_INPUT),
    "scenario list": (["scenario", "list"], READS_INPUT),
    "scenario show": (["scenario", "show", "leyte-assault"], READS_INPUT),
    "map check": (["map", "check", str(ROOT / "scenarios" / "leyte" / "map.json")], READS_INPUT),
    "schema write": (["schema", "write", "{OUT}/schemas"], READS_INPUT),
    "judge init": (["judge", "init", "{OUT}/judge", "--address", "judge@example.org", "--key", "ref.key",
                    "--maildir", "{OUT}/Maildir", "--make-maildir", "--smtp", "127.0.0.1:2525", "--tls", "none"], READS_INPUT),
}

#: The commands of a game with hidden units and no referee, run on a copy of a finished demo game (its last file or the
#: secret taken out, so that there is a file to write); each reads the scenario through the models, like ``new``.
BLIND_COMMANDS = {
    "blind next": (["blind", "next", "{OUT}/US", "--key", "us.key"], "US", ["blind-0019-US.pbem", "blind-secret-JP.pbem"], READS_INPUT),
    "blind view": (["blind", "view", "{OUT}/US"], "US", [], READS_INPUT),
    "blind publish-secret": (["blind", "publish-secret", "{OUT}/JP", "--key", "jp.key"], "JP", ["blind-secret-JP.pbem"], READS_INPUT),
    # view, show and dice on such a folder (issue 24): they load it (the scenario through the models), as blind view does
    "view (no referee)": (["view", "{OUT}/US/blind-0010-JP.pbem", "--key", "us.key"], "US", [], READS_INPUT),
    "show (no referee)": (["show", "{OUT}/JP", "--key", "jp.key", "--svg", "{OUT}/map.svg"], "JP", [], READS_INPUT),
    "dice (no referee)": (["dice", "{OUT}/US"], "US", [], READS_INPUT),
}

#: Commands that serve, in one warm process, until they are stopped (``pbem play``, the judge's ``run``) or that act
#: on a judge's home and its mail (new, poll, list): their start-up is paid once per sitting or per poll, and their
#: tests are tests/test_play_app.py and tests/test_judge.py.
SERVICES = {"play", "judge new", "judge poll", "judge run", "judge list"}

#: Still building a pydantic validator (empty since issue 26: the bot's --think adapter, Ruleset, MapSpec dump and Orders
#: validation are gone).
STILL_BUILDS: set[str] = set()

#: The two games: folder name, the demo's arguments, the US turn file's number.
GAMES = {"plain": (["--scenario", "test-skirmish"], 2), "hidden": (["--scenario", "leyte-assault", "--option", "hidden-units"], 3)}


def _run(cwd: Path, args: list[str]) -> set[str]:
    env = {**os.environ, "PBEM_PASSPHRASE": ""}
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "pbem", *args], cwd=cwd, env=env, capture_output=True, text=True)
    assert done.returncode == 0, f"pbem {' '.join(args)} -> {done.returncode}\n{done.stderr[-3000:]}"
    loaded = _loaded(done.stderr)
    assert "pbem.cli" in loaded  # the listing is real
    return loaded


@pytest.fixture(scope="module")
def games(tmp_path_factory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("imports")
    for name, (args, _) in GAMES.items():
        subprocess.run([sys.executable, "-m", "pbem", "demo", *args, "--dir", name], cwd=base, check=True, capture_output=True)
    return {name: base / name for name in GAMES}


def _check(loaded: set[str], command: str, kind: str) -> None:
    if kind == LIGHT:
        heavy = HEAVY if command != "orders template" else tuple(h for h in HEAVY if h != "pbem.loading.datafiles")  # it reads the shipped scenario's JSON
        assert not _heavy(loaded, heavy), f"pbem {command} loaded {', '.join(_heavy(loaded, heavy)[:8])}"
    elif kind == NO_VALIDATOR:
        assert BUILDS_A_VALIDATOR not in loaded, f"pbem {command} built a pydantic validator: a model was validated, dumped or made with Model(...)"


def _marks(command: str) -> list:
    if command in STILL_BUILDS:
        return [pytest.mark.xfail(strict=True, reason="issue 26: still builds a pydantic validator; drop it from STILL_BUILDS once it does not")]
    return []


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("command", [pytest.param(c, marks=_marks(c)) for c in GAME_COMMANDS])
def test_a_game_command_loads_what_its_class_allows(games, game, command, tmp_path):
    folder, seq = games[game], GAMES[game][1]
    turn = f"game/turn-{seq:04d}.pbem"
    (tmp_path / "game").mkdir()  # submit writes beside its turn file: a copy of the game of its own
    for name in ("game/turn-0000.pbem", turn):
        shutil.copy(folder / name, tmp_path / name)
    args, kind = GAME_COMMANDS[command]
    args = [a.format(T=turn, S=f"{seq:04d}", OUT=tmp_path) for a in args]
    _check(_run(folder, args), command, kind)


@pytest.mark.parametrize("command", list(OTHER_COMMANDS))
def test_a_command_without_a_game_loads_what_its_class_allows(games, command, tmp_path):
    args, kind = OTHER_COMMANDS[command]
    _check(_run(games["plain"], [a.format(OUT=tmp_path) for a in args]), command, kind)


def _blind_demo(tmp_path_factory, *extra: str) -> Path:
    base = tmp_path_factory.mktemp("blind-imports")
    subprocess.run([sys.executable, "-m", "pbem", "demo", "--scenario", "test-skirmish", "--no-referee", "--option", "hidden-units",
                    *extra, "--dir", "blind"], cwd=base, check=True, capture_output=True)
    return base / "blind"


@pytest.fixture(scope="module")
def blind_game(tmp_path_factory) -> Path:
    return _blind_demo(tmp_path_factory)


@pytest.fixture(scope="module")
def escrow_game(tmp_path_factory) -> Path:
    return _blind_demo(tmp_path_factory, "--escrow")


#: The escrow holder's command, run on a copy of a finished demo game with an escrow (its opened shares taken out).
ESCROW_COMMANDS = {
    "blind recover": (["blind", "recover", "{OUT}/US", "--key", "escrow.key"], "US",
                      ["blind-share-holder.pbem", "blind-share-US.pbem"], READS_INPUT),
}


@pytest.mark.parametrize("command,game", [(c, "blind_game") for c in BLIND_COMMANDS] + [(c, "escrow_game") for c in ESCROW_COMMANDS])
def test_a_command_of_a_game_without_a_referee_loads_what_its_class_allows(request, command, game, tmp_path):
    """Each player's commands on a finished demo game, and the escrow holder's on one with an escrow."""
    folder = request.getfixturevalue(game)
    args, side, remove, kind = (BLIND_COMMANDS | ESCROW_COMMANDS)[command]
    shutil.copytree(folder / side, tmp_path / side)
    for name in remove:
        (tmp_path / side / name).unlink()
    _check(_run(folder, [a.format(OUT=tmp_path) for a in args]), command, kind)


def test_every_command_is_classed():
    from typer.main import get_group

    from pbem.cli import app

    def names(group, prefix=""):
        for name, command in group.commands.items():
            if hasattr(command, "commands"):
                yield from names(command, f"{prefix}{name} ")
            else:
                yield f"{prefix}{name}"

    known = set(GAME_COMMANDS) | set(OTHER_COMMANDS) | set(BLIND_COMMANDS) | set(ESCROW_COMMANDS) | SERVICES
    missing = sorted(set(names(get_group(app))) - known)
    assert not missing, f"class these commands in tests/test_command_imports.py: {', '.join(missing)}"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_status_a_second_time_loads_no_model(games, game, tmp_path):
    """``status --key`` replays the player's turns once and remembers them (:mod:`pbem.game.modes.referee.replayed`): run again on
    the same files it checks his views as ``pbem view`` does and replays nothing, so it is a light command again."""
    folder = tmp_path / game
    shutil.copytree(games[game], folder)
    args, _ = GAME_COMMANDS["status"]
    _check(_run(folder, args), "status", NO_VALIDATOR)
    _check(_run(folder, args), "status", LIGHT)

"""The ``pbem`` command line: parses, calls, prints — no rules, no crypto here.

Commands live in small modules by audience (:mod:`.cases`, :mod:`.players`,
:mod:`.referee`, :mod:`.checks`).  Every command imports what it needs inside
its own body, so that ``pbem --help`` and the quick commands a player runs
often do not pay for modules they never use.  Every
:class:`~pbem.errors.PbemError` becomes one line on stderr and its exit
status; nothing a user can type produces a traceback.
"""

from __future__ import annotations

import sys
from typing import Optional

import typer

#: The app before its commands are registered; ``pbem.cli.app`` is the app with every command (:func:`load_commands`).
root = typer.Typer(
    name="pbem",
    help="Play the Island War board wargames by e-mail: rule-checked orders, dice no one can fake, signed turn files.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
case_app = typer.Typer(help="Conformance cases: positions, orders, fixed dice and the outcome the rules demand.", no_args_is_help=True)
orders_app = typer.Typer(help="Orders files: a template for your turn, and checks against a position.", no_args_is_help=True)
schema_app = typer.Typer(help="The JSON Schemas of pbem's files.", no_args_is_help=True)
scenario_app = typer.Typer(help="The scenarios pbem ships: list them, show one.", no_args_is_help=True)
map_app = typer.Typer(help="Map files: check one you have edited.", no_args_is_help=True)
judge_app = typer.Typer(help="The judge: the referee's side of many games, unattended, by e-mail (docs/judge.md).", no_args_is_help=True)
root.add_typer(case_app, name="case")
root.add_typer(orders_app, name="orders")
root.add_typer(schema_app, name="schema")
root.add_typer(scenario_app, name="scenario")
root.add_typer(map_app, name="map")
blind_app = typer.Typer(help="Hidden units with no referee: your next file, the view, the secret at the end (docs/hidden-units.md).", no_args_is_help=True)
root.add_typer(judge_app, name="judge")
root.add_typer(blind_app, name="blind")

#: The module that registers each command or group a command line can name first: running that
#: command imports only these (tests/test_cli_narrow.py holds the table to what the modules register).
COMMAND_MODULES: dict[str, tuple[str, ...]] = {
    "keygen": ("players",), "view": ("players",), "validate": ("players",), "submit": ("players",),
    "orders": ("players", "cases"), "new": ("referee",), "adjudicate": ("referee",),
    "verify": ("checks",), "reveal": ("checks",), "audit": ("checks",), "dice": ("checks",), "status": ("checks",),
    "bot": ("bot",), "demo": ("bot",), "show": ("show",), "play": ("play",), "case": ("cases",), "schema": ("cases",),
    "scenario": ("scenarios",), "map": ("maps",), "judge": ("judge",), "blind": ("blind",),
}
#: Every command module, in the order whose registrations list the commands in ``pbem --help``.
MODULES = ("blind", "bot", "cases", "checks", "judge", "maps", "play", "players", "referee", "scenarios", "show")


def load_commands(words: Optional[list[str]] = None) -> typer.Typer:
    """:data:`root` with the command the command line names first registered, or every command
    when it names none the table knows (``pbem``, ``--help``, a mistyped name): importing the
    eleven command modules and declaring their options costs every command a few milliseconds."""
    import importlib

    first = words[0] if words else None
    for name in COMMAND_MODULES.get(first or "", MODULES):
        importlib.import_module(f"pbem.cli.{name}")
    return root


def __getattr__(name: str):
    """``pbem.cli.app``: the app with every command registered (what a test or a tool that drives the app expects)."""
    if name == "app":
        return load_commands()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _utf8_output() -> None:
    """Output that cannot crash on any console: UTF-8 to a file or pipe whatever the locale says,
    a legacy console's code page kept with plain stand-ins for what it lacks (:mod:`pbem.cli.streams`)."""
    from pbem.cli.streams import prepare

    for stream in (sys.stdout, sys.stderr):
        prepare(stream)


def main(argv: Optional[list[str]] = None) -> None:
    """Console entry point: run the app, turning user errors into one line and an exit status.

    Usage errors (a missing argument, an unknown option) are typer's to
    report: one line and exit status 2.  Parameters are coerced without
    pydantic (:mod:`pbem.cli.plain`), so that a command that reads no
    pydantic model never imports it.  A fault of pbem's own still gets one
    line, not a traceback, and exit status 3.  Only the command being run
    is built (:mod:`pbem.cli.narrow`).
    """
    import os

    from pbem.cli.narrow import narrowed
    from pbem.errors import PbemError
    from pbem.collector import pause_collector

    words = sys.argv[1:] if argv is None else list(argv)
    if argv is None:  # the process is this one command (an entry point older than pbem.start's)
        pause_collector(words)
    # pbem uses no pydantic plugin: spare every command that builds a model the
    # scan of all installed packages' entry points that looks for them.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    _utf8_output()
    try:
        command = _built(narrowed(load_commands(words), words))
        command(args=argv, prog_name="pbem", standalone_mode=True)
    except PbemError as exc:
        typer.echo(f"pbem: {exc.render()}", err=True)
        sys.exit(exc.exit_code)
    except Exception as exc:  # noqa: BLE001 - the last line of defence against a traceback
        typer.echo(f"pbem: internal error ({type(exc).__name__}: {exc}); please report it with the command you ran", err=True)
        sys.exit(3)
    finally:
        if argv is None:  # the process is this one command (not a test calling main in its own process)
            _spare_the_collector()


#: The click command built for each shape of the app (:func:`_shape`): one process that runs many
#: commands (a test, a tool calling :func:`main`) builds each once.
_BUILT: dict[tuple, object] = {}


def _shape(app) -> tuple:
    """What typer builds a click command from: the registered commands and groups, a group's own in turn."""
    groups = tuple((id(g), _shape(g.typer_instance)) for g in app.registered_groups if g.typer_instance is not None)
    return tuple(map(id, app.registered_commands)), groups


def _built(app):
    """The click command of ``app`` with pbem's plain coercion (:mod:`pbem.cli.plain`), built once per shape: typer
    reads every parameter's declaration each time it builds one, a command's whole cost in a process that runs many."""
    from typer.main import get_group

    from pbem.cli import plain

    key = _shape(app)
    if key not in _BUILT:
        command = get_group(app)
        plain.install(command)
        _BUILT[key] = command
    return _BUILT[key]


def _spare_the_collector() -> None:
    """Freeze every object the command built, now that its work is done and its files are closed.

    At exit Python's garbage collector would walk them all once more to free
    what the process is about to give back anyway: about a sixth of a quick
    command's CPU time (docs/performance.md).  Frozen objects are skipped.
    """
    import gc

    gc.freeze()

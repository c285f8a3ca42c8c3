"""Where the ``pbem`` process starts (the console script and ``python -m pbem``): the collector paused first.

A command that ends — every command but the judge and the map page, which
run until stopped — is run with Python's cyclic garbage collector off from
the very first import.  Loading typer, pydantic and pbem's modules
allocates tens of thousands of objects that live as long as the process;
the collector walked them again and again (about 85 collections for a
``validate``, more for an audit) and found nothing to free: about 7 % of a
quick command's CPU time (docs/performance.md, issue 26's sixth round).
Memory does not grow for it: a whole ``pbem demo`` game or the audit of a
26-Game-Turn game peaks within a few percent of what it does with the
collector, since pbem's objects rarely form cycles and reference counting
frees everything else at once.  This module imports nothing of pbem's
before the collector is paused; :mod:`pbem.cli` does the rest.
"""

from __future__ import annotations

import sys

#: The commands that run until stopped (a judge for days, the map page for a sitting): they keep the collector.
SERVING = frozenset({"judge", "play"})


def serves(words: list[str]) -> bool:
    """Whether the command line names a command that runs until stopped (:data:`SERVING`)."""
    return bool(words) and words[0] in SERVING


def pause_collector(words: list[str]) -> None:
    """Turn the cyclic collector off for a process that runs one command that ends (not :data:`SERVING`)."""
    if not serves(words):
        import gc

        gc.disable()


def resume_collector() -> None:
    """The collector on again, for work that goes on long enough to leave cycles worth freeing.

    An event's audit examines game after game in one process (or a pool
    forked from it): each 26-Game-Turn audit leaves a few MB of cycles,
    which a one-game command can leave to the exit but a tournament cannot."""
    import gc

    gc.enable()


def main() -> None:
    """The console entry point: the collector paused, then :func:`pbem.cli.main`."""
    pause_collector(sys.argv[1:])
    from pbem.cli import main as run

    run()

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
before the collector is paused (:mod:`pbem.collector` imports nothing);
:mod:`pbem.cli` does the rest.
"""

from __future__ import annotations

import sys

from pbem.collector import pause_collector


def main() -> None:
    """The console entry point: the collector paused, then :func:`pbem.cli.main`."""
    pause_collector(sys.argv[1:])
    from pbem.cli import main as run

    run()

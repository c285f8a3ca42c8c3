"""When Python's cyclic garbage collector runs: off for a command that ends, on for one that serves.

Kept apart from :mod:`pbem.start` (which starts the command line) and imports nothing,
so that the entry point, the command line and the event audit all ask it without a circle.
"""

from __future__ import annotations


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

"""How the suite is spread over processes (issue 34).

pyproject's ``addopts`` runs the suite under pytest-xdist, ``-n auto --dist loadfile`` (a worker a core):
each test file runs whole in one worker, so a file's module-scoped fixture (a
game played once for its tests) is built once, never once per worker.  The
workers take the files in the order below, the longest first, so that no long
file starts last while the other workers sit idle; a file not named here runs
after them in the usual order.  The list only balances the workers: a file
missing from it, or out of its place, costs time, never a result.

``-n 0`` runs everything in this one process, in the usual order;
``-p no:xdist`` too (the xdist options of ``addopts`` are then taken and
ignored here).
"""

from __future__ import annotations

import gc
import os

import pytest

#: The test files that take longest (3 s or more of one worker, measured on the quiet 2-core machine on 2026-12-02,
#: after the schema checks were remembered per content), longest first.
LONGEST_FIRST = [
    "tests/test_play_browser.py",
    "tests/test_judge.py",
    "tests/test_benchmarks.py",
    "tests/test_play_view.py",
    "tests/test_all_views.py",
    "tests/test_command_imports.py",
    "tests/test_blind_file_attacks.py",
    "tests/test_installed_package.py",
    "tests/test_e2e_game.py",
    "tests/test_properties.py",
    "tests/test_blind_escrow.py",
    "tests/test_event_audit.py",
    "tests/test_trust_cli.py",
    "tests/test_judge_first_hour.py",
    "tests/test_lookahead.py",
    "tests/test_platforms.py",
    "tests/test_blind_openings.py",
    "tests/test_soak.py",
    "tests/test_legion_hidden_blind.py",
    "tests/test_bot_cli.py",
    "tests/test_threats_cli.py",
    "tests/test_issue37_attacks.py",
    "tests/test_bot_play.py",
    "tests/test_cli_cases.py",
    "tests/test_two_player.py",
    "tests/test_random_gsp.py",
    "tests/test_hidden_leaks.py",
    "tests/test_hidden_games.py",
    "tests/test_play_reach.py",
    "tests/test_play_legion_browser.py",
    "tests/test_blind_cli.py",
    "tests/test_engine_equivalence.py",
    "tests/test_fog_blind.py",
    "tests/test_leyte_campaign.py",
    "tests/test_render_browser_issue20.py",
    "tests/test_legion_seam.py",
    "tests/test_status_remembers.py",
]


def pytest_configure(config):
    """pbem byte-compiled once, before any worker starts, as pip compiles an installed package.

    Where PYTHONDONTWRITEBYTECODE is set (it is on the test machines) no import
    writes a ``.pyc``: each worker, and each of the many ``pbem`` processes the
    tests start, would compile every module it imports again, which cost more
    than a third of a plain command's time.  Reading a ``.pyc`` is not writing
    one, so the setting is kept for everything else."""
    gc.set_threshold(200_000, 50, 100)  # see pytest_collection_finish
    if hasattr(config, "workerinput"):  # an xdist worker: the controller compiled already
        return
    import compileall
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    compileall.compile_dir(root / "pbem", quiet=1)
    compileall.compile_dir(root / "tests", quiet=1, rx=re.compile(r"[/\\]test_[^/\\]*\.py$"))  # test files are rewritten


def pytest_collection_finish(session):
    """What is loaded once collected is set aside from the garbage collector, and it runs less often: the games the
    tests play build many short-lived objects beside a large heap of modules, schemas and models, which each full
    collection walked again (a quarter of the CPU of the files that play games in this process).  pbem's own
    processes keep Python's defaults."""
    gc.collect()
    gc.freeze()


def pytest_addoption(parser, pluginmanager):
    if not pluginmanager.has_plugin("xdist"):  # -p no:xdist: addopts' -n and --dist, taken and ignored
        group = parser.getgroup("xdist stand-in")  # _addoption: -n is a lowercase short option, as xdist's own
        group._addoption("-n", "--numprocesses", dest="numprocesses", default=None, help="ignored: pytest-xdist is not loaded")
        group._addoption("--dist", dest="dist", default="no", help="ignored: pytest-xdist is not loaded")
        group._addoption("--no-loadscope-reorder", dest="loadscopereorder", action="store_false", help="ignored: pytest-xdist is not loaded")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Under xdist, the longest files first (each file's tests kept together and in their order)."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        return
    rank = {path: index for index, path in enumerate(LONGEST_FIRST)}
    first_seen: dict[str, int] = {}
    for index, item in enumerate(items):
        first_seen.setdefault(item.nodeid.split("::")[0], index)

    def key(item):
        path = item.nodeid.split("::")[0]
        return (rank.get(path, len(rank)), first_seen[path])

    items.sort(key=key)  # stable: a file's tests keep their order

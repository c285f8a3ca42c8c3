"""The hidden-units leak test at full size: hundreds of bot games, every step scanned (issue 10 item 8).

Not a unit test: CI plays a few games (tests/test_hidden_leaks.py,
``PBEM_LEAK_GAMES``); this plays ``--games`` (200 by default) with the same
checks (tests/leak_scan.py) and prints what it scanned.  Run with
``.venv/bin/python benchmarks/hidden_leaks.py [--games 200]``; exit 1 on any leak.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pbem.datafiles import load_scenario  # noqa: E402
from tests.leak_scan import Scan, plan, scan_game  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--no-full-swaps", action="store_true", help="trade identities in the position only, not in the whole view")
    args = parser.parse_args()
    scan = Scan()
    loaded = {}
    start = time.perf_counter()
    for scenario, policies, seed in plan(args.games):
        loaded.setdefault(scenario, load_scenario(scenario))
        scan_game(scan, loaded[scenario], policies, seed, full_swaps=not args.no_full_swaps)
    seconds = time.perf_counter() - start
    print(f"{scan.games} games, {scan.steps} steps scanned, {scan.swaps} identity trades, "
          f"{scan.under_markers['real']} markers over real units and {scan.under_markers['dummy']} over dummies, "
          f"{len(scan.shapes)} marker shape(s), {len(scan.leaks)} leak(s), {seconds:.0f} s")
    for leak in scan.leaks:
        print("LEAK", leak)
    return 1 if scan.leaks else 0


if __name__ == "__main__":
    sys.exit(main())

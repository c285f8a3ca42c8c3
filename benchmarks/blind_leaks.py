"""The leak scan of hidden units with no referee at full size (issue 24): many bot games, every step scanned.

Not a unit test: CI plays a few games (tests/test_blind_leaks.py,
``PBEM_BLIND_LEAK_GAMES``); this plays ``--games`` (200 by default) with the
same checks (tests/blind_leak_scan.py): the refereed scan of every American
view, the openings against the rules' exposure, identities traded, the roots
and sibling hashes (format, never repeated, bits balanced) and the
small-space search.  ``--fresh`` draws each game's two secrets from the
operating system instead of fixing them by the seed.

Run with ``.venv/bin/python benchmarks/blind_leaks.py [--games 200]``; exit 1 on any leak.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pbem.loading.datafiles import load_scenario  # noqa: E402
from tests.blind_leak_scan import BlindScan, scan_blind_game  # noqa: E402
from tests.leak_scan import plan  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--fresh", action="store_true", help="fresh secrets for every game (a leak found may not recur)")
    args = parser.parse_args()
    scan = BlindScan()
    start = time.perf_counter()
    for name, policies, seed in plan(args.games):
        secrets = (os.urandom(32), os.urandom(32)) if args.fresh else None
        scan_blind_game(scan, load_scenario(name), policies, seed, secrets)
    spread = (scan.ones - scan.bits / 2) / (math.sqrt(scan.bits) / 2) if scan.bits else 0.0
    print(f"{scan.games} games, {scan.steps} steps scanned, {scan.openings} openings, {scan.swaps} identity trades, "
          f"{scan.hidden_leaves} hidden leaves, {scan.guesses} guessed leaves, {scan.bits} hash bits "
          f"({spread:+.2f} standard deviations from half ones), {len(scan.leaks)} leak(s), "
          f"{time.perf_counter() - start:.0f} s")
    for leak in scan.leaks:
        print("LEAK", leak)
    return 1 if scan.leaks or abs(spread) > 5 else 0


if __name__ == "__main__":
    sys.exit(main())

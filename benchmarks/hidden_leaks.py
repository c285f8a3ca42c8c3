"""The hidden-units leak test at full size: hundreds of bot games, every step scanned (issues 10 and 19).

Not a unit test: CI plays a few games (tests/test_hidden_leaks.py,
``PBEM_LEAK_GAMES``); this plays ``--games`` (200 by default) with the same
checks (tests/leak_scan.py), and for each game also:

- the set-up observer (tests/setup_observer.py): from the public scenario and
  the American view of turn file 1 he guesses every marker; his accuracy is
  printed beside the baseline that knows only the counts, with 95% intervals;
  a leak is an observer significantly above the baseline (z >= 3);
- twin turn files (tests/size_twins.py): every step built with two hidden
  identities traded, every length compared; and any sealed part that needs
  more than the game's public size;
- the timed award (16.34) is checked by the scan itself, (d).

Run with ``.venv/bin/python benchmarks/hidden_leaks.py [--games 200]``; exit 1 on any leak.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pbem.loading.datafiles import load_scenario  # noqa: E402
from tests.leak_scan import Scan, plan, scan_game  # noqa: E402
from tests.setup_observer import Observation  # noqa: E402
from tests.size_twins import parties  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--training", type=int, default=2000, help="set-ups the learned observer draws per scenario and policy")
    parser.add_argument("--no-full-swaps", action="store_true", help="trade identities in the position only, not in the whole view")
    args = parser.parse_args()
    scan = Scan()
    observation = Observation()
    keys = parties()
    loaded = {}
    start = time.perf_counter()
    for scenario, policies, seed in plan(args.games):
        loaded.setdefault(scenario, load_scenario(scenario))
        scan_game(scan, loaded[scenario], policies, seed, full_swaps=not args.no_full_swaps, observation=observation,
                  parties=keys, training=args.training)
    seconds = time.perf_counter() - start
    for which in (0, 1):
        for name, tally in observation.tallies.items():
            if tally.z(which) >= 3:
                scan.leak("set-up observer", f"{name} is {tally.z(which):.1f} standard errors above the baseline "
                          f"({'dummy or real' if which == 0 else 'identity'})")
    print(f"{scan.games} games, {scan.steps} steps scanned, {scan.swaps} identity trades, "
          f"{scan.under_markers['real']} markers over real units and {scan.under_markers['dummy']} over dummies, "
          f"{len(scan.shapes)} marker shape(s), {scan.awards} step(s) with a timed award checked, "
          f"{scan.size_twins} twin turn files compared, {scan.growths} sealed size growth(s), {len(scan.leaks)} leak(s), {seconds:.0f} s")
    for line in observation.report():
        print(line)
    for leak in scan.leaks:
        print("LEAK", leak)
    return 1 if scan.leaks else 0


if __name__ == "__main__":
    sys.exit(main())

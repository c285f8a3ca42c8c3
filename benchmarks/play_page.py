"""Benchmark: how long each ``pbem play`` page action takes on Leyte positions (target: under 100 ms each).

Not a test: it prints figures.  Run with ``.venv/bin/python benchmarks/play_page.py``
(``--rounds N``, default 5; ``--units N`` to time fewer units per position).

The positions are a Leyte game played bot against bot by ``pbem demo``
(``leyte-assault``, seed 3): the American Game-Turn 1 (every unit still to
land) and the American Game-Turn 4 (both armies in contact).  Each action is
one HTTP call to the page's app, as the browser makes it (Starlette's test
client, in process: the loopback socket adds well under a millisecond), with
the bot's orders for that view as the orders standing:

- ``check``: the problems, attacks owed, odds and GSP left after a change;
- ``reach``: the hexes a unit may reach with the MP spent (every unit of the side);
- ``path``: the cheapest legal path to the farthest hex it may reach;
- ``page``: opening the page itself, map and all (drawn once per sitting, then kept): not an action, shown apart.

One untimed call of each kind first (the first call imports what the answers need).
Prints the median and the worst time of each action, and whether the worst is under 100 ms.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TARGET_MS = 100.0


def _demo(folder: Path) -> Path:
    subprocess.run([sys.executable, "-m", "pbem", "demo", "--dir", str(folder), "--seed", "3"], check=True, capture_output=True, cwd=ROOT)
    return folder


def _time(call) -> float:
    start = time.perf_counter()
    call()
    return (time.perf_counter() - start) * 1000


def bench(turn: Path, key: Path, rounds: int, units: int | None) -> dict[str, list[float]]:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Starlette's notice that its test client will move to httpx2
        from starlette.testclient import TestClient

    from pbem.bot.play import bot_orders  # noqa: F401  (imported here so its cost is not timed)
    from pbem.protocol.keys import read_private
    from pbem.web.app import build_app
    from pbem.web.session import Sitting

    sitting = Sitting.open(turn, read_private(key, None), Path(tempfile.mkdtemp()) / "orders.json")
    plan = Path(tempfile.mkdtemp()) / "plan.json"
    subprocess.run([sys.executable, "-m", "pbem", "bot", str(turn), "--key", str(key), "-o", str(plan)], check=True, capture_output=True)
    document = json.loads(plan.read_text())
    token = "bench"
    times: dict[str, list[float]] = {"check": [], "reach": [], "path": [], "page": []}
    with TestClient(build_app(sitting, token), base_url="http://127.0.0.1") as client:
        post = lambda name, payload: client.post(f"/{token}/api/{name}", json=payload)  # noqa: E731
        movable = sitting.planner.movable()[:units]
        times["page"].append(_time(lambda: client.get(f"/{token}/")))
        post("check", {"document": document})
        post("reach", {"document": document, "unit": movable[0]})
        for _ in range(rounds):
            times["check"].append(_time(lambda: post("check", {"document": document})))
            for unit in movable:
                answer = {}
                times["reach"].append(_time(lambda: answer.update(post("reach", {"document": document, "unit": unit}).json())))
                far = max(answer["hexes"], key=lambda h: float(answer["hexes"][h]), default=None)
                if far is not None:
                    times["path"].append(_time(lambda: post("path", {"document": document, "unit": unit, "to": far})))
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--units", type=int, default=None, help="time this many units per position (default: all)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = _demo(Path(tmp) / "demo")
        worst = 0.0
        for label, name in (("Leyte, American Game-Turn 1", "turn-0000.pbem"), ("Leyte, American Game-Turn 4", "turn-0006.pbem")):
            times = bench(folder / "game" / name, folder / "us.key", args.rounds, args.units)
            print(f"{label} ({name}):")
            for action, values in times.items():
                if values:
                    worst = max(worst, max(values)) if action != "page" else worst
                    print(f"  {action:<6} {len(values):>4} call(s)  median {statistics.median(values):7.1f} ms  worst {max(values):7.1f} ms")
        verdict = "under" if worst < TARGET_MS else "OVER"
        print(f"worst page action: {worst:.1f} ms, {verdict} the {TARGET_MS:.0f} ms target")


if __name__ == "__main__":
    main()

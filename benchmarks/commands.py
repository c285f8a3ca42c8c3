"""Benchmark: how long players' and referee's commands take, and how big a Leyte-sized turn file is.

Not a test: it prints timings.  Run with ``.venv/bin/python benchmarks/commands.py``.

Each command is timed as a user runs it (a fresh process), against the bare
cost of starting Python and of importing the dependencies, so that what pbem
itself adds is visible.  The game is synthetic but of Leyte's size: a 29x32
map, 110 units, a front of 15 contacts; the US player-turn adjudicated moves
40 units and resolves 15 combats.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PYTHON = sys.executable
RUNS = 5


def timed(args: list[str], cwd: Path, runs: int = RUNS) -> float:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(args, cwd=cwd, check=True, capture_output=True)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def leyte_sized_scenario() -> dict:
    units = []
    front = list(range(2, 32, 2))  # 15 contacts along columns 10 (US) and 11 (JP)
    for r in front:
        units.append({"id": f"us-f{r}", "side": "US", "kind": "infantry", "attack": 5, "defense": 5, "move": 5, "hex": f"10{r:02d}", "source": "assumed: benchmark"})
        units.append({"id": f"jp-f{r}", "side": "JP", "kind": "infantry", "attack": 2, "defense": 3, "move": 6, "hex": f"11{r:02d}", "source": "assumed: benchmark"})
    rear = [(c, r) for c in (2, 4, 6) for r in range(1, 32, 2)][:45]
    for i, (c, r) in enumerate(rear):
        kind = "artillery" if i % 5 == 0 else "infantry"
        strengths = {"barrage": 2, "fpf": 3, "range": 5} if kind == "artillery" else {"attack": 3}
        units.append({"id": f"us-r{i}", "side": "US", "kind": kind, **strengths, "defense": 2, "move": 5, "hex": f"{c:02d}{r:02d}", "source": "assumed: benchmark"})
    for i, (c, r) in enumerate([(c, r) for c in (18, 20, 22, 24) for r in range(1, 32, 3)][:35]):
        units.append({"id": f"jp-r{i}", "side": "JP", "kind": "infantry", "attack": 2, "defense": 3, "move": 6, "hex": f"{c:02d}{r:02d}", "source": "assumed: benchmark"})
    terrain = {f"{c:02d}{r:02d}": ("rough" if (c * 7 + r * 3) % 11 == 0 else "broken") for c in range(12, 30) for r in range(1, 33) if (c + r) % 4 == 0}
    return {
        "id": "bench-leyte-size", "title": "Benchmark position of Leyte's size", "kind": "test",
        "ruleset": {"edition": "dg-2009", "exclusive": "leyte"}, "map_source": "assumed: benchmark",
        "map": {"cols": 29, "rows": 32, "terrain": terrain, "beaches": ["0101"]},
        "units": units,
        "ground_support": [{"turn": 1, "US": 6, "JP": 2, "source": "assumed: benchmark"}],
        "first_player": "US", "first_turn": 1, "last_turn": 8,
    }


def us_orders(scenario: dict) -> dict:
    moves = [{"unit": u["id"], "path": [u["hex"][:2] + f"{int(u['hex'][2:]) + 1:02d}"]} for u in scenario["units"] if u["id"].startswith("us-r")][:40]
    attacks = [{"attackers": [f"us-f{r}"], "defenders": [f"jp-f{r}"], "gsp": 1 if r < 14 else 0} for r in range(2, 32, 2)]
    return {"moves": moves, "attacks": attacks}


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        scenario = leyte_sized_scenario()
        (work / "scenario.json").write_text(json.dumps(scenario))
        (work / "orders.json").write_text(json.dumps(us_orders(scenario)))
        pbem = [PYTHON, "-m", "pbem"]
        for name in ("ref", "us", "jp"):
            subprocess.run(pbem + ["keygen", name, "--no-passphrase"], cwd=work, check=True, capture_output=True)
        subprocess.run(pbem + ["new", "scenario.json", "--us", "us.pub", "--jp", "jp.pub", "--referee", "ref.pub", "--key", "ref.key", "--out", "game"], cwd=work, check=True, capture_output=True)
        subprocess.run(pbem + ["submit", "orders.json", "--turn", "game/turn-0000.pbem", "--key", "us.key"], cwd=work, check=True, capture_output=True)

        rows = [
            ("python -c pass", timed([PYTHON, "-c", "pass"], work)),
            ("python: import typer, pydantic, cryptography, jsonschema",
             timed([PYTHON, "-c", "import typer, pydantic, cryptography.hazmat.primitives.hpke, jsonschema"], work)),
            ("pbem --help", timed(pbem + ["--help"], work)),
        ]
        samples = []
        for i in range(RUNS):
            start = time.perf_counter()
            subprocess.run(pbem + ["adjudicate", "game/turn-0000.pbem", "game/orders-0000-US.pbem", "--key", "ref.key", "-o", f"game/alt-{i}.pbem"], cwd=work, check=True, capture_output=True)
            samples.append(time.perf_counter() - start)
            if i:
                (work / "game" / f"alt-{i}.pbem").unlink()
        (work / "game" / "alt-0.pbem").rename(work / "game" / "turn-0001.pbem")
        rows += [
            ("pbem adjudicate (40 moves, 15 combats)", statistics.median(samples)),
            ("pbem verify (2 turn files)", timed(pbem + ["verify", "game"], work)),
            ("pbem view (US)", timed(pbem + ["view", "game/turn-0001.pbem", "--key", "us.key"], work)),
            ("pbem validate", timed(pbem + ["validate", "orders.json", "--turn", "game/turn-0000.pbem", "--key", "us.key"], work)),
        ]
        width = max(len(name) for name, _ in rows)
        for name, seconds in rows:
            print(f"{name:<{width}}  {seconds * 1000:7.0f} ms")
        sizes = {p.name: p.stat().st_size for p in sorted((work / "game").glob("*.pbem"))}
        for name, size in sizes.items():
            print(f"{name:<{width}}  {size / 1024:7.1f} KiB")


if __name__ == "__main__":
    os.environ.pop("PBEM_PASSPHRASE", None)
    main()

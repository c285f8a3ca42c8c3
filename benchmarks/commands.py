"""Benchmark: each command a player or the referee runs, paired against the cost of importing pbem's dependencies.

Not a test: it prints figures.  Run with ``.venv/bin/python benchmarks/commands.py``
(``--rounds N``, default 7).

A command is timed as a user runs it, a fresh process, against the *import
floor*: ``python -c "import typer, pydantic, cryptography…hpke, jsonschema"``,
the least any pbem command could cost if it imported all it may need.  The
two are interleaved — floor, command, floor, command… — so that a burst of
load on a shared machine hits both alike, and each command's figure is the
median of its per-round ratios to the floor run just before it, with the
median times beside it.

Games: the test scenario (``test-skirmish``), played a few player-turns with
empty orders so that there is a chain to verify and audit; and synthetic
Leyte-sized positions (a 29x32 map, 50/150/300 units, a movement phase and
every contact attacked, built by ``tests/random_positions.py``) for
``validate`` and ``adjudicate``.  Turn-file sizes are listed at the end.
pbem's modules are byte-compiled first, as they are in an installed pbem
(a ``PYTHONDONTWRITEBYTECODE`` in the environment is ignored).
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pbem.model.ruleset import Ruleset  # noqa: E402
from tests.random_positions import random_turn  # noqa: E402

PYTHON = sys.executable
PBEM = [PYTHON, "-m", "pbem"]
FLOOR = [PYTHON, "-c", "import typer, pydantic, cryptography.hazmat.primitives.hpke, jsonschema"]


def run(args: list[str], cwd: Path) -> float:
    start = time.perf_counter()
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode:
        raise SystemExit(f"{' '.join(args[2:])} failed ({done.returncode}): {done.stderr.strip()}")
    return elapsed


def paired(args: list[str], cwd: Path, rounds: int, cleanup=None) -> tuple[float, float, float]:
    """Median command time, median floor time, median of the per-round command/floor ratios."""
    commands, floors, ratios = [], [], []
    for _ in range(rounds):
        floor = run(FLOOR, cwd)
        command = run(args, cwd)
        if cleanup:
            cleanup()
        floors.append(floor)
        commands.append(command)
        ratios.append(command / floor)
    return statistics.median(commands), statistics.median(floors), statistics.median(ratios)


def new_game(folder: Path, scenario: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("ref", "us", "jp"):
        subprocess.run(PBEM + ["keygen", name, "--no-passphrase"], cwd=folder, check=True, capture_output=True)
    subprocess.run(PBEM + ["new", scenario, "--us", "us.pub", "--jp", "jp.pub", "--referee", "ref.pub", "--key", "ref.key", "--out", "game"], cwd=folder, check=True, capture_output=True)


def play(folder: Path, seq: int, side: str, orders: str) -> None:
    """Submit ``orders`` for ``side`` on turn file ``seq`` and adjudicate them: turn file ``seq + 1``."""
    turn = f"game/turn-{seq:04d}.pbem"
    subprocess.run(PBEM + ["submit", orders, "--turn", turn, "--key", f"{side.lower()}.key"], cwd=folder, check=True, capture_output=True)
    subprocess.run(PBEM + ["adjudicate", turn, f"game/orders-{seq:04d}-{side}.pbem", "--key", "ref.key"], cwd=folder, check=True, capture_output=True)


def synthetic_scenario(units: int, seed: int = 1) -> tuple[dict, dict, str]:
    """A Leyte-sized scenario whose opening is a seeded random turn, its orders, and the side to move."""
    t = random_turn(seed, 29, 32, units, ruleset=Ruleset(exclusive="leyte"), choices=False)
    roster = []
    for u in t.state.units:
        where = t.state.locations[u.id]
        if where != "eliminated":
            roster.append({**u.model_dump(exclude_none=True), "hex": where, "source": "assumed: benchmark"})
    phasing = t.state.position.phasing
    scenario = {
        "id": f"bench-{units}", "title": f"Benchmark position, {units} units on Leyte's 29x32", "kind": "test",
        "ruleset": t.ruleset.model_dump(mode="json"), "map_source": "assumed: benchmark",
        "map": t.spec.model_dump(mode="json", exclude_defaults=True), "units": roster,
        "ground_support": [{"turn": 1, **t.state.position.gsp, "source": "assumed: benchmark"}],
        "first_player": phasing, "first_turn": 1, "last_turn": 8,
    }
    return scenario, t.orders.model_dump(mode="json", exclude_defaults=True), phasing


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--player-turns", type=int, default=6, help="player-turns of the test game to verify and audit (it lasts 8)")
    args = parser.parse_args()
    rows: list[tuple[str, tuple[float, float, float]]] = []
    sizes: list[tuple[str, int]] = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        test = work / "test"
        new_game(test, "test-skirmish")
        (test / "empty.json").write_text("{}")
        side = "US"
        for seq in range(args.player_turns):
            play(test, seq, side, "empty.json")
            side = "JP" if side == "US" else "US"
        last = f"game/turn-{args.player_turns:04d}.pbem"
        rounds = args.rounds
        rows.append(("pbem --help", paired(PBEM + ["--help"], test, rounds)))
        rows.append(("view", paired(PBEM + ["view", last, "--key", "us.key"], test, rounds)))
        rows.append((f"verify ({args.player_turns + 1} turn files)", paired(PBEM + ["verify", "game"], test, rounds)))
        rows.append(("orders template", paired(PBEM + ["orders", "template", last, "--key", f"{side.lower()}.key"], test, rounds)))
        rows.append(("validate (test scenario)", paired(PBEM + ["validate", "empty.json", "--turn", last, "--key", f"{side.lower()}.key"], test, rounds)))
        subprocess.run(PBEM + ["submit", "empty.json", "--turn", last, "--key", f"{side.lower()}.key"], cwd=test, check=True, capture_output=True)
        out = test / "game" / "bench-next.pbem"
        rows.append(("adjudicate (test scenario)", paired(
            PBEM + ["adjudicate", last, f"game/orders-{args.player_turns:04d}-{side}.pbem", "--key", "ref.key", "-o", str(out)],
            test, rounds, cleanup=lambda: out.unlink(),
        )))
        rows.append((f"audit ({args.player_turns} player-turns)", paired(PBEM + ["audit", "game", "--key", "ref.key"], test, rounds)))
        sizes += [(f"test game {p.name}", p.stat().st_size) for p in sorted((test / "game").glob("turn-*.pbem"))[-1:]]

        for units in (50, 150, 300):
            folder = work / f"bench-{units}"
            folder.mkdir()
            scenario, orders, phasing = synthetic_scenario(units)
            (folder / "scenario.json").write_text(json.dumps(scenario))
            (folder / "orders.json").write_text(json.dumps(orders))
            new_game(folder, "scenario.json")
            key = f"{phasing.lower()}.key"
            attacks = len(orders.get("attacks", []))
            rows.append((f"validate ({len(scenario['units'])} units, {attacks} attacks)", paired(
                PBEM + ["validate", "orders.json", "--turn", "game/turn-0000.pbem", "--key", key], folder, rounds)))
            subprocess.run(PBEM + ["submit", "orders.json", "--turn", "game/turn-0000.pbem", "--key", key], cwd=folder, check=True, capture_output=True)
            out = folder / "game" / "bench-next.pbem"
            rows.append((f"adjudicate ({len(scenario['units'])} units, {attacks} attacks)", paired(
                PBEM + ["adjudicate", "game/turn-0000.pbem", f"game/orders-0000-{phasing}.pbem", "--key", "ref.key", "-o", str(out)],
                folder, rounds, cleanup=lambda out=out: out.unlink(),
            )))
            subprocess.run(PBEM + ["adjudicate", "game/turn-0000.pbem", f"game/orders-0000-{phasing}.pbem", "--key", "ref.key"], cwd=folder, check=True, capture_output=True)
            sizes += [(f"{units}-unit game {p.name}", p.stat().st_size) for p in sorted((folder / "game").glob("turn-*.pbem"))]

    floors = [figures[1] for _, figures in rows]
    width = max(len(name) for name, _ in rows)
    print(f"import floor: median {statistics.median(floors) * 1000:.0f} ms over the rounds (each command is paired with its own)")
    print(f"{'command':<{width}}  {'median':>7}  {'floor':>6}  {'ratio':>5}")
    for name, (command, floor, ratio) in rows:
        print(f"{name:<{width}}  {command * 1000:5.0f}ms  {floor * 1000:4.0f}ms  {ratio:5.2f}")
    print()
    for name, size in sizes:
        print(f"{name:<{width}}  {size / 1024:7.1f} KiB")


if __name__ == "__main__":
    os.environ.pop("PBEM_PASSPHRASE", None)
    # Time commands as an installed pbem runs: from byte-compiled modules
    # (pip compiles site-packages on install; a checkout compiles on first use).
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    compileall.compile_dir(ROOT / "pbem", quiet=1)
    main()

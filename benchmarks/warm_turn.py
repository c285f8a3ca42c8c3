"""Benchmark: a referee's player-turn in one warm process — open, play, seal, sign, write (issue 26).

Not a test: it prints figures.  Run with ``.venv/bin/python benchmarks/warm_turn.py [--rounds N] [--player-turns K]``.

A judge that runs for days and the ``pbem play`` page live in one process,
so what they pay per action is not the start-up but the work: reading the
turn file and the orders file (``load_turn``, ``read_text``), checking and
playing the orders, rolling the committed dice, building and sealing both
views, signing the next turn file (``adjudicate_received``) and writing it
(``write_new``).  The games are ``leyte-assault`` played bot against bot by
``pbem demo --seed 3``, once plain and once with hidden units; every
player-turn of each is adjudicated again from its turn file and the orders
the bot sent, after one warm-up pass (imports, the board's caches).  The
figure is the median CPU time of this process per player-turn (what one
core gives it, whatever else the machine is doing), with the wall-clock
median beside it.  Targets: ≤ 5 ms plain, ≤ 8 ms with hidden units.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pbem.loading.turns import load_turn  # noqa: E402
from pbem.game.adjudication import adjudicate_received  # noqa: E402
from pbem.protocol.passphrase import open_key  # noqa: E402
from pbem.protocol.files import read_text, write_new  # noqa: E402

GAMES = {"leyte-assault": ([], 5.0), "leyte-assault, hidden units": (["--option", "hidden-units"], 8.0)}


def demo(folder: Path, options: list[str]) -> None:
    """A whole game played bot against bot through the real files."""
    subprocess.run([sys.executable, "-m", "pbem", "demo", "--scenario", "leyte-assault", "--seed", "3", "--dir", str(folder), *options],
                   check=True, capture_output=True, env={"PBEM_PASSPHRASE": "", "PATH": "/usr/bin:/bin"})


def player_turns(folder: Path, limit: int | None) -> list[tuple[Path, Path]]:
    """Each turn file the game went on from, with the orders file that answered it."""
    pairs = []
    for turn in sorted((folder / "game").glob("turn-*.pbem")):
        seq = int(turn.stem.split("-")[1])
        answers = sorted((folder / "game").glob(f"orders-{seq:04d}-*.pbem"))
        if answers and (folder / "game" / f"turn-{seq + 1:04d}.pbem").exists():
            pairs.append((turn, answers[-1]))
    return pairs[:limit] if limit else pairs


def one_turn(turn_path: Path, orders_path: Path, referee, out: Path) -> tuple[float, float]:
    """Adjudicate one player-turn as ``pbem adjudicate`` does; CPU and wall seconds."""
    cpu, wall = time.process_time(), time.perf_counter()
    turn = load_turn(turn_path)
    done = adjudicate_received(turn, [(read_text(orders_path, what="orders file"), str(orders_path))], referee)
    write_new(out, done.turn.text)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    if done.turn.seq != turn.seq + 1:
        raise SystemExit(f"{turn_path}: the new turn file is number {done.turn.seq}, not {turn.seq + 1}")
    return cpu, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="passes over every player-turn, after one warm-up pass")
    parser.add_argument("--player-turns", type=int, default=None, help="only the first K player-turns of each game")
    args = parser.parse_args()
    os.environ["PBEM_PASSPHRASE"] = ""
    with tempfile.TemporaryDirectory() as work:
        work = Path(work)
        for name, (options, target) in GAMES.items():
            folder = work / name.replace(" ", "").replace(",", "-")
            demo(folder, options)
            referee = open_key(folder / "ref.key", None)  # the demo's keys have no passphrase
            pairs = player_turns(folder, args.player_turns)
            cpu, wall, n = [], [], 0
            for round_ in range(args.rounds + 1):
                for turn, orders in pairs:
                    n += 1
                    c, w = one_turn(turn, orders, referee, work / f"{folder.name}-next-{n}.pbem")
                    if round_:  # the first pass warms up
                        cpu.append(c)
                        wall.append(w)
            median = statistics.median(cpu) * 1000
            verdict = "met" if median <= target else f"MISSED by {median - target:.1f} ms"
            print(f"{name}: {len(pairs)} player-turns x {args.rounds} rounds: median {median:.1f} ms CPU "
                  f"(min {min(cpu) * 1000:.1f}, max {max(cpu) * 1000:.1f}), {statistics.median(wall) * 1000:.1f} ms wall; "
                  f"target <= {target:.0f} ms: {verdict}")


if __name__ == "__main__":
    main()

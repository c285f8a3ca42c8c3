"""Benchmark: each command a player or the referee runs, paired against the cost of importing pbem's dependencies.

Not a test: it prints figures.  Run with ``.venv/bin/python benchmarks/commands.py``
(``--rounds N``, default 7; ``--games test,leyte,synthetic`` to time fewer;
``--before DIR`` to time an older checkout's commands on the same files too,
each paired with a floor of its own, e.g. ``git archive dd4e406 | tar -x -C DIR``;
``--quick`` plays the Leyte games only to their third Game-Turn, leaves out the rows that time a command of another
row on a longer game (the final collapse's audit, the 52-Game-Turn verify), and times the synthetic
positions at 50 units only: every command's code runs, as the test suite runs it).

A command is timed as a user runs it, a fresh process, against the *import
floor*: ``python -c "import typer, pydantic, cryptography…hpke, jsonschema"``,
the least any pbem command could cost if it imported all it may need.  The
two are interleaved — floor, command, floor, command… — so that a burst of
load on a shared machine hits both alike, and each command's figure is the
median of its per-round ratios to the floor run just before it, with the
median times beside it; the ratio of CPU times (user + system) is given too,
which a busy machine disturbs less than the wall clock.

Games: the test scenario (``test-skirmish``), played a few player-turns with
empty orders so that there is a chain to verify and audit; a whole Leyte game
(``leyte-assault``, 8 Game-Turns) played bot against bot by ``pbem demo``, for
every command a player or the referee runs on a real Leyte player-turn and for
the audit of the whole game from the referee's reveal file; the longest
shipped Leyte scenario (``leyte-final-collapse``, Game-Turns 18-26, 18
player-turns) for the audit target; a 26-Game-Turn Leyte game, the whole
campaign's length (no shipped scenario lasts 26 Game-Turns, so it is
``leyte-assault`` played on to Game-Turn 26 under an id of its own:
``assumed: benchmark``); and synthetic Leyte-sized positions (a 29x32 map,
50/150/300 units, a movement phase and every contact attacked, built by
``tests/random_positions.py``) for ``validate`` and ``adjudicate``.
Turn-file sizes are listed at the end.

``status`` is timed twice: as a player runs it turn after turn, when his
earlier replays are remembered (:mod:`pbem.game.modes.referee.replayed`) and only his
views are read again, and on a folder where nothing is remembered (the
record is removed before each run), when every player-turn of his is
replayed as ``verify --replay-mine`` does.

Each row carries its target (issue 26), a ceiling on the ratio of CPU times,
and says whether it is met: validate, submit, adjudicate, bot ≤ 1.5×; show
≤ 2×; view, verify, status, dice ≤ 1.0×; the audit of a 26-Game-Turn game
with hidden units ≤ 3×; verify of a 52-Game-Turn game ≤ 1.2×.  The Leyte
rows are the ones the targets are for; a row with no target says ``-``.
pbem's modules are byte-compiled first, as they are in an installed pbem
(a ``PYTHONDONTWRITEBYTECODE`` in the environment is ignored).
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import resource
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


#: The ceiling of each kind of command, on the ratio of CPU times to the import floor (issue 26).
TARGETS = {"validate": 1.5, "submit": 1.5, "adjudicate": 1.5, "bot": 1.5, "show": 2.0,
           "view": 1.0, "verify": 1.0, "status": 1.0, "dice": 1.0, "audit-26-hidden": 3.0, "verify-52": 1.2}


#: ``--before DIR``: another checkout of pbem (``git archive REV | tar -x -C DIR``) whose commands are timed too.
BEFORE: Path | None = None


def run(args: list[str], cwd: Path, pbem_from: Path | None = None) -> tuple[float, float]:
    """Seconds ``args`` took, of the wall clock and of CPU (user + system); ``pbem_from``: run the pbem of that checkout."""
    env = None if pbem_from is None else {**os.environ, "PYTHONPATH": str(pbem_from)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True, env=env)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        raise SystemExit(f"{' '.join(args[2:])} failed ({done.returncode}): {done.stderr.strip()}")
    return elapsed, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def paired(args: list[str], cwd: Path, rounds: int, cleanup=None) -> tuple[float, float, float, float, float | None, float | None]:
    """Median command and floor wall times, and the medians of the per-round command/floor ratios:
    of wall time, of CPU time, and of both for the --before checkout."""
    commands, floors, ratios, cpu_ratios, before, cpu_before = [], [], [], [], [], []
    for _ in range(rounds):
        if BEFORE is not None:
            floor = run(FLOOR, cwd)
            old = run(args, cwd, BEFORE)
            before.append(old[0] / floor[0])
            cpu_before.append(old[1] / floor[1])
            if cleanup:
                cleanup()
        floor = run(FLOOR, cwd)
        command = run(args, cwd)
        if cleanup:
            cleanup()
        floors.append(floor[0])
        commands.append(command[0])
        ratios.append(command[0] / floor[0])
        cpu_ratios.append(command[1] / floor[1])
    median = statistics.median
    return (median(commands), median(floors), median(ratios), median(cpu_ratios),
            median(before) if before else None, median(cpu_before) if cpu_before else None)


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


#: The Leyte player-turn the commands are timed on: the US player-turn of Game-Turn 3 (seq 4), a busy one.
LEYTE_SEQ = 4


def demo_game(folder: Path, scenario: str, *options: str) -> None:
    """A whole game played bot against bot through the real files (``pbem demo``), with its reveal file."""
    subprocess.run(PBEM + ["demo", "--scenario", scenario, "--dir", str(folder), *options], cwd=folder.parent, check=True, capture_output=True)


def long_leyte(folder: Path, last_turn: int, scenario: str = "leyte-assault") -> Path:
    """``scenario`` played on (or, for ``--quick``, stopped) at ``last_turn`` under an id of its own (no shipped Leyte
    scenario lasts 26 or 52 Game-Turns)."""
    from pbem.loading.datafiles import scenario_document, scenario_paths

    document = scenario_document(scenario_paths()[scenario])
    document |= {"id": f"bench-{scenario}-{last_turn}", "last_turn": last_turn,
                 "title": f"Leyte: {scenario} played to Game-Turn {last_turn} (assumed: benchmark)"}
    path = folder / f"bench-{scenario}-{last_turn}.json"
    path.write_text(json.dumps(document))
    return path


def leyte_rows(work: Path, rounds: int, quick: bool = False) -> tuple[list, list]:
    """Every command on a real Leyte game, the audit of whole games of 8 and 26 Game-Turns (the latter
    with hidden units, as its target says), and verify of a 52-Game-Turn game."""
    rows, sizes = [], []

    def add(name: str, target: str | None, args: list[str], cwd: Path, cleanup=None) -> None:
        rows.append((name, paired(PBEM + args, cwd, rounds, cleanup), target))

    game = work / "leyte"
    # --quick: each game only as long as its rows need (the timed player-turn is Game-Turn 3's): the same code runs
    demo_game(game, str(long_leyte(work, 3)) if quick else "leyte-assault")
    turns = sorted((game / "game").glob("turn-*.pbem"))
    seq, side = LEYTE_SEQ, "US"
    turn = f"game/turn-{seq:04d}.pbem"
    key = f"{side.lower()}.key"
    orders = f"orders/orders-{seq:04d}-{side}.json"
    add("Leyte: view", "view", ["view", turn, "--key", key], game)
    add(f"Leyte: verify ({len(turns)} turn files)", "verify", ["verify", "game"], game)
    status = ["status", "game", "--key", key]
    subprocess.run(PBEM + status, cwd=game, check=True, capture_output=True)  # the player's first status: his replays remembered
    add("Leyte: status (replays remembered)", "status", status, game)
    record = game / "game" / f".pbem-replayed-{side}.json"
    record.unlink()
    add("Leyte: status (nothing remembered)", None, status, game, cleanup=lambda: record.unlink(missing_ok=True))
    add(f"Leyte: dice ({len(turns)} turn files)", "dice", ["dice", "game"], game)
    add("Leyte: orders template", None, ["orders", "template", turn, "--key", key], game)
    add("Leyte: validate", "validate", ["validate", orders, "--turn", turn, "--key", key], game)
    alone = game / "alone"  # submit writes beside its turn file: a folder holding only the two it reads
    (alone / "game").mkdir(parents=True)
    for name in ("game/turn-0000.pbem", turn):
        (alone / name).write_bytes((game / name).read_bytes())
    add("Leyte: submit", "submit", ["submit", str(game / orders), "--turn", turn, "--key", str(game / key)], alone,
        cleanup=lambda: [p.unlink() for p in (alone / "game").glob("orders-*")])
    out = game / "game" / "bench-next.pbem"
    add("Leyte: adjudicate", "adjudicate", ["adjudicate", turn, f"game/orders-{seq:04d}-{side}.pbem", "--key", "ref.key", "-o", str(out)],
        game, cleanup=lambda: out.unlink())
    drafted = game / "bench-bot.json"
    add("Leyte: bot", "bot", ["bot", turn, "--key", key, "-o", str(drafted)], game, cleanup=lambda: drafted.unlink())
    add("Leyte: show (terminal)", "show", ["show", turn, "--key", key], game)
    add(f"Leyte: audit, {len(turns) - 1} player-turns", None, ["audit", "game", "--reveal", "reveal.pbem"], game)
    sizes += [(f"Leyte game {p.name}", p.stat().st_size) for p in (turns[0], max(turns[1:], key=lambda p: p.stat().st_size))]

    if not quick:  # --quick: the same audit as the row above, on a longer game
        final = work / "leyte-final"
        demo_game(final, "leyte-final-collapse")  # Game-Turns 18-26: the longest shipped Leyte scenario, with mountain-barrier
        played = len(list((final / "game").glob("turn-*.pbem"))) - 1
        add(f"Leyte final collapse: audit, {played} player-turns", None, ["audit", "game", "--reveal", "reveal.pbem"], final)

    turns26, turns52 = (3, None) if quick else (26, 52)
    long = work / "leyte-26"
    long.mkdir()
    demo_game(long / "game26", str(long_leyte(long, turns26)), "--option", "hidden-units")
    played = len(list((long / "game26" / "game").glob("turn-*.pbem"))) - 1
    add(f"Leyte {turns26} Game-Turns, hidden units: audit, {played} player-turns", "audit-26-hidden" if not quick else None,
        ["audit", "game", "--reveal", "reveal.pbem"], long / "game26")

    if not quick:  # --quick: the same verify as the Leyte row, on a longer game
        longer = work / "leyte-52"
        longer.mkdir()
        demo_game(longer / "game52", str(long_leyte(longer, turns52)))
        files = len(list((longer / "game52" / "game").glob("turn-*.pbem")))
        add(f"Leyte {turns52} Game-Turns: verify ({files} turn files)", "verify-52", ["verify", "game"], longer / "game52")
    return rows, sizes


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


GAMES = ("test", "leyte", "synthetic")


def test_rows(work: Path, rounds: int, player_turns: int) -> tuple[list, list]:
    """Every command on the test scenario played ``player_turns`` player-turns with empty orders."""
    rows, sizes = [], []
    test = work / "test"
    new_game(test, "test-skirmish")
    (test / "empty.json").write_text("{}")
    side = "US"
    for seq in range(player_turns):
        play(test, seq, side, "empty.json")
        side = "JP" if side == "US" else "US"
    last = f"game/turn-{player_turns:04d}.pbem"
    rows.append(("pbem --help", paired(PBEM + ["--help"], test, rounds)))
    rows.append(("view", paired(PBEM + ["view", last, "--key", "us.key"], test, rounds)))
    rows.append((f"verify ({player_turns + 1} turn files)", paired(PBEM + ["verify", "game"], test, rounds)))
    rows.append(("orders template", paired(PBEM + ["orders", "template", last, "--key", f"{side.lower()}.key"], test, rounds)))
    rows.append(("validate (test scenario)", paired(PBEM + ["validate", "empty.json", "--turn", last, "--key", f"{side.lower()}.key"], test, rounds)))
    subprocess.run(PBEM + ["submit", "empty.json", "--turn", last, "--key", f"{side.lower()}.key"], cwd=test, check=True, capture_output=True)
    out = test / "game" / "bench-next.pbem"
    rows.append(("adjudicate (test scenario)", paired(
        PBEM + ["adjudicate", last, f"game/orders-{player_turns:04d}-{side}.pbem", "--key", "ref.key", "-o", str(out)],
        test, rounds, cleanup=lambda: out.unlink(),
    )))
    rows.append((f"audit ({player_turns} player-turns)", paired(PBEM + ["audit", "game", "--key", "ref.key"], test, rounds)))
    sizes += [(f"test game {p.name}", p.stat().st_size) for p in sorted((test / "game").glob("turn-*.pbem"))[-1:]]
    return rows, sizes


def synthetic_rows(work: Path, rounds: int, quick: bool = False) -> tuple[list, list]:
    """``validate`` and ``adjudicate`` of a full player-turn at 50, 150 and 300 units on Leyte's 29x32."""
    rows, sizes = [], []
    for units in (50,) if quick else (50, 150, 300):
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
    return rows, sizes


def verdict(cpu: float, target: str | None) -> str:
    """``≤1.5 met`` or ``≤1.5 missed by 0.23``: the row's target beside its CPU ratio; ``-`` without one."""
    if target is None:
        return "     -"
    ceiling = TARGETS[target]
    return f"≤{ceiling:.1f} met" if cpu <= ceiling else f"≤{ceiling:.1f} missed by {cpu - ceiling:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--player-turns", type=int, default=6, help="player-turns of the test game to verify and audit (it lasts 8)")
    parser.add_argument("--games", default=",".join(GAMES), help=f"which games to time, of {', '.join(GAMES)} (default: all)")
    parser.add_argument("--quick", action="store_true", help="the long games shorter, the synthetic positions at 50 units only (for the test suite)")
    parser.add_argument("--before", type=Path, help="also time the pbem of this checkout (e.g. git archive dd4e406 | tar -x -C DIR) on the same files")
    args = parser.parse_args()
    global BEFORE
    BEFORE = args.before.resolve() if args.before else None
    if BEFORE is not None:
        compileall.compile_dir(BEFORE / "pbem", quiet=1)
    games = args.games.split(",")
    rows: list[tuple[str, tuple]] = []
    sizes: list[tuple[str, int]] = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for name, timed in (("test", lambda: test_rows(work, args.rounds, args.player_turns)),
                            ("leyte", lambda: leyte_rows(work, args.rounds, args.quick)),
                            ("synthetic", lambda: synthetic_rows(work, args.rounds, args.quick))):
            if name in games:
                more_rows, more_sizes = timed()
                rows += more_rows
                sizes += more_sizes

    floors = [row[1][1] for row in rows]
    width = max(len(row[0]) for row in rows)
    print(f"import floor: median {statistics.median(floors) * 1000:.0f} ms over the rounds (each command is paired with its own)")
    print("ratio: of wall-clock times; cpu: of CPU times (user + system), steadier when other jobs share the machine; "
          "target: the ceiling of the cpu ratio (issue 26)")
    print(f"{'command':<{width}}  {'median':>7}  {'floor':>6}  {'ratio':>5}  {'cpu':>5}  {'target':>6}" + ("  before: ratio  cpu" if BEFORE else ""))
    for name, (command, floor, ratio, cpu, before, cpu_before), *target in rows:
        print(f"{name:<{width}}  {command * 1000:5.0f}ms  {floor * 1000:4.0f}ms  {ratio:5.2f}  {cpu:5.2f}  {verdict(cpu, target[0] if target else None)}"
              + (f"          {before:5.2f}  {cpu_before:4.2f}" if before is not None else ""))
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

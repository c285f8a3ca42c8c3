"""What the escrow of issue 36 costs: bytes per file and milliseconds per step.

Plays the same bot game (same seed, so the same moves and dice) with hidden
units and no referee twice through the real files, without and with an
escrow, and reports each Japanese file's size and the time of every
``write_next`` (one step's file); then times the escrow's pieces alone: the
PVSS dealing (``pbem new``), the American player's check of it (every
``blind next``, ``verify``, ``status``), one file's escrow part (sealed and
opened) at the scenario's bucket, and one share opened and proven.

Run with ``.venv/bin/python benchmarks/escrow_cost.py [--scenario test-skirmish] [--repeat 200]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pbem.protocol import blindfile  # noqa: E402


def play(scenario: str, folder: Path, escrow: bool) -> tuple[list[int], list[int], list[float]]:
    """Sizes of the Japanese and American files, and the ms of each write_next, of one bot game."""
    from pbem.bot import blind_demo
    from pbem.game.modes.blind import files as blind_files

    times = []
    real = blind_files.write_next

    def timed(*args, **kwargs):
        start = time.perf_counter()
        try:
            return real(*args, **kwargs)
        finally:
            times.append((time.perf_counter() - start) * 1000)

    blind_demo.blind_files.write_next = timed
    try:
        blind_demo.run_blind_demo(scenario, folder, policies={"US": "greedy", "JP": "greedy"}, seed=3, escrow=escrow)
    finally:
        blind_demo.blind_files.write_next = real
    files = blindfile.numbered_files(folder / "US")
    if escrow:
        global ESCROW_BYTES
        ESCROW_BYTES = [escrow_bytes(p) for p in files if p.name.endswith("-JP.pbem")]
    return ([p.stat().st_size for p in files if p.name.endswith("-JP.pbem")],
            [p.stat().st_size for p in files if p.name.endswith("-US.pbem")], times)


ESCROW_BYTES: list[int] = []


def escrow_bytes(path: Path) -> int:
    """What the escrow adds to this file: its armoured size less the same envelope's without the escrow fields."""
    from pbem.protocol.armour import armour
    from pbem.protocol.canonical import canonical_bytes

    message = blindfile.read(path.read_text(), str(path))
    body = {k: v for k, v in message.envelope["body"].items() if k not in ("escrow", "escrow_part")}
    headers = {"Game": message.body["game"], "Number": str(message.n)}
    return len(path.read_text().encode()) - len(armour(blindfile.KIND, canonical_bytes({**message.envelope, "body": body}),
                                                       headers).encode())


def pieces(scenario: str, repeat: int) -> dict[str, float]:
    from pbem.game.modes.blind import escrow
    from pbem.loading.datafiles import load_scenario
    from pbem.protocol import pvss
    from pbem.protocol.keys import generate

    holder, us = generate("esc"), generate("us")
    bucket = escrow.floor_bucket(load_scenario(scenario).scenario)
    game = "ab" * 16

    def ms(fn) -> float:
        runs = []
        for _ in range(repeat):
            start = time.perf_counter()
            fn()
            runs.append((time.perf_counter() - start) * 1000)
        return statistics.median(runs)

    fields, secret = escrow.deal(holder.public, us.public, game, b"\x01" * 32)
    message = type("M", (), {"body": fields, "source": "x"})()
    dealing = escrow.dealing_of(message)
    keys = [escrow.identity_point(holder.public), escrow.identity_point(us.public)]
    ctx = escrow.pvss_context(game)
    orders = {"moves": [{"unit": f"u{i}", "path": ["0101", "0102", "0103"]} for i in range(40)]}
    part = escrow.seal_part(secret, game=game, n=2, seq=2, orders=orders, bucket=bucket)
    x = escrow.identity_scalar(holder)
    share, proof = pvss.decrypt_share(x, 1, dealing, ctx)
    return {
        "bucket": bucket, "part bytes": len(part),
        "deal (pbem new)": ms(lambda: escrow.deal(holder.public, us.public, game, b"\x01" * 32)),
        "verify the dealing (each blind next, verify, status)": ms(lambda: pvss.verify_dealing(dealing, keys, 2, ctx)),
        "seal one file's part": ms(lambda: escrow.seal_part(secret, game=game, n=2, seq=2, orders=orders, bucket=bucket)),
        "open one file's part": ms(lambda: escrow.open_part(secret, game, 2, part, 2)),
        "open and prove a share": ms(lambda: pvss.decrypt_share(x, 1, dealing, ctx)),
        "check a share": ms(lambda: pvss.verify_share(1, share, proof, keys[0], dealing, ctx)),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", default="test-skirmish")
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--no-play", action="store_true", help="time the pieces only (a Leyte game takes long)")
    args = parser.parse_args()
    if args.no_play:
        for name, value in pieces(args.scenario, args.repeat).items():
            print(f"  {name}: {value:.3f} ms" if isinstance(value, float) else f"  {name}: {value}")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        plain_jp, plain_us, plain_t = play(args.scenario, Path(tmp) / "plain", False)
        esc_jp, esc_us, esc_t = play(args.scenario, Path(tmp) / "escrow", True)
    print(f"{args.scenario}: {len(plain_jp) + len(plain_us)} files without escrow, {len(esc_jp) + len(esc_us)} with")
    print(f"  genesis: {plain_jp[0]} -> {esc_jp[0]} bytes (+{esc_jp[0] - plain_jp[0]})")
    extra = [e - p for e, p in zip(esc_jp[1:], plain_jp[1:])]
    print(f"  each later Japanese file: median {statistics.median(plain_jp[1:]):.0f} -> "
          f"{statistics.median(esc_jp[1:]):.0f} bytes (+{statistics.median(extra):.0f}, min +{min(extra)}, max +{max(extra)})")
    print(f"  the escrow's own bytes in each Japanese file: genesis {ESCROW_BYTES[0]}, later files "
          f"{sorted(set(ESCROW_BYTES[1:]))} (base64 twice: the part, then the armour)")
    extra_us = [e - p for e, p in zip(esc_us, plain_us)]
    print(f"  each American file: +{statistics.median(extra_us):.0f} bytes (median)")
    print(f"  write_next per file: median {statistics.median(plain_t):.0f} ms -> {statistics.median(esc_t):.0f} ms "
          f"(total {sum(plain_t) / 1000:.1f} s -> {sum(esc_t) / 1000:.1f} s)")
    for name, value in pieces(args.scenario, args.repeat).items():
        print(f"  {name}: {value:.3f} ms" if isinstance(value, float) else f"  {name}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

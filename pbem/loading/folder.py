"""Where a game's files live and how they are named.

A game folder holds ``turn-0000.pbem`` (genesis), ``turn-0001.pbem``, … and
the orders files adjudicated, ``orders-0000-US.pbem`` (answering turn file 0,
from the US player; ``orders-0000-US-r2.pbem`` is his second revision, and
``orders-0000-US.receipt`` his record of every revision he sent).  Players keep every turn file they receive in one
folder; the genesis file there carries the scenario, so every later command
finds the map and forces without anything else installed.
"""

from __future__ import annotations

from pathlib import Path

from pbem.errors import BadInput
from pbem.protocol.turnfile import TurnFile


def turn_name(seq: int) -> str:
    return f"turn-{seq:04d}.pbem"


def orders_name(seq: int, side: str, revision: int = 1) -> str:
    """``orders-0003-US.pbem`` for a first revision, ``orders-0003-US-r2.pbem`` for a second, …"""
    return f"orders-{seq:04d}-{side}.pbem" if revision == 1 else f"orders-{seq:04d}-{side}-r{revision}.pbem"


def orders_revisions(folder: Path, seq: int, side: str) -> list[Path]:
    """The revisions of ``side``'s orders answering turn file ``seq`` in ``folder``, first to latest."""
    import re

    named = re.compile(rf"orders-{seq:04d}-{side}(?:-r([0-9]+))?\.pbem")
    found = [(int(m.group(1) or 1), path) for path in folder.glob(f"orders-{seq:04d}-{side}*.pbem") if (m := named.fullmatch(path.name))]
    return [path for _, path in sorted(found)]


def revision_of(orders_file: Path) -> int:
    """The revision an orders file's name carries: ``orders-0003-US-r2.pbem`` is 2, ``orders-0003-US.pbem`` 1."""
    import re

    found = re.search(r"-r([0-9]+)\.pbem$", Path(orders_file).name)
    return int(found.group(1)) if found else 1


def receipt_name(seq: int, side: str) -> str:
    return f"orders-{seq:04d}-{side}.receipt"


def folder_of(source: str) -> Path:
    return Path(source).resolve().parent


def turn_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("turn-*.pbem"))


def check_turn_sources(paths: list[Path]) -> None:
    """BadInput unless every turn file among ``paths`` (files, or game folders) reads as one.

    ``verify`` reads every file with a turn block in it; a file named like a
    turn file that holds none (empty, binary, an orders block saved under the
    wrong name) would otherwise be passed over in silence, and a block
    damaged in transit is bad input to send again, not a failed verification.
    """
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            found = turn_files(path)
            if not found:
                raise BadInput("no turn files here", file=str(path), hint="give the game folder that holds turn-0000.pbem")
            files += found
        elif path.is_file():
            files.append(path)
    wrong = [f"{path} ({why})" for path in files if (why := not_a_turn_file(path))]
    if wrong:
        raise BadInput(
            f"{len(wrong)} file(s) cannot be read as turn files: {'; '.join(wrong)}",
            hint="ask the referee for a fresh copy of each, or move them out of the game folder",
        )


def not_a_turn_file(path: Path) -> str | None:
    """Why a file named like a turn file holds none (empty, not text, no turn block), or None."""
    from pbem.protocol.armour import dearmour
    from pbem.protocol.turnfile import KIND

    from pbem.protocol.files import too_large

    refusal = too_large(path, "turn file")
    if refusal is not None:
        return refusal.message
    try:
        data = path.read_bytes()
    except OSError as exc:
        return f"cannot be read: {exc.strerror}"
    if not data.strip():
        return "empty"
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return "binary, not text"
    try:
        dearmour(text, KIND, path.name)
    except BadInput as exc:
        return exc.message
    return None


def later_turn_file(turn: TurnFile) -> Path | None:
    """The latest turn file beside ``turn`` when it is later than ``turn`` (the player answers an old one), else None."""
    import re

    folder = folder_of(turn.source)
    later = [p for p in turn_files(folder) if (m := re.fullmatch(r"turn-([0-9]+)\.pbem", p.name)) and int(m.group(1)) > turn.seq]
    return later[-1] if later else None


def latest_turn(folder: Path) -> Path:
    files = turn_files(folder)
    if not files:
        raise BadInput("no turn files here", file=str(folder), hint="give the game folder that holds turn-0000.pbem")
    return files[-1]


def keep_orders(folder: Path, seq: int, side: str, source: Path, text: str, revision: int = 1) -> Path | None:
    """Keep the adjudicated orders in the game folder, for the audit to replay.

    Nothing is overwritten: a different file already under the usual name
    leaves this one a numbered name beside it.  Returns the file written, or
    None when the folder already held these very orders.
    """
    from pbem.protocol.files import write_new

    kept = folder / orders_name(seq, side, revision)
    if kept.resolve() == source.resolve():
        return None
    if kept.exists():
        if kept.read_text(encoding="utf-8") == text:
            return None
        kept = folder / f"{kept.stem}-{len(list(folder.glob(kept.stem + '*')))}.pbem"
    return write_new(kept, text)

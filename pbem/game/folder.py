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
from pbem.protocol.turnfile import TurnFile, read_turn


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


#: The genesis file found for each turn file read lately (the turn file kept with it, so that its id names it):
#: one player-turn asks for it several times (to check the turn, for the scenario, for its hash).
_GENESIS_OF: dict[int, tuple[TurnFile, TurnFile]] = {}


def genesis_of(turn: TurnFile) -> TurnFile:
    """The genesis turn file of ``turn``'s game: itself, or ``turn-0000.pbem`` beside it (found once per turn file read)."""
    if turn.is_genesis:
        return turn
    known = _GENESIS_OF.get(id(turn))
    if known is not None and known[0] is turn:
        return known[1]
    genesis = _genesis_beside(turn)
    if len(_GENESIS_OF) >= 8:
        _GENESIS_OF.clear()
    _GENESIS_OF[id(turn)] = (turn, genesis)
    return genesis


def _genesis_beside(turn: TurnFile) -> TurnFile:
    path = folder_of(turn.source) / turn_name(0)
    if not path.exists():
        raise BadInput(
            "the game's first turn file is not beside this one",
            file=turn.source,
            hint=f"keep every turn file of the game in one folder, including {turn_name(0)}",
        )
    genesis = read_genesis(path)
    if genesis.game != turn.game or any(not genesis.identities[r].same_keys(turn.identities[r]) for r in turn.identities):
        raise BadInput(f"{path.name} belongs to another game", file=turn.source, hint="keep each game in its own folder")
    return genesis


#: Genesis files read in this process, by file name and content: a command asks for its game's
#: genesis file several times (to check a turn file, for the scenario, for the view) and each
#: reading checks the signature over some 60 KiB.  Keyed by content, a changed file is read anew.
_GENESIS: dict[tuple[str, str], TurnFile] = {}


def read_genesis(path: Path, text: str | None = None) -> TurnFile:
    """The genesis turn file at ``path`` (``text``: its content, when already read), read and verified once per process."""
    from pbem.protocol.files import read_text

    text = read_text(path, what="turn file") if text is None else text
    key = (str(path), text)
    if key not in _GENESIS:
        if len(_GENESIS) >= 4:
            _GENESIS.clear()
        _GENESIS[key] = read_turn(text, source=str(path))
    return _GENESIS[key]


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


def load_turn(path: Path) -> TurnFile:
    """Read and verify a turn file: signed by the referee its game's genesis file names (or, in a
    two-player game, by the player it names as writer).

    The genesis file names its own parties; every later file must carry the
    signature of one of them, and the genesis file's ruleset and scenario, so
    the genesis is looked up beside the file.
    """
    from pbem.protocol.files import read_text
    from pbem.protocol.turnfile import parse_turn

    text = read_text(path, what="turn file")
    parsed = parse_turn(text, str(path))
    if parsed.is_genesis:
        return read_genesis(path, text)
    genesis = genesis_of(parsed)
    turn = read_turn(text, source=str(path), genesis=genesis)
    if turn.ruleset != genesis.ruleset or (turn.scenario_id, turn.scenario_hash) != (genesis.scenario_id, genesis.scenario_hash):
        from pbem.errors import VerificationFailed

        raise VerificationFailed(
            "plays another ruleset or scenario than the game's first turn file: both are fixed for the whole game",
            file=str(path), hint="do not play on from this file; run 'pbem verify' and show the result to your opponent",
        )
    return turn


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

"""Which folders are games, and which reveal files belong to which game.

A path given is a game folder when it holds turn files (``turn-*.pbem``)
or the genesis of a game with hidden units and no referee
(``blind-0000-JP.pbem``); otherwise every folder under it that holds turn files is a game (a folder
of game folders, at any depth; a game folder is not searched further, and
hidden folders are skipped).

Reveal files are matched to games **by the game id inside each reveal**,
never by file name or place: every ``--reveal FILE`` given, and every file
holding a reveal block found in a game folder or under a path given (so
``event/g01/reveal.pbem`` beside ``event/g01/game/`` is found when
``event`` is given).  Several reveals of one game (the referee's, a
player's) are all used; a copy of one counts once.  A reveal that names no game of the event is
reported, and one that cannot be read makes the event unreadable.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path

from pbem.errors import PbemError
from pbem.loading.folder import turn_files
from pbem.game.modes.referee.reveal import KIND, Reveal, read_reveal
from pbem.protocol.modes import mode_of_path
from pbem.protocol.chain import Finding

_REVEAL_BEGIN = f"-----BEGIN PBEM {KIND}-----".encode()


@dataclass
class Found:
    """The game folders, the reveal files read (by game id), and what could not be read."""

    games: list[Path] = field(default_factory=list)
    reveals: dict[str, list[Reveal]] = field(default_factory=dict)
    unreadable: list[Finding] = field(default_factory=list)


def game_folders(paths: list[Path], found: Found) -> None:
    """Add the game folders among or under ``paths``; a path with none is unreadable."""
    seen: set[Path] = set()
    for path in paths:
        if not path.exists():
            found.unreadable.append(Finding(str(path), "does not exist: give a game folder or a folder of game folders"))
            continue
        if not path.is_dir():
            found.unreadable.append(Finding(str(path), "is a file, not a game folder: give the folder that holds turn-0000.pbem "
                                                       "(a reveal file goes with --reveal)"))
            continue
        games = [path] if _is_game(path) else games_under(path)
        if not games:
            found.unreadable.append(Finding(str(path), "no game folder here: no folder at or under it holds turn files"))
        for game in games:
            if game.resolve() not in seen:
                seen.add(game.resolve())
                found.games.append(game)


def _is_game(folder: Path) -> bool:
    """Turn files, or the genesis of a game with hidden units and no referee (its own files: issue 24)."""
    return bool(turn_files(folder)) or mode_of_path(folder) is not None


def games_under(root: Path) -> list[Path]:
    games = []
    for here, folders, _ in os.walk(root):
        folders[:] = sorted(f for f in folders if not f.startswith("."))
        if Path(here) != root and _is_game(Path(here)):
            games.append(Path(here))
            folders[:] = []  # a game folder is not searched further
    return games


def reveal_files(paths: list[Path], games: list[Path], given: list[Path]) -> list[Path]:
    """Every ``--reveal`` file, then every file holding a reveal block in a game folder or under a path given."""
    files, seen = [], set()

    def add(path: Path) -> None:
        if path.resolve() not in seen:
            seen.add(path.resolve())
            files.append(path)

    for path in given:
        add(path)
    roots = [p for p in paths if p.is_dir()] + games
    for root in roots:
        for here, folders, names in os.walk(root):
            folders[:] = sorted(f for f in folders if not f.startswith("."))
            for name in sorted(names):
                path = Path(here) / name
                if not name.startswith(".") and path.resolve() not in seen and _holds_reveal(path):
                    add(path)
    return files


def _holds_reveal(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            return _REVEAL_BEGIN in handle.read()
    except OSError:
        return False


def read_reveals(files: list[Path], found: Found) -> None:
    """Read each reveal file and index it by the game id it holds; one that does not read is unreadable.

    A copy of a reveal already read (the same bytes under another name) counts once."""
    seen: set[bytes] = set()
    for path in files:
        try:
            digest = hashlib.sha256(path.read_bytes()).digest()
        except OSError:
            digest = path.name.encode()  # read_reveal says why it cannot be read
        if digest in seen:
            continue
        seen.add(digest)
        try:
            reveal = read_reveal(path)
        except PbemError as exc:
            found.unreadable.append(Finding(str(path), f"reveal file unreadable: {exc.render()}"))
            continue
        found.reveals.setdefault(reveal.game, []).append(reveal)


def discover(paths: list[Path], reveals: list[Path] | None) -> Found:
    found = Found()
    game_folders(paths, found)
    if reveals is not None:
        read_reveals(reveal_files(paths, found.games, reveals), found)
    return found

"""What ``pbem view``, ``show`` and ``dice`` read from a game with hidden units and no referee (issue 24).

Such a game has no turn files and no sealed views: the American view of each
step is the one the Japanese player publishes (markers, no identities: 19B),
and the Japanese player's own view is his replay of the published record with
his per-game secret and the orders he committed (kept in his private file in
his game folder, or published at the end).  The rolls are the publications',
each checked against the seed and salt that made it by the American player's
own checks (:func:`pbem.game.blind_files.findings`) before any is shown.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path

from pbem.errors import BadInput, VerificationFailed
from pbem.game import blind_files as bf
from pbem.game import blind_run as br
from pbem.protocol import blindfile
from pbem.protocol.canonical import b64d, b64e
from pbem.protocol.keys import PrivateIdentity

def _where(path: Path) -> tuple[Path, int | None]:
    """The game folder and the file number given (None: the folder or the secret, i.e. the latest file)."""
    if path.is_dir():
        return path, None
    if not path.exists():
        raise BadInput("no such file", file=str(path), hint="give a blind-NNNN-SIDE.pbem file of your game folder, or the folder")
    folder = path.parent if str(path.parent) else Path(".")
    m = blindfile.NUMBERED.fullmatch(path.name)
    return folder, (int(m.group(1)) if m else None)


@dataclass(frozen=True)
class SideView:
    """One player's view at one step of the game, with what the commands print about it."""

    side: str
    view: dict
    step: int  # the publications it follows (0: the set-up is committed, not yet played)
    held: bf.BlindGame


def side_view(path: Path, identity: PrivateIdentity) -> SideView:
    """The view of ``identity``'s side after the file ``path`` (or the latest one when ``path`` is the folder).

    The American player's is the view the Japanese player published, checked as it arrived; the Japanese player's
    is his replay of the record up to that step with his secret and his committed orders."""
    folder, number = _where(path)
    held = bf.load(folder)
    side = bf.role_in(held, identity.public)
    if side is None:
        raise BadInput(f"--key is {identity.public.describe()}, neither player of this game", file=str(path),
                       hint="give your own key: the one whose .pub the game's first file names")
    if number is not None and number >= len(held.messages):
        raise BadInput("is not a file of this game's folder", file=str(path),
                       hint=f"keep every file of the game in {folder}, numbered from {blindfile.file_name(0)}")
    step = len(held.record.publications) if number is None else number // 2  # file 2k (JP) publishes step k
    found = [f for f in bf.findings(held) if f.when == br.AT_ONCE and (f.seq <= step)]
    if found:
        raise VerificationFailed(f"the files do not check out: {found[0]}", file=str(folder),
                                 hint="'pbem verify' lists every finding; do not play on, show them to your opponent")
    if step == 0:  # the genesis commits the set-up; the first position either side can look at is step 1's
        raise BadInput("nothing is played yet: the Japanese set-up is committed, not yet carried out", file=str(path),
                       hint=f"the first view follows {blindfile.file_name(2)}; 'pbem status {folder} --key YOUR.key' "
                            "says what to do now")
    if side == "US":
        return SideView(side, held.record.publications[step - 1].view, step, held)
    secret, orders = _jp_secret(held, folder)
    record = copy.copy(held.record)
    record.publications = held.record.publications[:step]
    problems, replayed = br.replay(held.loaded, record, secret, orders, held.ref)
    if problems or replayed is None:
        raise VerificationFailed(f"your own record does not replay: {problems[0] if problems else 'no step'}",
                                 file=str(folder), hint="your private file or a file in the folder was altered")
    return SideView(side, replayed.views["JP"], step, held)


def _jp_secret(held: bf.BlindGame, folder: Path) -> tuple[bytes, dict[int, dict]]:
    """The Japanese player's secret and orders: the published ones, else his private file in this folder."""
    if held.secret_published and held.secret is not None:
        return held.secret, held.jp_orders
    path = folder / bf.private_name("JP")
    if not path.exists():
        raise BadInput(f"your view is replayed from your secret, which is not in this folder ({path.name})",
                       file=str(folder), hint="run the command on a file of your own game folder, where 'pbem new' wrote it")
    private = bf._private(folder, "JP")
    return b64d(private["secret"], source=str(path), field="secret"), {int(k): v for k, v in private["orders"].items()}


def scenario_document(held: bf.BlindGame) -> dict:
    """The scenario as plain JSON (the genesis names it by id and hash, checked by :func:`blind_files.load`)."""
    from pbem.datafiles import find_scenario, scenario_document as document

    return document(find_scenario(held.loaded.scenario.id))


# ---------------------------------------------------------------------------------------------- the dice


@dataclass(frozen=True)
class BlindDice:
    """Every roll of the folder's publications, and per step the seed and salt that made them."""

    rolls: list[dict]
    steps: list[dict]


def dice_of(folder: Path) -> BlindDice:
    """The rolls of every publication, once the folder checks out (a finding is VerificationFailed, as for turn files)."""
    if not folder.is_dir():
        raise BadInput("is not a folder", file=str(folder), hint="give the folder where you keep this game's files")
    held = bf.load(folder)
    found = [f for f in bf.findings(held) if f.when == br.AT_ONCE]
    if found:
        raise VerificationFailed(f"{found[0]}" + (f" (and {len(found) - 1} more)" if len(found) > 1 else ""),
                                 file=str(folder), hint="run 'pbem verify' to see every finding; do not trust these rolls")
    rolls, steps = [], []
    for pub in held.record.publications:
        name = blindfile.file_name(2 * pub.seq)
        mover = "JP" if pub.side in ("JP", "setup") else "US"
        # whose seed rolls the step: the American one for a Japanese step, the Japanese one (revealed) for an American
        seed = held.record.us_seeds.get(pub.seq) if mover == "JP" else pub.seed
        steps.append({"seq": pub.seq, "file": name, "mover": mover, "setup": pub.side == "setup",
                      "seed_from": "US" if mover == "JP" else "JP", "seed": b64e(seed) if seed else None,
                      "salt_from": mover, "salt": b64e(pub.salt), "rolls": len(pub.rolls)})
        rolls += [{"seq": pub.seq, "file": name, "n": r["n"], "purpose": r["purpose"], "value": r["value"]} for r in pub.rolls]
    return BlindDice(rolls, steps)


__all__ = ["BlindDice", "SideView", "dice_of", "scenario_document", "side_view"]

"""What ``pbem view``, ``show`` and ``dice`` read from a game with hidden units and no referee (issue 24).

Such a game has no turn files and no sealed views: the American view of each
step is the one the Japanese player publishes (markers, no identities: 19B),
and the Japanese player's own view is his replay of the published record with
his per-game secret and the orders he committed (kept in his private file in
his game folder, or published at the end).  The rolls are the publications',
each checked against the seed and salt that made it by the American player's
own checks (:func:`pbem.game.modes.blind.files.findings`) before any is shown.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path

from pbem.loading.datafiles import orders_from
from pbem.engine.deployment import apply_deployment
from pbem.errors import BadInput, VerificationFailed
from pbem.game.modes.blind import files as bf, run as br
from pbem.game.modes.blind.exposure import pieces
from pbem.game.narrate import strengths
from pbem.game.step import genesis_step, record_step
from pbem.model.common import HIDDEN_UNITS
from pbem.model.state import GameState
from pbem.protocol import blindfile, commitment
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
    if step == 0 and side == "JP":  # his set-up as his genesis committed it: his to check before the dice exist
        return SideView(side, committed_setup(held, folder)[0], 0, held)
    if step == 0 and not held.record.secret_setup:  # no secret set-up: the opening, as the public scenario sets it up
        return SideView(side, held.opening_view(), 0, held)
    if step == 0:  # the genesis commits the set-up; the first position the American player can look at is step 1's
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
    private = bf._private(folder, "JP", held.record.own_orders)
    return b64d(private["secret"], source=str(path), field="secret"), {int(k): v for k, v in private["orders"].items()}


def placed_setup(loaded, orders: dict, options: list[str] | None = None) -> GameState:
    """The opening position with the Japanese set-up ``orders`` deployed: what the genesis's root commits."""
    ruleset = loaded.scenario.ruleset.model_dump(mode="json")
    genesis = genesis_step(loaded, {}, game=br.SELFPLAY, scenario_ref={"id": loaded.scenario.id, "hash": br.SELFPLAY},
                           ruleset=ruleset, options=list(options or [HIDDEN_UNITS]))
    return apply_deployment(genesis.state, orders_from(orders, "the Japanese set-up"))


def committed_setup(held: bf.BlindGame, folder: Path) -> tuple[dict, dict[str, dict]]:
    """The Japanese player's own view of the set-up his genesis committed, and what stands under each marker,
    rebuilt from his secret and his set-up orders (his private file, or the published secret) and checked against
    the set-up root the genesis carries: what he sees is what he committed, before the dice of 19B.7 exist."""
    secret, orders = _jp_secret(held, folder)
    if not held.record.secret_setup:  # the opening's counters, as the scenario sets them up, committed at step 0
        opening = genesis_step(held.loaded, {}, game=held.game, scenario_ref=held.ref, ruleset=held.record.ruleset,
                               options=held.record.options)
        under = opening_pieces(held.loaded, secret, held.game, held.record.options)
        if commitment.commit(secret, game=held.game, seq=0, pieces=under).root != held.record.setup_root:
            raise VerificationFailed("the counters your genesis committed are not the scenario's opening (its root differs)",
                                     file=str(folder / bf.private_name("JP")),
                                     hint="your private file or blind-0000-JP.pbem was altered: restore them from your backup")
        return opening.views["JP"], under
    if 1 not in orders:
        raise BadInput("your private file holds no set-up orders", file=str(folder / bf.private_name("JP")),
                       hint="restore it from your backup")
    placed = placed_setup(held.loaded, orders[1], held.record.options)
    under = pieces(placed)
    if commitment.commit(secret, game=held.game, seq=-1, pieces=under).root != held.record.setup_root:
        raise VerificationFailed("your private file's set-up is not the one your genesis committed (its root differs)",
                                 file=str(folder / bf.private_name("JP")),
                                 hint="your private file or blind-0000-JP.pbem was altered: restore them from your backup")
    ruleset = held.record.ruleset
    shown = placed.model_copy(update={"hidden": placed.hidden.model_copy(update={"deployed": True})})  # set up, as 19B.2
    step = record_step(shown, game=held.game, seq=0, scenario_ref=held.ref, ruleset=ruleset, over=False, last=None,
                       loaded=held.loaded)
    return step.views["JP"], under


def opening_pieces(loaded, secret: bytes, game: str, options: list[str] | None) -> dict[str, dict]:
    """What the genesis of a game with no secret set-up commits: the opening's counters under their markers (step 0)."""
    from pbem.systems import system_of

    opening = genesis_step(loaded, {}, game=game, scenario_ref={"id": loaded.scenario.id, "hash": br.SELFPLAY},
                           ruleset=br.ruleset_of(loaded, None), options=list(options or [HIDDEN_UNITS]))
    return system_of(loaded).committed_pieces(opening.state, br.stack_key(secret, game=game, seq=0))


def setup_lines(under: dict[str, dict]) -> list[str]:
    """One line per marker of a committed set-up: its hex and the unit (id, name, kind, strengths) or dummy under it."""
    lines = []
    for hex_id, piece in sorted(under.items()):
        if piece.get("kind") == "dummy":
            lines.append(f"  {hex_id}  dummy")
        elif "kind" not in piece:  # a counter of another rules system: its type and printed strengths
            lines.append(f"  {hex_id}  {piece['id']:<14} {piece.get('type', ''):<12} {piece.get('attack', 0)}-{piece.get('defense')}-{piece.get('move')}")
        else:
            lines.append(f"  {hex_id}  {piece['id']:<14} {piece.get('name', ''):<24} {piece['kind']:<10} {strengths(piece)}")
    return lines


def scenario_document(held: bf.BlindGame) -> dict:
    """The scenario as plain JSON (the genesis names it by id and hash, checked by :func:`blind_files.load`)."""
    from pbem.loading.datafiles import find_scenario, scenario_document as document

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


__all__ = ["BlindDice", "SideView", "committed_setup", "dice_of", "placed_setup", "scenario_document", "setup_lines", "side_view"]

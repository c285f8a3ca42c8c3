"""``pbem demo --no-referee --option hidden-units``: bots on both sides play a game with hidden units and no referee
through the real files, each in a folder of his own (the Japanese secret never leaves his), as ``pbem new``,
``pbem blind next`` and ``pbem blind publish-secret`` write them; then ``verify`` and ``audit`` on the American folder.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from pbem.errors import BadInput
from pbem.game.modes.blind import files as blind_files
from pbem.protocol import blindfile
from pbem.protocol.files import write_new
from pbem.protocol.keys import generate, write_private, write_public


@dataclass
class BlindDemo:
    folders: dict[str, Path]
    keys: dict[str, Path]
    files: int
    steps: int
    verify_findings: list
    audit_findings: list
    result: str
    recovered_by: str | None = None


def default_blind_folder(scenario: str, base: Path = Path(".")) -> Path:
    """``pbem-demo-SCENARIO-no-referee``, numbered when that folder already holds a game."""
    name = f"pbem-demo-{Path(scenario).stem}-no-referee"
    candidate, n = base / name, 1
    while (candidate / "JP" / blindfile.file_name(0)).exists():
        n += 1
        candidate = base / f"{name}-{n}"
    return candidate


def run_blind_demo(scenario: str, folder: Path, *, policies: dict[str, str], seed: int | None = 0,
                   on_file: Callable[[str, Path], None] | None = None, edition: str | None = None,
                   escrow: bool = False, options: list[str] | None = None) -> BlindDemo:
    """Play ``scenario`` to its end in ``folder`` (``JP/`` and ``US/``, one per player; the files travel by copy).

    ``escrow``: a third party (``escrow.key``) holds the escrow, and at the end the Japanese bot vanishes instead of
    publishing his secret: the holder recovers it from the American folder (``pbem blind recover``)."""
    from pbem.loading.datafiles import find_scenario, scenario_document
    from pbem.model.common import HIDDEN_UNITS
    from pbem.systems import name_in, refuse_options, system_of

    path = find_scenario(scenario)  # a scenario of a rules system that has no hidden units is refused before anything is written
    refuse_options(name_in(scenario_document(path)), options or [HIDDEN_UNITS], str(path))
    folders = {side: folder / side for side in ("JP", "US")}
    if any((f / blindfile.file_name(0)).exists() for f in folders.values()):
        raise BadInput("a game already exists here", file=str(folder), hint="give another --dir")
    for f in folders.values():
        f.mkdir(parents=True, exist_ok=True)
    ids, keys = {}, {}
    for side in ("US", "JP", "ESC") if escrow else ("US", "JP"):
        ids[side] = generate(side.lower() if side != "ESC" else "escrow")
        keys[side] = write_private(folder / f"{ids[side].name}.key", ids[side], None)
        write_public(folder / f"{ids[side].name}.pub", ids[side])

    def bot(side: str):
        # the demo's --seed makes a game again; without one each side draws from its own per-game secret (issue 35)
        return lambda view, loaded, drawn: system_of(loaded).bot_orders(view, loaded, policies[side], drawn if seed is None else seed)

    def send(path: Path, side: str) -> None:
        other = folders["US" if side == "JP" else "JP"]
        shutil.copyfile(path, other / path.name)
        if on_file:
            on_file(side, path)

    text, private = blind_files.start(scenario, ids["JP"], ids["US"].public, ids["JP"].public, setup=None,
                                      choose_setup=bot("JP"), edition=edition,
                                      escrow=ids["ESC"].public if escrow else None, options=options)
    write_new(folders["JP"] / blind_files.private_name("JP"), json.dumps(private, sort_keys=True), mode=0o600)
    send(write_new(folders["JP"] / blindfile.file_name(0), text), "JP")
    while True:
        held = blind_files.load(folders["US"])  # every file sent is in both folders by now
        writer = held.next_writer
        if writer is None or (held.over and writer == "JP"):
            break
        send(blind_files.write_next(folders[writer], ids[writer], bot(writer)), writer)
    if escrow:
        from pbem.game.modes.blind.recover import recover

        for opener, who in (("ESC", "the escrow holder"), ("US", "the US player")):  # both shares open the secret
            written, found, _, _ = recover(folders["US"], ids[opener])
            if found:
                raise BadInput(f"the escrow did not recover: {found[0]}", file=str(folders["US"]))
            if on_file:
                on_file(who, written)
    else:
        send(blind_files.publish_secret(folders["JP"], ids["JP"]), "JP")
    held = blind_files.load(folders["US"])
    victory = held.last_pub.view.get("victory") if held.last_pub else None
    return BlindDemo(folders, keys, len(held.messages), len(held.record.publications), blind_files.findings(held),
                     blind_files.audit_findings(held), (victory or {}).get("level", "?") if isinstance(victory, dict) else "?",
                     held.secret_recovered_by)

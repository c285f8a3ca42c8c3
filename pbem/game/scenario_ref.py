"""The scenario a game is played with, named in every turn file by id and hash.

The genesis turn file carries the whole scenario document in its signed
public part; later commands take it from there and check its hash, so that
every party plays on exactly the same map and forces.
"""

from __future__ import annotations

from pathlib import Path

from pbem.datafiles import LoadedScenario, scenario_from
from pbem.errors import BadInput
from pbem.game.folder import genesis_of
from pbem.protocol.canonical import digest
from pbem.protocol.turnfile import TurnFile


SHIPPED = Path(__file__).resolve().parent.parent.parent / "scenarios"


def scenario_hash(document: dict) -> str:
    return digest(document)


def shipped_mismatch(scenario_id: str, hash_: str) -> str | None:
    """Why a scenario named like one pbem ships cannot be used (its content differs), or None.

    A scenario's id names its content: an edited scenario must carry an id of its own.
    """
    from pbem.jsonfile import read_json

    shipped = SHIPPED / f"{scenario_id}.json"
    if not shipped.is_file():
        return None
    expected = scenario_hash(read_json(shipped))
    if expected == hash_:
        return None
    return (f"names scenario {scenario_id!r}, but its content ({hash_}) is not the {scenario_id} pbem ships ({expected}): "
            "an edited scenario needs an id of its own")


def scenario_of(turn: TurnFile) -> LoadedScenario:
    """The scenario of ``turn``'s game, from its genesis file, checked against the hash."""
    genesis = genesis_of(turn)
    document = genesis.public.get("scenario_document") if isinstance(genesis.public, dict) else None
    if document is None or scenario_hash(document) != turn.scenario_hash:
        raise BadInput(
            f"the scenario carried by the first turn file does not match {turn.scenario_id} ({turn.scenario_hash})",
            file=turn.source,
        )
    mismatch = shipped_mismatch(turn.scenario_id, turn.scenario_hash)
    if mismatch:
        raise BadInput(mismatch, file=genesis.source, hint="do not play this game with this pbem; ask the referee")
    return scenario_from(document, Path(genesis.source))

"""The scenario a game is played with, named in every turn file by id and hash.

The genesis turn file carries the whole scenario document in its signed
public part; later commands take it from there and check its hash, so that
every party plays on exactly the same map and forces.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from pbem.errors import BadInput
from pbem.game.folder import genesis_of
from pbem.protocol.canonical import digest
from pbem.protocol.turnfile import TurnFile
from pbem.shipped import scenarios_dir

if TYPE_CHECKING:
    from pbem.datafiles import LoadedScenario


SHIPPED = scenarios_dir()


def scenario_hash(document: dict) -> str:
    return digest(document)


def scenario_document_of(turn: TurnFile) -> tuple[dict, dict | None]:
    """The scenario document of ``turn``'s game and the referee's overrides, checked against the hash, as plain JSON."""
    genesis = genesis_of(turn)
    document = genesis.public.get("scenario_document") if isinstance(genesis.public, dict) else None
    if not isinstance(document, dict) or _carried_hash(genesis, document) != turn.scenario_hash:
        raise BadInput(
            f"the scenario carried by the first turn file does not match {turn.scenario_id} ({turn.scenario_hash})",
            file=turn.source,
        )
    return document, genesis.public.get("overrides")


#: The hash of the scenario a genesis file carries, by the genesis file read (kept with it, so
#: that its id names it while it is here): a command asks for the scenario more than once.
_HASHED: dict[int, tuple[TurnFile, dict, str]] = {}


def _carried_hash(genesis: TurnFile, document: dict) -> str:
    known = _HASHED.get(id(genesis))
    if known is None or known[1] is not document:
        if len(_HASHED) >= 4:
            _HASHED.clear()
        known = _HASHED[id(genesis)] = (genesis, document, scenario_hash(document))
    return known[2]


def shipped_mismatch(scenario_id: str, hash_: str) -> str | None:
    """Why a scenario named like one pbem ships cannot be used (its content differs), or None.

    A scenario's id names its content: an edited scenario must carry an id of its own.
    """
    expected = _shipped_hash(scenario_id)
    if expected is None or expected == hash_:
        return None
    return (f"names scenario {scenario_id!r}, but its content ({hash_}) is not the {scenario_id} pbem ships ({expected}): "
            "an edited scenario needs an id of its own")


@lru_cache(maxsize=None)
def _shipped_hash(scenario_id: str) -> str | None:
    """The hash of the scenario pbem ships under ``scenario_id`` (its map inlined), or None; read once per process."""
    from pbem.datafiles import scenario_document

    shipped = next(iter(sorted(SHIPPED.rglob(f"{scenario_id}.json"))), None) if SHIPPED.is_dir() else None
    return None if shipped is None else scenario_hash(scenario_document(shipped, shipped=True))


def verified_scenario_document(turn: TurnFile) -> dict:
    """The scenario document of ``turn``'s game as plain JSON, checked against the hash and against the scenario pbem ships under its id."""
    document, _ = scenario_document_of(turn)
    mismatch = shipped_mismatch(turn.scenario_id, turn.scenario_hash)
    if mismatch:
        raise BadInput(mismatch, file=genesis_of(turn).source, hint="do not play this game with this pbem; ask the referee")
    return document


#: Scenarios built in this process, by the hash of their document and the genesis file they came from: a warm
#: process (a judge, the map page, the demo) builds each game's scenario and board once, not once per player-turn
#: (issue 26).  The document is checked against the hash on every call; only the building is kept.
_BUILT: dict[tuple[str, str], LoadedScenario] = {}


def scenario_of(turn: TurnFile) -> LoadedScenario:
    """The scenario of ``turn``'s game, from its genesis file, checked against the hash."""
    from pbem.datafiles import scenario_from

    genesis = genesis_of(turn)
    document = verified_scenario_document(turn)
    overrides = scenario_document_of(turn)[1]
    key = (turn.scenario_hash, genesis.source)
    built = _BUILT.get(key)
    if built is None:
        built = scenario_from(document, Path(genesis.source), verified=True)
        if len(_BUILT) >= 4:
            _BUILT.clear()
        _BUILT[key] = built
    return with_overrides(built, overrides, genesis.source)


def with_overrides(loaded: LoadedScenario, overrides: dict | None, source: str) -> LoadedScenario:
    """The scenario with the referee's recorded overrides applied: today the Ground Support track.

    The scenario document (and its hash) stays as shipped; the genesis file
    records the override beside it, so every party plays with the same one.
    """
    from pbem.datafiles import LoadedScenario

    if not overrides:
        return loaded
    rows = overrides.get("ground_support")
    if rows is None:
        return loaded
    from pydantic import TypeAdapter, ValidationError

    from pbem.model.scenario import GroundSupport

    try:
        track = TypeAdapter(list[GroundSupport]).validate_python(rows)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise BadInput(f"the Ground Support override is malformed at {where}: {first['msg']}", file=source, hint="each row is {\"turn\": N, \"US\": n, \"JP\": n, \"source\": \"...\"}") from None
    scenario = loaded.scenario.model_copy(update={"ground_support": track})
    return LoadedScenario(loaded.path, scenario, loaded.board)

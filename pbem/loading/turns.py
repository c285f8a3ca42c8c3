"""A turn file read with its game: the genesis file beside it and the scenario that genesis carries.

Every command that takes a turn file, the judge, the play page and the
audits read it here, in one call (:func:`open_turn`), and the path reads
top to bottom:

1. the file's text is read and parsed (:func:`open_turn`);
2. the genesis file ``turn-0000.pbem`` beside it is read and its signature
   checked, once per process (:func:`genesis_of`, :func:`read_genesis`);
3. the turn file is verified against the parties the genesis names, and must
   play the genesis file's ruleset and scenario (:func:`open_turn`);
4. the scenario is taken from the genesis file's signed public part, checked
   against its hash and against the scenario pbem ships under its id, and
   built once per process (:func:`scenario_of`), with the referee's recorded
   overrides applied (:func:`with_overrides`).

So every party plays on exactly the same map and forces, with nothing else
installed.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from pbem.errors import BadInput, VerificationFailed
from pbem.loading.folder import folder_of, turn_name
from pbem.protocol.canonical import digest
from pbem.protocol.files import read_text
from pbem.protocol.turnfile import TurnFile, parse_turn, read_turn
from pbem.shipped import scenarios_dir

if TYPE_CHECKING:
    from pbem.loading.datafiles import LoadedScenario


# ------------------------------------------------------------------ 1 and 3: the turn file


@dataclass(frozen=True)
class GameTurn:
    """A turn file read and verified, with its game's genesis file; its scenario is built when first asked for."""

    turn: TurnFile
    genesis: TurnFile

    @property
    def scenario(self) -> LoadedScenario:
        """The game's scenario (:func:`scenario_of`): the map and forces every party plays with."""
        return scenario_of(self.turn)


def open_turn(path: Path) -> GameTurn:
    """Read and verify a turn file with its game: signed by the referee its game's genesis file names (or, in a
    game without a referee, by the player it names as writer), and playing the genesis file's ruleset and scenario.

    The genesis file names its own parties; every later file must carry the
    signature of one of them, so the genesis is looked up beside the file.
    """
    text = read_text(path, what="turn file")
    parsed = parse_turn(text, str(path))
    if parsed.is_genesis:
        genesis = read_genesis(path, text)
        return GameTurn(genesis, genesis)
    genesis = genesis_of(parsed)
    turn = read_turn(text, source=str(path), genesis=genesis)
    if turn.ruleset != genesis.ruleset or (turn.scenario_id, turn.scenario_hash) != (genesis.scenario_id, genesis.scenario_hash):
        raise VerificationFailed(
            "plays another ruleset or scenario than the game's first turn file: both are fixed for the whole game",
            file=str(path), hint="do not play on from this file; run 'pbem verify' and show the result to your opponent",
        )
    _remember_genesis(turn, genesis)
    return GameTurn(turn, genesis)


def load_turn(path: Path) -> TurnFile:
    """The turn file of :func:`open_turn`, for a caller that needs neither its genesis nor its scenario yet."""
    return open_turn(path).turn


# ------------------------------------------------------------------ 2: the genesis file beside it


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
    _remember_genesis(turn, genesis)
    return genesis


def _remember_genesis(turn: TurnFile, genesis: TurnFile) -> None:
    if len(_GENESIS_OF) >= 8:
        _GENESIS_OF.clear()
    _GENESIS_OF[id(turn)] = (turn, genesis)


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
    text = read_text(path, what="turn file") if text is None else text
    key = (str(path), text)
    if key not in _GENESIS:
        if len(_GENESIS) >= 4:
            _GENESIS.clear()
        _GENESIS[key] = read_turn(text, source=str(path))
    return _GENESIS[key]


# ------------------------------------------------------------------ 4: the scenario the genesis carries


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
    from pbem.loading.datafiles import scenario_document

    shipped = next(iter(sorted(SHIPPED.rglob(f"{scenario_id}.json"))), None) if SHIPPED.is_dir() else None
    if shipped is None:
        return _own_shipped_hash(scenario_id)
    return scenario_hash(scenario_document(shipped, shipped=True))


def _own_shipped_hash(scenario_id: str) -> str | None:
    """The hash of a scenario a rules system keeps in its own room (:func:`pbem.systems.shipped_scenarios`), as the
    genesis carries it (its system reads in every file it names: ``carried_document``), or None."""
    from pbem.systems.folders import shipped_scenarios

    own = shipped_scenarios().get(scenario_id)
    if own is None:
        return None
    from pbem.loading.datafiles import scenario_document
    from pbem.systems import scenario_from_document, system_of

    document = scenario_document(own, shipped=True)
    loaded = scenario_from_document(document, own)
    return scenario_hash(system_of(loaded).carried_document(loaded, document))


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
    """The scenario of ``turn``'s game, from its genesis file, checked against the hash, built by the rules system
    its genesis pins (:mod:`pbem.systems`), which must be the one the scenario names."""
    from pbem.systems import name_in, system_named

    genesis = genesis_of(turn)
    document = verified_scenario_document(turn)
    overrides = scenario_document_of(turn)[1]
    pinned, named = name_in(turn.ruleset), name_in(document)
    if pinned != named:
        raise BadInput(f"its ruleset pins the rules system {pinned!r}, but the scenario its game began with is played with {named!r}",
                       file=turn.source, field="ruleset.system", hint="do not play this game: ask the referee for its files as signed")
    system = system_named(named, source=genesis.source)  # asked before the cache: a system this pbem does not play is never played
    key = (turn.scenario_hash, genesis.source)
    built = _BUILT.get(key)
    if built is None:
        built = system.load_scenario(document, Path(genesis.source), verified=True)
        if len(_BUILT) >= 4:
            _BUILT.clear()
        _BUILT[key] = built
    return with_overrides(built, overrides, genesis.source)


def with_overrides(loaded: LoadedScenario, overrides: dict | None, source: str) -> LoadedScenario:
    """The scenario with the referee's recorded overrides applied: today the Ground Support track.

    The scenario document (and its hash) stays as shipped; the genesis file
    records the override beside it, so every party plays with the same one.
    """
    from pbem.loading.datafiles import LoadedScenario

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
    return LoadedScenario(loaded.path, scenario, loaded.board, loaded.system)

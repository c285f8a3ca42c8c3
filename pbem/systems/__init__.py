"""The rules systems pbem plays, by name: the registry behind the seam (:mod:`pbem.systems.base`).

A scenario names the system it is played with (``"system"``; absent: the
SPI system, ``pbem/engine/``), and a game's genesis pins it in its signed
ruleset as it pins the edition (``ruleset.system``; absent: the SPI system,
so every SPI file is what it was before there were two).  Everything outside
a system's own room asks it through :func:`system_of` or :func:`system_named`
and never tests which system it is (docs/PROTOCOL.md, "Rules systems").
"""

from __future__ import annotations

from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING

from pbem.errors import BadInput
from pbem.systems.folders import SCENARIO_FOLDERS, shipped_scenarios  # noqa: F401 - the registry's, in a leaf pbem.loading reads

if TYPE_CHECKING:
    from pbem.loading.datafiles import LoadedScenario
    from pbem.systems.base import RulesSystem

SPI = "spi"
"""The system a scenario or genesis that names none is played with."""

#: Each system pbem ships: its name -> the module whose ``SYSTEM`` answers the seam (imported when first asked).
SHIPPED: dict[str, str] = {SPI: "pbem.systems.spi", "legion-2010": "pbem.systems.legion.system"}

_REGISTERED: dict[str, RulesSystem] = {}

#: Systems whose conformance cases their own room loads and runs (a case names its system as ``ruleset.system``),
#: whether or not their games go through the seam yet: the name -> the module with ``load_case(path, document)``,
#: whose loaded case runs itself (``.run(explain=...)``).
CASE_ROOMS: dict[str, str] = {"legion-2010": "pbem.systems.legion.cases"}


def register(system: RulesSystem) -> None:
    """Make ``system`` known by its name in this process (a system pbem does not ship: a test's, a folio's own)."""
    if not isinstance(system.name, str) or not system.name or system.name in SHIPPED:
        raise ValueError(f"a rules system needs a name of its own, not {system.name!r}")
    _REGISTERED[system.name] = system


def unregister(name: str) -> None:
    """Forget a system :func:`register` made known."""
    _REGISTERED.pop(name, None)


def known() -> list[str]:
    """The names of the systems this process can play."""
    return sorted(set(SHIPPED) | set(_REGISTERED))


def system_named(name: str | None, *, source: str | None = None, field: str = "system") -> RulesSystem:
    """The system called ``name`` (None: the SPI system); BadInput naming ``source`` and ``field`` when pbem knows none by that name."""
    name = name or SPI
    if name in _REGISTERED:
        return _REGISTERED[name]
    if name in SHIPPED:
        return import_module(SHIPPED[name]).SYSTEM
    raise BadInput(f"names the rules system {name!r}, which this pbem does not play", file=source, field=field,
                   hint=f"the systems it plays: {', '.join(known())}; a newer pbem may play it")


def name_in(document: object) -> str:
    """The system a scenario document (or a genesis's ruleset) names: its ``system``, or the SPI system."""
    name = document.get("system") if isinstance(document, dict) else None
    return name if isinstance(name, str) and name else SPI


def system_of(loaded: LoadedScenario) -> RulesSystem:
    """The system a loaded scenario is played with."""
    return system_named(loaded.system)


def orders_of_its_own(name: str | None) -> bool:
    """Whether the system called ``name`` reads orders of its own shape, not the SPI orders the files' schemas hold
    (schemas/orders.schema.json): the files of its games carry any orders object, which the system reads."""
    return (name or SPI) != SPI


def system_of_state(state: object) -> RulesSystem:
    """The system a position belongs to: the one it names (``rules_system``, as :mod:`pbem.game.codec` reads it), else
    the SPI system's :class:`~pbem.model.state.GameState`."""
    return system_named(getattr(state, "rules_system", None))


def scenario_from_document(document: dict, path: Path, *, verified: bool = False) -> LoadedScenario:
    """A scenario document checked and built by the system it names (BadInput naming the file when pbem plays none by that name)."""
    return system_named(name_in(document), source=str(path)).load_scenario(document, path, verified=verified)


def load_scenario(name: str | Path) -> LoadedScenario:
    """A scenario by path or id (:func:`~pbem.loading.datafiles.find_scenario`), built by the system it names."""
    from pbem.loading.datafiles import find_scenario, scenario_document

    path = find_scenario(str(name))
    return scenario_from_document(scenario_document(path), path)


def refuse_options(name: str | None, options: list[str] | None, source: str) -> None:
    """BadInput naming the first of ``options`` the system called ``name`` (a scenario's :func:`name_in`, a loaded
    scenario's ``system``) does not play — a game of the Legion system with hidden units, say — before anything is written."""
    system = system_named(name, source=source)
    missing = [o for o in options or () if o not in system.options]
    if missing:
        plays = ", ".join(sorted(system.options)) or "none"
        raise BadInput(f"the game option '{missing[0]}' is not yet played with the rules system {system.name!r} of this scenario",
                       file=source, field="--option", hint=f"the options it plays: {plays}; start the game without it")


def case_room(document: object, source: str):
    """The room that loads and runs a case of another system than SPI's (``ruleset.system``), or None for an SPI case;
    BadInput naming ``source`` when pbem runs no case of the system named."""
    ruleset = document.get("ruleset") if isinstance(document, dict) else None
    name = ruleset.get("system") if isinstance(ruleset, dict) else None
    if name is None or name == SPI:
        return None
    if name in CASE_ROOMS:
        return import_module(CASE_ROOMS[name])
    raise BadInput(f"names the rules system {name!r}, whose cases this pbem does not run", file=source, field="ruleset.system",
                   hint=f"the systems whose cases it runs: {', '.join(sorted({SPI, *CASE_ROOMS}))}")

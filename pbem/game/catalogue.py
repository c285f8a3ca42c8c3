"""The scenarios pbem ships, as a catalogue a player or a script can read.

``pbem scenario list`` and ``pbem scenario show`` print what this module
returns; the summaries come from the scenario files themselves, so a
scenario added to ``scenarios/`` (or to a rules system's own folder,
:func:`pbem.systems.shipped_scenarios`) appears without any other change.
Each scenario is read by the rules system it names, which says what is
shown of it (:meth:`~pbem.systems.base.RulesSystem.catalogue_entry`); every
row carries that system's name (``system``).
"""

from __future__ import annotations

from typing import Any

from pbem.loading.datafiles import scenario_paths
from pbem.systems import load_scenario, system_of


def catalogue() -> list[dict[str, Any]]:
    """Every scenario: id, title, rules system, kind, turns and first player, historical ones first."""
    rows = []
    for sid in scenario_paths():
        loaded = load_scenario(sid)
        rows.append(_entry(loaded, full=False))
    return sorted(rows, key=lambda r: (r["kind"] != "historical", r["first_turn"], r["id"]))


def details(scenario_id: str) -> dict[str, Any]:
    """One scenario in full, as its rules system shows it."""
    return _entry(load_scenario(scenario_id), full=True)


def describe(info: dict[str, Any]) -> list[str]:
    """``details`` in words, for people (by the scenario's rules system)."""
    from pbem.systems import system_named

    return system_named(info["system"]).describe(info)


def _entry(loaded, *, full: bool) -> dict[str, Any]:
    system = system_of(loaded)
    entry = system.catalogue_entry(loaded, full=full)
    return {**entry, "system": system.name}

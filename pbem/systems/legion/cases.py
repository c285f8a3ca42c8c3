"""Running a Legion conformance case: load it, adjudicate its orders on its position, hold the outcome to ``expect``.

The case runner (``pbem case run``) hands here every case whose
``ruleset.system`` is ``legion-2010``; the outcome has the SPI outcome's
keys (``valid``, ``errors``, ``combats``, ``units``, ``dice_used``,
``queries``, ``passed``) and is compared by the same code
(:func:`pbem.cases.compare.differences`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pbem.cases.compare import differences
from pbem.engine.dice import DiceExhausted, FixedDice
from pbem.errors import BadInput
from pbem.loading.jsonfile import read_json
from pbem.systems.legion.adjudicator import adjudicate
from pbem.systems.legion.board import LegionBoard
from pbem.systems.legion.case_model import LegionCase
from pbem.systems.legion.counters import Counter
from pbem.systems.legion.files import DATA, board_of, charts_from, check_units, load
from pbem.systems.legion.state import ELIMINATED, REMOVED, LegionState
from pbem.systems.legion.victory import victory
from pbem.systems.legion.views import view

SHIPPED_CHARTS = {name: f"{name}.json" for name in (
    "unit-types", "stacking", "terrain", "zoc", "fire", "assault", "retreat-before-combat", "banzai", "bombardment", "disruption")}
CASES_DOC = "docs/legion.md (Conformance cases)"


def is_legion(document: Any) -> bool:
    """Is this case document for the Legion rules system (``ruleset.system``)?"""
    return isinstance(document, dict) and isinstance(document.get("ruleset"), dict) and document["ruleset"].get("system") == "legion-2010"


@dataclass(frozen=True)
class LoadedLegionCase:
    path: Path
    case: LegionCase
    board: LegionBoard
    state: LegionState

    def run(self, *, explain: bool = False) -> dict[str, Any]:
        """The case's outcome, as :func:`pbem.cases.run.run_case` gives an SPI case's (it hands this one here)."""
        return run_case(self, explain=explain)


def load_case(path: Path, document: Any | None = None) -> LoadedLegionCase:
    document = read_json(path) if document is None else document
    case = load(LegionCase, document, str(path), CASES_DOC)
    charts, _ = charts_from(SHIPPED_CHARTS, DATA / "charts", str(path), overrides=case.charts)
    board = board_of(case.map, charts, str(path))
    check_units(case.units, board, str(path))
    ids = {u.id for u in case.units}
    for i, u in enumerate((case.hidden.exposed if case.hidden else [])):
        if u not in ids:
            raise BadInput(f"no unit '{u}' in this case", file=str(path), field=f"hidden.exposed[{i}]")
    if case.queries is not None and case.queries.victory and case.victory is None:
        raise BadInput("'queries.victory' reads the case's 'victory' table, which it does not give", file=str(path), field="queries.victory")
    return LoadedLegionCase(Path(path), case, board, _state(case))


def _state(case: LegionCase) -> LegionState:
    units = tuple(Counter.model_validate({k: getattr(u, k) for k in Counter.model_fields}) for u in case.units)
    return LegionState(
        position=case.position,
        units=units,
        locations={u.id: u.hex for u in case.units},
        hits={u.id: u.hits for u in case.units if u.hits},
        ci=frozenset(u.id for u in case.units if u.ci_side),
        disrupted={u.id: u.disrupted for u in case.units if u.disrupted},
        fired=frozenset(u.id for u in case.units if u.fired),
        defended={u.id: u.defended for u in case.units if u.defended is not None},
        reserve=frozenset(u.id for u in case.units if u.reserve),
        owner=dict(case.owner),
        casualties=case.casualties,
        exposed=frozenset(case.hidden.exposed) if case.hidden is not None else None,
    )


def unit_states(state: LegionState) -> dict[str, dict]:
    out = {}
    for unit in state.units:
        where = state.locations.get(unit.id, ELIMINATED)
        if where == ELIMINATED:
            out[unit.id] = {"eliminated": True}
        elif where == REMOVED:
            out[unit.id] = {"removed": True}
        else:
            entry: dict = {"hex": where}
            if state.hits.get(unit.id):
                entry["hits"] = state.hits[unit.id]
            if unit.id in state.ci:
                entry["ci"] = True
            if state.disrupted.get(unit.id):
                entry["disrupted"] = state.disrupted[unit.id]
            out[unit.id] = entry
    return out


def run_case(loaded: LoadedLegionCase, *, explain: bool = False) -> dict[str, Any]:
    case = loaded.case
    start = loaded.state
    outcome: dict[str, Any] = {"case": case.case, "system": "legion-2010"}
    try:
        result = adjudicate(loaded.board, start, case.orders, FixedDice(list(case.dice)), case.defense, cp_per_unit=case.cp_per_unit)
    except DiceExhausted as exc:
        return outcome | {"valid": True, "errors": [], "combats": [], "units": unit_states(start), "dice_used": len(case.dice),
                          "queries": {}, "passed": False if case.expect is not None else None, "error": f"not enough dice: {exc}"}
    state = result.state
    outcome |= {
        "valid": result.valid,
        "errors": [p.as_dict() for p in result.problems],
        "combats": [dict(c) for c in result.combats],
        "units": unit_states(state),
        "dice_used": result.dice_used,
        "queries": {},
        "position": state.position.model_dump(),
    }
    if state.exposed is not None:
        outcome["exposed"] = sorted(state.exposed)
    queries = case.queries
    if queries is not None:
        if queries.owner:
            outcome["queries"]["owner"] = {h: state.owner.get(h) for h in queries.owner}
        if queries.victory:
            outcome["victory"] = victory(state, case.victory)
        if queries.view:
            outcome["view"] = view(state, queries.view)
    expect = case.expect.model_dump(exclude_none=True) if case.expect is not None else None
    diffs = differences(expect, outcome) if expect is not None else []
    if expect is not None and "position" in expect:
        diffs += [f"position.{k}: expected {v!r}, got {outcome['position'].get(k)!r}" for k, v in expect["position"].items() if outcome["position"].get(k) != v]
    outcome["passed"] = None if expect is None else not diffs
    if explain:
        outcome["events"] = list(result.events)
        if diffs:
            outcome["differences"] = diffs
    return outcome

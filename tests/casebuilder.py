"""Build conformance-case documents in tests, and run them through the real harness.

Every test position goes through the case schema, the loader and the one
engine exactly as a user's case file would.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pbem.cases.load import load_case
from pbem.cases.run import run_case


def inf(uid: str, side: str, hex_: str, a: int = 5, d: int = 5, m: int = 5, kind: str = "infantry", **extra) -> dict:
    return {"id": uid, "side": side, "kind": kind, "attack": a, "defense": d, "move": m, "hex": hex_, **extra}


def art(uid: str, side: str, hex_: str, b: int = 2, f: int = 3, r: int = 5, d: int = 1, m: int = 4, **extra) -> dict:
    return {"id": uid, "side": side, "kind": "artillery", "barrage": b, "fpf": f, "range": r, "defense": d, "move": m, "hex": hex_, **extra}


def case(
    units: list[dict],
    *,
    moves: list[dict] | None = None,
    attacks: list[dict] | None = None,
    phasing: str = "US",
    phase: str | None = None,
    gsp: dict | None = None,
    dice: list[int] | None = None,
    defense: dict | None = None,
    ruleset: dict | None = None,
    queries: dict | None = None,
    cols: int = 10,
    rows: int = 10,
    **map_fields: Any,
) -> dict:
    orders: dict = {}
    if moves is not None:
        orders["moves"] = moves
    if attacks is not None:
        orders["attacks"] = attacks
    doc: dict = {
        "case": "TEST",
        "title": "test",
        "rules": ["0.0"],
        "map": {"cols": cols, "rows": rows, **map_fields},
        "units": units,
        "position": {"turn": 1, "phasing": phasing, "phase": phase or ("movement" if moves is not None else "combat")},
        "orders": orders,
        "dice": dice or [],
    }
    if gsp is not None:
        doc["position"]["gsp"] = gsp
    if defense is not None:
        doc["defense"] = defense
    if ruleset is not None:
        doc["ruleset"] = ruleset
    if queries is not None:
        doc["queries"] = queries
    return doc


def run(doc: dict, tmp_path: Path | None = None) -> dict:
    """Write the document to a file and run it as ``pbem case run`` would."""
    import tempfile

    folder = Path(tmp_path or tempfile.mkdtemp())
    path = folder / f"case-{abs(hash(json.dumps(doc, sort_keys=True)))}.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return run_case(load_case(path), explain=True)


def rules(outcome: dict) -> set[str]:
    return {e["rule"] for e in outcome["errors"]}


def where(outcome: dict, unit: str) -> str:
    state = outcome["units"][unit]
    return "eliminated" if state.get("eliminated") else state["hex"]


def combat(outcome: dict, n: int = 1) -> dict:
    return outcome["combats"][n - 1]


def events_of(outcome: dict, kind: str) -> list[dict]:
    return [e for e in outcome["events"] if e["type"] == kind]

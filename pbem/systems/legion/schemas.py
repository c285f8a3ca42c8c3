"""The JSON Schemas of the Legion system's files, generated from its pydantic models as ``schemas/`` is (pbem schema write).

Written beside pbem's own as ``schemas/legion-*.schema.json`` by
``python -m pbem.systems.legion schemas``; a test fails when a committed
one differs from its model.  (Once the rules-system seam lists each
system's schemas, ``pbem schema write`` writes these too.)
"""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import BaseModel

from pbem.systems.legion.case_model import LegionCase
from pbem.systems.legion.charts import CHART_MODELS
from pbem.systems.legion.orders import LegionOrders
from pbem.systems.legion.scenario import LegionScenario

SCHEMAS: dict[str, type[BaseModel]] = {
    **{f"legion-chart-{name}.schema.json": model for name, model in CHART_MODELS.items()},
    "legion-scenario.schema.json": LegionScenario,
    "legion-orders.schema.json": LegionOrders,
    "legion-case.schema.json": LegionCase,
}


def write(folder: Path) -> list[Path]:
    """Each schema to a temporary name, then renamed over the old one."""
    from pbem.loading.schemas import schema_text

    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, model in SCHEMAS.items():
        path = folder / name
        temporary = folder / f".{name}.tmp"
        temporary.write_text(schema_text(model, name), encoding="utf-8")
        os.replace(temporary, path)
        written.append(path)
    return written

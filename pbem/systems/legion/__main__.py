"""``python -m pbem.systems.legion check FILE`` and ``... schemas [FOLDER]``: the Legion room's own commands.

``check`` reads a Legion scenario (with its map and every chart it names),
a chart file or a Legion case and says OK, or what is wrong — the file, the
field, what to do — with exit status 2, as every pbem command does with bad
input.  ``schemas`` writes the Legion JSON Schemas (default ``schemas/``).
"""

from __future__ import annotations

import sys
from pathlib import Path

from pbem.errors import PbemError


def main(argv: list[str]) -> int:
    if len(argv) >= 1 and argv[0] == "schemas":
        from pbem.systems.legion.schemas import write

        for path in write(Path(argv[1]) if len(argv) > 1 else Path("schemas")):
            print(f"wrote {path}")
        return 0
    if len(argv) != 2 or argv[0] != "check":
        print("usage: python -m pbem.systems.legion check FILE | schemas [FOLDER]", file=sys.stderr)
        return 2
    try:
        print(check(Path(argv[1])))
    except PbemError as exc:
        print(f"pbem: {exc.render()}", file=sys.stderr)
        return exc.exit_code
    return 0


def check(path: Path) -> str:
    from pbem.loading.jsonfile import read_json
    from pbem.systems.legion.charts import CHART_MODELS
    from pbem.systems.legion.files import load, load_scenario

    document = read_json(path)
    kind = document.get("chart") if isinstance(document, dict) else None
    if kind in CHART_MODELS:
        load(CHART_MODELS[kind], document, str(path))
        return f"{path}: the {kind} chart is well formed"
    if isinstance(document, dict) and "case" in document:
        from pbem.systems.legion.cases import load_case

        load_case(path, document)
        return f"{path}: the Legion case is well formed"
    loaded = load_scenario(path)
    return f"{path}: scenario '{loaded.scenario.id}' with its map and {len(loaded.document['charts'])} charts is well formed"


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

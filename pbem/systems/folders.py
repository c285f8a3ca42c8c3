"""Where the rules systems pbem ships keep their own scenarios: a leaf that imports nothing of pbem's, so that
finding a scenario by id (:func:`pbem.loading.datafiles.scenario_paths`) neither imports a room nor closes an
import circle with the registry (:mod:`pbem.systems`, which reads scenarios through :mod:`pbem.loading`)."""

from __future__ import annotations

from pathlib import Path

#: The folder of each shipped system's own scenarios, beside its room (the SPI system's are the project's
#: ``scenarios/``, which :func:`pbem.loading.datafiles.scenario_paths` reads itself): read without importing the room,
#: so that finding a scenario by id costs no rules.  Its scenario files are ``*.json`` at the folder's top, maps
#: (``map*.json``) apart; charts live in sub-folders.
SCENARIO_FOLDERS: dict[str, Path] = {"legion-2010": Path(__file__).resolve().parent / "legion" / "data"}

def shipped_scenarios() -> dict[str, Path]:
    """The scenarios the systems pbem ships keep in their own rooms, by id (``pbem scenario list`` and ``find_scenario``
    read them after the project's ``scenarios/``)."""
    found: dict[str, Path] = {}
    for folder in SCENARIO_FOLDERS.values():
        if folder.is_dir():
            for path in sorted(folder.glob("*.json")):
                if not path.stem.startswith("map"):
                    found.setdefault(path.stem, path)
    return found



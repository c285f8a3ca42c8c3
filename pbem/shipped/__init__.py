"""Where the data pbem reads at run time lives: the scenarios (with their maps) and the JSON Schemas.

In the checkout they are the top-level ``scenarios/`` and ``schemas/``
folders; an installed pbem (a wheel, ``pip install .``, pipx) carries the
same files inside the package, as ``pbem/shipped/scenarios`` and
``pbem/shipped/schemas`` (``setup.py`` maps the folders there).  Every
reader asks here, so the two layouts never drift apart.
"""

from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).resolve().parent
_CHECKOUT = _HERE.parent.parent


def _folder(name: str) -> Path:
    packaged = _HERE / name
    return packaged if packaged.is_dir() else _CHECKOUT / name


def scenarios_dir() -> Path:
    """The scenarios pbem ships (``leyte/``, ``test-skirmish.json``…)."""
    return _folder("scenarios")


def schemas_dir() -> Path:
    """The JSON Schemas generated from pbem's models (``orders.schema.json``…)."""
    return _folder("schemas")

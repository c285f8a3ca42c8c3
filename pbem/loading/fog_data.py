"""The fog variants' scenario data (pbem/data/fog_variants.json): static and deception units, the concealed factor."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pbem.model.fog import FogData, FogSetting

FOG_DATA = Path(__file__).resolve().parent.parent / "data" / "fog_variants.json"


@lru_cache(maxsize=1)
def fog_data() -> FogData:
    """Read once per process; the file ships with pbem and its test checks every entry."""
    return FogData.model_validate_json(FOG_DATA.read_bytes())


def fog_setting(scenario_id: str, option: str | None) -> FogSetting | None:
    """The data ``option`` plays ``scenario_id`` with (None for 19B and for a game without hidden units)."""
    if option is None or option == "hidden-units":
        return None
    return fog_data().setting(scenario_id, option)

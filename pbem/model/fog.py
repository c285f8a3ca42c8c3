"""What a scenario says of its units under the fog variants IPH 6.8 and Formosa 11.0-11.1 (docs/hidden-units.md).

No Leyte text names static or deception units or a concealed movement
factor, so every entry is marked ``assumed:`` in its ``source``; the data
live in ``pbem/data/fog_variants.json``, one block per scenario and variant.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class FogSetting(BaseModel):
    """One scenario's data for one fog variant."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    concealed_move: int | None = Field(default=None, ge=0, description="Formosa 11.1: the movement factor printed on the back of every concealed unit.")
    static: list[str] = Field(default_factory=list, description="Formosa 11.1: the Japanese units that may not move while concealed.")
    deception: int = Field(default=0, ge=0, le=20, description="Formosa 11.1: deception units (set up as dummies are, removed when revealed).")
    source: str = Field(description="Rule case, or 'assumed: <reason>'.")


class FogData(BaseModel):
    """The whole data file: per scenario id, per fog option; ``default`` for a scenario the file does not list."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    format: str = Field(pattern="^pbem-fog-variants-1$")
    default: dict[str, FogSetting]
    scenarios: dict[str, dict[str, FogSetting]] = Field(default_factory=dict)

    def setting(self, scenario_id: str, option: str) -> FogSetting | None:
        return self.scenarios.get(scenario_id, {}).get(option) or self.default.get(option)

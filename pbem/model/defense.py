"""The non-phasing player's standing choices (cases.md, Defense).

A field left out (``None``) leaves that whole choice to the system's policy
(docs/policies.md); a field present, even empty, is the whole choice.  An
entry that breaks a rule when its moment comes is dropped.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from pbem.model.routes import Advance, Route


class FpfChoice(BaseModel):
    """Artillery ``artillery`` gives Final Protective Fire to ``defender`` (8.4)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    artillery: str
    defender: str


class GspFpf(BaseModel):
    """Ground Support Points given as FPF to ``defender`` (9.0; never under Leyte 13.13)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    defender: str
    points: int = Field(ge=1)


class Defense(BaseModel):
    """Standing choices; ``None`` means "let the system decide"."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    fpf: list[FpfChoice] | None = None
    gsp_fpf: list[GspFpf] | None = None
    retreats: list[Route] | None = None
    advances: list[Advance] | None = None

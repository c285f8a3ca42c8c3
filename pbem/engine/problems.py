"""A broken rule, reported to a player: the rule case, the unit, a sentence.

Validation collects every :class:`Problem` it finds instead of stopping at
the first, so that a player fixes all his orders in one round of e-mail.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Problem:
    """``rule`` is the rule case the order breaks (``"5.14"``); ``unit`` may be None."""

    rule: str
    unit: str | None
    message: str

    def as_dict(self) -> dict:
        return asdict(self)

    def __str__(self) -> str:
        who = f"{self.unit}: " if self.unit else ""
        return f"{who}{self.message} (rule {self.rule})"

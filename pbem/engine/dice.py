"""Where die rolls come from, as far as the engine knows.

The engine never draws random numbers: it asks a :class:`DiceSource` for one
roll at a time, saying what the roll is for.  A conformance case supplies
:class:`FixedDice`; a real game supplies the committed stream of
:mod:`pbem.protocol.dice`.
"""

from __future__ import annotations

from typing import Protocol


class DiceSource(Protocol):
    def roll(self, purpose: str) -> int: ...


class DiceExhausted(RuntimeError):
    """More dice were needed than were supplied."""


class FixedDice:
    """Rolls taken in order from a list, recording what each was for."""

    def __init__(self, values: list[int]) -> None:
        self.values = list(values)
        self.rolls: list[tuple[str, int]] = []

    def roll(self, purpose: str) -> int:
        if len(self.rolls) >= len(self.values):
            raise DiceExhausted(f"{len(self.values)} dice were given, and another was needed for {purpose}")
        value = self.values[len(self.rolls)]
        self.rolls.append((purpose, value))
        return value

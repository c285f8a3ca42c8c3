"""How far a unit may move in a phase: its Movement Allowance after Reserve, Disruption and Exploitation (6A, 6B.3, 6C, 14)."""

from __future__ import annotations

from fractions import Fraction

from pbem.systems.legion.table import Table


def allowance(table: Table, u: str, phase: str) -> Fraction | None:
    """The MPs ``u`` may spend in ``phase`` (``movement`` or ``exploitation``); None when it may not move at all.

    6A: the MA printed on the side showing; 6B.3: a Reserve unit has 1/2 of
    it in the Movement Phase, 1/4 in the Exploitation Phase; 6C.1: in the
    Exploitation Phase a C/M unit has 1/2 its printed MA, any other 1 MP (or
    the minimum move), and a unit printed 0 none; 14: Disrupted halves it,
    Badly Disrupted stops the unit.
    """
    if table.disruption(u) >= 2:
        return None
    printed = table.printed(u)[2]
    if printed <= 0:
        return None
    reserve = u in table.reserve
    if phase == "movement":
        mp = Fraction(printed) / (2 if reserve else 1)
    elif table.cls(u) == "cm":
        mp = Fraction(printed) / (4 if reserve else 2)
    else:
        mp = Fraction(1)
    return mp / 2 if table.disruption(u) == 1 else mp

"""Banzai attacks (19A): the U.S. roll on the Banzai Attack Table, the Japanese losses, then infantry and engineers doubled.

The column is the defenders' current Defense Strength, unmodified (printed
less Hit markers, no Support).  ``1/4`` and ``1/2`` cost the attackers that
share, rounded down, of the defenders' steps — one step a strength point,
as Hit markers count them (9D.3, 16D.3) — and ``1:1`` all of them.  The
Japanese player allocates (the attack's ``losses``, else the policy).
"""

from __future__ import annotations

from fractions import Fraction
from math import floor

from pbem.engine.events import Event
from pbem.systems.legion.charts import column_index
from pbem.systems.legion.losses import take_losses
from pbem.systems.legion.phase import CombatPhase

SHARES = {"-": Fraction(0), "1/4": Fraction(1, 4), "1/2": Fraction(1, 2), "1:1": Fraction(1)}


def banzai_losses(phase: CombatPhase, index: int | str, order: list[str], attackers: list[str], defenders: list[str]) -> list[Event]:
    table = phase.table
    steps = sum(table.loss_strength(d, False) for d in defenders)
    chart = table.charts.banzai
    column = column_index(chart.columns, steps)
    die = phase.roll(f"Banzai Attack Table in combat {index}, defenders' strength {steps} (19A)")
    result = "-" if column is None else table.charts.lookup(die, chart).results[column]
    count = floor(steps * SHARES[result])
    events: list[Event] = [{"type": "banzai", "index": index, "defense": steps, "die": die, "result": result, "losses": count, "rule": "19A"}]
    if count:
        got, _ = take_losses(table, attackers, count, order, f"combat {index}: Banzai (19A)")
        events += got
    return events

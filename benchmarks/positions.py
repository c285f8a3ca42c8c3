"""Benchmark positions shared by more than one benchmark (no benchmark imports another's script).

:func:`leyte_sized_scenario` is the synthetic game of Leyte's size that
``bot_speed.py`` plays and docs/bot.md quotes: a 29x32 map, 110 units, a
front of 15 contacts along columns 10 (US) and 11 (JP), eight Game-Turns.
Every number is made up for timing (``assumed: benchmark``).
"""

from __future__ import annotations


def leyte_sized_scenario() -> dict:
    """The scenario document (``bench-leyte-size``)."""
    units = []
    for r in range(2, 32, 2):  # the front: 15 contacts
        units.append({"id": f"us-f{r}", "side": "US", "kind": "infantry", "attack": 5, "defense": 5, "move": 5, "hex": f"10{r:02d}", "source": "assumed: benchmark"})
        units.append({"id": f"jp-f{r}", "side": "JP", "kind": "infantry", "attack": 2, "defense": 3, "move": 6, "hex": f"11{r:02d}", "source": "assumed: benchmark"})
    rear = [(c, r) for c in (2, 4, 6) for r in range(1, 32, 2)][:45]
    for i, (c, r) in enumerate(rear):
        kind = "artillery" if i % 5 == 0 else "infantry"
        strengths = {"barrage": 2, "fpf": 3, "range": 5} if kind == "artillery" else {"attack": 3}
        units.append({"id": f"us-r{i}", "side": "US", "kind": kind, **strengths, "defense": 2, "move": 5, "hex": f"{c:02d}{r:02d}", "source": "assumed: benchmark"})
    for i, (c, r) in enumerate([(c, r) for c in (18, 20, 22, 24) for r in range(1, 32, 3)][:35]):
        units.append({"id": f"jp-r{i}", "side": "JP", "kind": "infantry", "attack": 2, "defense": 3, "move": 6, "hex": f"{c:02d}{r:02d}", "source": "assumed: benchmark"})
    terrain = {f"{c:02d}{r:02d}": ("rough" if (c * 7 + r * 3) % 11 == 0 else "broken") for c in range(12, 30) for r in range(1, 33) if (c + r) % 4 == 0}
    return {
        "id": "bench-leyte-size", "title": "Benchmark position of Leyte's size (assumed: benchmark)", "kind": "test",
        "ruleset": {"edition": "dg-2009", "exclusive": "leyte"}, "map_source": "assumed: benchmark",
        "map": {"cols": 29, "rows": 32, "terrain": terrain, "beaches": ["0101"]},
        "units": units,
        "ground_support": [{"turn": 1, "US": 6, "JP": 2, "source": "assumed: benchmark"}],
        "first_player": "US", "first_turn": 1, "last_turn": 8,
    }

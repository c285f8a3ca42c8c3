"""Reading an Assault Combat Results Table entry (9D.1): who is eliminated, halved, quartered, exchanged, retreated."""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from math import ceil

_SIDE = re.compile(r"^(?:-|(?P<who>[AD])(?P<loss>[EHQS])?(?P<retreat>[rR])?)$")


@dataclass(frozen=True)
class Effect:
    attacker_eliminated: bool = False
    defender_eliminated: bool = False
    attacker_share: Fraction = Fraction(0)
    defender_share: Fraction = Fraction(0)
    exchange: Fraction = Fraction(0)
    attacker_retreat: int = 0
    defender_retreat: int = 0

    def losses(self, attack_total: int, defense_total: int) -> tuple[int, int]:
        """Combat Losses each side takes: a half or quarter of its own total, rounded up (9D.1); an exchange
        takes that share from the lower total (the defender's when equal) and as many from the other side."""
        if self.exchange:
            if defense_total <= attack_total:
                lost = ceil(defense_total * self.exchange)
                return lost, lost
            lost = ceil(attack_total * self.exchange)
            return lost, lost
        return ceil(attack_total * self.attacker_share), ceil(defense_total * self.defender_share)


SHARE = {"H": Fraction(1, 2), "Q": Fraction(1, 4)}


def parse(entry: str) -> Effect:
    """``AQ/DHr`` -> attacker quartered; defender halved, then retreats one hex.  ``HX``, ``QX``: exchanges."""
    if entry in ("HX", "QX"):
        return Effect(exchange=SHARE[entry[0]])
    attacker, defender = entry.split("/")
    fields: dict = {}
    for part, side in ((attacker, "attacker"), (defender, "defender")):
        match = _SIDE.match(part)
        if match is None:
            raise ValueError(f"not an Assault Combat result: {entry!r}")
        loss, hexes = match.group("loss"), match.group("retreat")
        if loss == "E":
            fields[f"{side}_eliminated"] = True
        elif loss in SHARE:
            fields[f"{side}_share"] = SHARE[loss]
        if hexes:
            fields[f"{side}_retreat"] = 1 if hexes == "r" else 2
    return Effect(**fields)

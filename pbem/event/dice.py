"""The event's dice pooled into samples — all rolls, by purpose, by referee, by place in the stream — each tested.

Every roll counted comes from a turn file whose chain verified, so it was
recomputed from the revealed seed and the player's salt.  Each sample gets
the test valid for its size (:func:`pbem.event.stats.face_test`) and every
p-value is adjusted by Holm's method for the number of tests made.  A small
adjusted p-value fails no game (the dice are committed, no one can bias
them): it is a reason to look, and the report says so.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from pbem.event.stats import FaceTest, face_test, holm
from pbem.game.dice_report import FACES

CORRECTION = "Holm"
PURPOSES = ("combat", "intelligence", "set-up", "other")


def purpose_of(purpose: str) -> str:
    """The kind of a roll from its recorded purpose: a combat's die, an intelligence roll, or the set-up's intelligence (19B.7)."""
    if purpose.startswith("combat "):
        return "combat"
    if purpose.startswith("intelligence after the set-up"):
        return "set-up"
    if purpose.startswith("intelligence"):
        return "intelligence"
    return "other"


@dataclass
class Sample:
    label: str
    group: str
    """``all``, ``purpose``, ``referee`` or ``position``."""
    counts: dict[int, int]
    test: FaceTest | None = None
    p_holm: float | None = None

    @property
    def rolls(self) -> int:
        return sum(self.counts.values())

    def as_dict(self) -> dict:
        test = self.test
        return {
            "sample": self.label, "group": self.group, "rolls": self.rolls,
            "counts": {str(f): self.counts[f] for f in FACES},
            "test": test.test if test else None,
            "statistic": test.statistic if test else None,
            "degrees_of_freedom": test.degrees_of_freedom if test else None,
            "p_value": test.p_value if test else None,
            "p_adjusted": self.p_holm,
        }


@dataclass
class DiceReport:
    samples: list[Sample] = field(default_factory=list)

    @property
    def all(self) -> Sample:
        return self.samples[0]

    def as_dict(self) -> dict:
        return {
            "rolls": self.all.rolls,
            "counts": {str(f): self.all.counts[f] for f in FACES},
            "correction": CORRECTION,
            "tests": [s.as_dict() for s in self.samples if s.test is not None],
            "samples": [s.as_dict() for s in self.samples],
        }


def _counts(rolls: list[dict]) -> dict[int, int]:
    found = Counter(r["value"] for r in rolls)
    return {f: found.get(f, 0) for f in FACES}


def dice_report(rolls: list[dict]) -> DiceReport:
    """Samples of ``rolls`` (each with ``n``, ``purpose``, ``value`` and ``by``), tested and corrected."""
    samples = [Sample("all rolls", "all", _counts(rolls))]
    for kind in PURPOSES:
        chosen = [r for r in rolls if purpose_of(r["purpose"]) == kind]
        if chosen:
            samples.append(Sample(f"purpose: {kind}", "purpose", _counts(chosen)))
    for signer in sorted({r["by"] for r in rolls}):
        samples.append(Sample(f"referee: {signer}", "referee", _counts([r for r in rolls if r["by"] == signer])))
    samples.append(Sample("first roll of a turn file", "position", _counts([r for r in rolls if r["n"] == 1])))
    samples.append(Sample("later rolls of a turn file", "position", _counts([r for r in rolls if r["n"] > 1])))
    tested = []
    for sample in samples:
        sample.test = face_test(sample.counts)
        if sample.test is not None:
            tested.append(sample)
    for sample, adjusted in zip(tested, holm([s.test.p_value for s in tested])):
        sample.p_holm = adjusted
    return DiceReport(samples)

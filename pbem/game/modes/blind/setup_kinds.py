"""Whether the set-up's public markers can hold the scenario's set-up pieces, kind by kind (issue 35 item 2).

A marker's hex says which kinds of piece may stand there (docs/hidden-units.md, *The secret set-up*): armor only in
its terrain or on a road or trail unless the scenario printed armor there (5.25), a dummy never in a clear hex
(19B.3), any unit anywhere else in the zone.  Which piece stands under each marker is secret, but the pieces are
public: every set-up unit must stand under some marker, and a marker no dummy may take must hold a unit.  Both are
matchings between the set-up units and the markers (:func:`pbem.engine.matching.augment`); by the
Mendelsohn-Dulmage theorem a matching that places every unit and one that fills every marker barred to dummies
together give one that does both, and the markers it leaves over take the dummies (their number is checked apart).
So a set-up the American player cannot refuse here has some legal reading; one he refuses has none.  Pure.
"""

from __future__ import annotations

from typing import Callable, Sequence

from pbem.engine.matching import augment


def kind_problems(units: Sequence, markers: Sequence[str], may_stand: Callable[[object, str], bool],
                  dummy_may_stand: Callable[[str], bool]) -> list[str]:
    """What no reading of the markers allows: set-up units left with no marker their kind may take, and markers no
    dummy may take beyond what the units can fill.  ``may_stand(unit, hex)``: may this unit set up there."""
    options = {u.id: [m for m in sorted(markers) if may_stand(u, m)] for u in units}
    owner: dict[str, str] = {}
    for u in units:
        augment(u.id, options, owner)
    placed = set(owner.values())
    problems = []
    homeless = [u for u in units if u.id not in placed]
    if homeless:
        problems.append(f"committed a set-up that leaves {' '.join(u.id for u in homeless)} "
                        f"({', '.join(sorted({u.kind for u in homeless}))}) no marker to stand under: no marker of the set-up (or too few) stands where "
                        + ("armor may set up: in its terrain, on a road or trail, or where the scenario printed armor (5.25)"
                           if all(u.kind == "armor" for u in homeless) else "such a unit may set up (19B.2, 5.25)"))
    barred = [m for m in sorted(markers) if not dummy_may_stand(m)]
    taken_by = {m: [u.id for u in units if may_stand(u, m)] for m in barred}
    owner_of: dict[str, str] = {}
    for m in barred:
        augment(m, taken_by, owner_of)
    unfilled = sorted(set(barred) - set(owner_of.values()))
    if unfilled:
        problems.append(f"committed {len(barred)} marker(s) where no dummy may set up (a clear hex, 19B.3: "
                        f"{' '.join(barred[:8])}{' …' if len(barred) > 8 else ''}), more than the set-up units that may "
                        f"stand there can fill ({len(barred) - len(unfilled)}): a dummy set up in a clear hex")
    return problems


__all__ = ["kind_problems"]

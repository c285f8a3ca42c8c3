"""Formosa 11.1 with no referee: every concealed move checked at once against the one public movement factor.

Under the fog-formosa option every concealed Japanese unit moves with the
same factor, printed on the back of every counter and public (scenario
data, ``pbem/data/fog_variants.json``).  So the American player, who sees
only markers, can check a whole Japanese Movement Phase at once without
any opening: each marker standing concealed after the Japanese player-turn
must have come from a distinct marker of the step before, within the
common factor under the movement rules (terrain, 5.12 enemy hexes, 6.0
zones of control, 12.22), as :func:`pbem.engine.reach.unit_reach` judges a
move.  A marker that cannot is a move no concealed unit may make: a finding
against the Japanese player at once (docs/PROTOCOL.md, threat table).

A Japanese attacker forced back (A1-A3, 7.7) may displace a concealed
friendly unit (7.8), which the American view does not show: a step whose
combats (in its view, public) forced Japanese attackers back lets every
marker end as many hexes farther as the longest such retreat.  A new marker
may be a reinforcement's arrival: each Japanese reinforcement
the public scenario has due by then is one more source, placed by its entry
(12.2) and moving on with the common factor.  What the check leaves to the
audit: units shown after the step (revealed by order, with their own
factor, or by combat) are not matched, so a source may serve a marker while
the unit that truly left it stands revealed elsewhere.  The probe moves as
infantry: no Island War cost is dearer for infantry than for another kind,
and armor is only kept out of more hexes (5.25), so no legal move is refused.
"""

from __future__ import annotations

from pbem.engine.board import Board
from pbem.engine.placement import Placement
from pbem.engine.reach import unit_reach
from pbem.game.codec import state_from_json
from pbem.model.common import NOT_ON_MAP
from pbem.model.construct import construct
from pbem.model.ruleset import Ruleset
from pbem.model.units import Unit

HIDDEN = "hidden"


def _markers(view: dict) -> list[str]:
    where = view["state"]["locations"]
    return sorted(where[u["id"]] for u in view["state"]["units"]
                  if u["side"] == "JP" and u["kind"] == HIDDEN and where[u["id"]] not in NOT_ON_MAP)


def reachable(board: Board, ruleset: dict, before: dict, common: int, arrivals: list[Unit] = ()) -> dict[str, set[str]]:
    """For each marker of the view ``before`` (and each reinforcement due, ``arrivals``): every hex a unit moving from
    it with the common factor may end in."""
    state = state_from_json(before["state"])
    units = state.unit_index()
    rules = construct(Ruleset, ruleset)
    out = {}
    probes = [(m, m, {"kind": "infantry"}) for m in _markers(before)]
    probes += [(f"arrival {u.id}", "offmap", {"kind": "airassault" if u.kind == "airassault" else "infantry", "entry": u.entry})
               for u in arrivals]
    for name, where, kind in probes:
        probe = construct(Unit, {"id": name, "side": "JP", "attack": 0, "defense": 0, "move": common} | kind, trusted=True)
        probed = dict(units) | {name: probe}
        placement = Placement(probed, state.locations | {name: where})
        out[name] = set(unit_reach(board, rules, probed, placement, name).cost) | ({where} if where != "offmap" else set())
    return out


def _match(targets: list[str], edges: dict[str, list[str]]) -> list[str]:
    """The targets left unmatched by a maximum matching (Kuhn's augmenting paths): each source serves one target."""
    owner: dict[str, str] = {}

    def place(target: str, seen: set[str]) -> bool:
        for source in edges[target]:
            if source in seen:
                continue
            seen.add(source)
            if source not in owner or place(owner[source], seen):
                owner[source] = target
                return True
        return False

    return [t for t in targets if not place(t, set())]


def pushed(after: dict) -> int:
    """How many hexes a displacement (7.8) may have carried a concealed unit in the step: the longest retreat of
    Japanese attackers its combats show (A1-A3; the attackers are Japanese in a Japanese player-turn)."""
    results = [e.get("result") for e in (after.get("last") or {}).get("events", []) if e.get("type") == "combat"]
    return max((int(r[1]) for r in results if isinstance(r, str) and len(r) == 2 and r[0] == "A" and r[1].isdigit()), default=0)


def _widened(board: Board, hexes: set[str], steps: int) -> set[str]:
    for _ in range(steps):
        hexes = hexes | {n for h in hexes for n in board.neighbours(h) if board.land(n)}
    return hexes


def illegal_concealed_moves(board: Board, ruleset: dict, before: dict, after: dict, common: int,
                            arrivals: list[Unit] = ()) -> list[str]:
    """The markers after a Japanese player-turn that no concealed move with the factor ``common`` explains, from a
    marker before or, for the reinforcements due (``arrivals``), from their entry: each names its hex."""
    reach = reachable(board, ruleset, before, common, arrivals)
    extra = pushed(after)
    if extra:
        reach = {m: _widened(board, hexes, extra) for m, hexes in reach.items()}
    targets = _markers(after)
    edges = {t: [m for m, hexes in reach.items() if t in hexes] for t in targets}
    return sorted(_match(targets, edges))

"""Full positions the referee can play, built from one side's view under hidden units (determinization).

The look-ahead (:mod:`.lookahead`) weighs a candidate turn by playing it
through the referee's own step; under the hidden-units option the side's
view is not the referee's position, so it plays a position built from the
view instead — never from the referee's state.

- **The Japanese view** holds every piece, his dummies included, and every
  American unit: it is the referee's position but for the American
  intelligence priorities and standing choices, which the step does without
  (19B.7's policy picks instead).  It is played as it is.
- **The American view** shows markers: a hex each, no identity
  (docs/hidden-units.md).  Each draw gives every marker an identity from
  what is public — the scenario's order of battle less the Japanese units
  the view shows (exposed or eliminated) — and the count of markers:

  * every set-up unit the view does not show stands under a marker (the
    secret set-up places them all, 19B.2 as adapted, and no Leyte rule
    takes a Japanese unit off the map but elimination, which he sees);
  * the markers left are the reinforcements that can have come in (due in
    an earlier Game-Turn, or in this one when Japan moves first), a draw of
    them when the markers are fewer: a reinforcement is assumed to come in
    as soon as it can;
  * only the markers beyond those are dummies.  Which dummies are left is
    not told (a removal shows only in the events of its player-turn, and a
    view holds only the last), but the markers can be counted: the ones no
    unit of the order of battle can stand under are dummies — on Game-Turn
    1 exactly the dummies the set-up and the intelligence roll left;
  * a marker next to an American unit, or in a clear hex, is never a dummy:
    a dummy in contact is removed as the Japanese Combat Phase begins, and
    one in a clear hex at once (19B.3, 19B.6), so the rules tell him so;
  * which real unit stands under which marker is drawn uniformly.

  The units not placed stay off the map, with those due this Game-Turn
  (still to enter when Japan moves second): the Japanese reply may bring
  them in.  Each draw comes from a generator seeded from the seed, the
  view's number, the side and the draw's number: the same view and seed
  give the same positions, with no clock and no global random.
"""

from __future__ import annotations

import random

from pbem.loading.datafiles import LoadedScenario
from pbem.engine.dummies import clear, dummy_counters
from pbem.engine.placement import Placement
from pbem.game.fog import HIDDEN
from pbem.model.common import OFFMAP
from pbem.model.state import GameState
from pbem.model.units import Unit


def plausible_positions(state: GameState, loaded: LoadedScenario, *, seed: int, seq: int, draws: int) -> list[GameState]:
    """``draws`` positions the referee can play for the side whose view shows ``state`` (the view's position).

    Without hidden units, or for the Japanese side (no markers in his view), the view's position itself."""
    markers = sorted(u.id for u in state.units if u.kind == HIDDEN)
    if state.hidden is None or not markers:
        return [state] * draws
    # A marker no dummy can be under: in a clear hex (19B.3) or in an American zone of control, where the engine
    # removes a dummy as the Japanese Combat Phase begins (19B.6, pbem.engine.dummies.remove_in_contact).
    placement = Placement(state.unit_index(), state.locations)
    real_only = {m for m in markers if clear(loaded.board, m) or placement.in_enemy_zoc(m, "JP")}
    return [_drawn(state, loaded, markers, real_only, random.Random(f"determinize:{seed}:{seq}:{state.position.phasing}:{n}"))
            for n in range(draws)]


def _drawn(state: GameState, loaded: LoadedScenario, markers: list[str], real_only: set[str], rng: random.Random) -> GameState:
    scenario = loaded.scenario
    shown = {u.id for u in state.units}
    turn = state.position.turn
    japan_moved = scenario.first_player == "JP"  # Japan's player-turn of this Game-Turn came before the American one
    setup = [u for u in scenario.units if u.side == "JP" and u.hex is not None and u.id not in shown]
    due = [u for u in scenario.units if u.side == "JP" and u.arrives is not None and u.id not in shown
           and (u.arrives < turn or (u.arrives == turn and japan_moved))]
    later = [u for u in scenario.units if u.side == "JP" and u.arrives == turn and u.id not in shown and not japan_moved]
    fastest = max((u.move for u in scenario.units if u.side == "JP"), default=0)

    # Which pieces stand under the markers: every set-up unit, then the arrivals, then dummies.
    rng.shuffle(setup)
    rng.shuffle(due)
    pieces: list[Unit] = [u.counter() for u in (setup + due)[: len(markers)]]
    if len(pieces) < len(markers):  # markers the order of battle does not explain: dummies (more than the
        pieces += dummy_counters(len(markers) - len(pieces), fastest)  # scenario's count only if the view is past the rules)
    # Where: a dummy only under a marker it could stand on unseen; a real unit anywhere.
    free = [m for m in markers if m not in real_only]
    drawn_dummies = [p for p in pieces if p.is_dummy]
    rng.shuffle(free)
    dummy_hexes = free[: len(drawn_dummies)]
    if len(dummy_hexes) < len(drawn_dummies):  # more dummies than markers that can hide one: past what the rules explain
        rest = [m for m in markers if m not in dummy_hexes]
        dummy_hexes += rest[: len(drawn_dummies) - len(dummy_hexes)]
    others = [m for m in markers if m not in dummy_hexes]
    rng.shuffle(others)
    real = [p for p in pieces if not p.is_dummy]
    placed = dict(zip([d.id for d in drawn_dummies], dummy_hexes)) | dict(zip([u.id for u in real], others))

    units = [u for u in state.units if u.kind != HIDDEN] + real + drawn_dummies
    locations = {u: h for u, h in state.locations.items() if u not in markers} | placed
    waiting = [u.counter() for u in due + later if u.id not in placed]
    units += waiting
    locations |= {u.id: OFFMAP for u in waiting}
    return state.model_copy(update={"units": tuple(units), "locations": locations})

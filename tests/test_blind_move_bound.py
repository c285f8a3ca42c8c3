"""Hidden units with no referee: the public bound on hidden moves, checked at once (issue 35 item 4).

The cheat: the Japanese player's own modified pbem moves a hidden unit far beyond its allowance in his player-turn
and publishes the step; the American player runs the unmodified pbem on the file he receives.  Which piece stands
under which marker is hidden, the marker hexes are not: his ``blind next`` and ``verify`` refuse the file at once
(exit 1, naming the Japanese player, the step and file, and the rule cases) when no legal play could have put the
counters where they stand (:mod:`pbem.game.modes.blind.move_bound`).  On the code before, only the audit found it.

The other half: the bound is a true upper bound — legal bot games in every Leyte scenario pass it, step by step.
"""

from __future__ import annotations

import contextlib
import itertools
from pathlib import Path

import pytest

from pbem.engine import hexes
from pbem.engine.dummies import clear
from pbem.game.modes.blind import run as br
from pbem.game.modes.blind.move_bound import Counter, MoveBound, Seen
from pbem.loading.datafiles import load_scenario
from pbem.model.common import NOT_ON_MAP
from pbem.protocol import blindfile
from pbem.protocol.keys import generate
from tests.blind_games import Player, fix_games, begin as blind_begin, write
from tests.games import pbem, run

SCENARIO = "leyte-assault"
DISTANCE, ALLOWANCE = 18, 6


@pytest.fixture(autouse=True)
def reproducible(monkeypatch):
    fix_games(monkeypatch, itertools.count(5))


def begin(base: Path) -> dict[str, Player]:
    return blind_begin(base, SCENARIO)


def far_hex(board, state, start: str, distance: int) -> str | None:
    """A hex ``distance`` from ``start`` where a hidden unit may stand (land, empty, not clear, out of every American
    zone of control), as far as can be from every Japanese counter of the position: the teleport's destination."""
    where = {u: h for u, h in state.locations.items() if h not in NOT_ON_MAP}
    taken = set(where.values())
    us = {h for u, h in where.items() if state.unit(u).side == "US"}
    zoc = {n for h in us for n in board.neighbours(h)}
    japanese = [h for u, h in where.items() if state.unit(u).side == "JP"]
    fits = [h for h in board.all_hexes if board.land(h) and h not in taken and h not in zoc and not clear(board, h)
            and hexes.distance(start, h) == distance]
    return max(fits, key=lambda h: (min(hexes.distance(h, j) for j in japanese), h), default=None)


@contextlib.contextmanager
def teleporting(done: dict):
    """The Japanese client: in his first player-turn, after carrying out his orders, one of his hidden units of
    allowance 6 is moved on 18 hexes, and the step is published so (every commitment and opening consistent)."""
    from pbem.game.step import record_step

    real = br.Japanese.carry_out

    def carry_out(self, seq, step, orders, stream, ruleset):
        played = real(self, seq, step, orders, stream, ruleset)
        state = played.state
        if done or step.state.to_act() != "JP" or not step.state.hidden.deployed or not played.last["valid"]:
            return played
        board = self.loaded.board
        for unit in state.units:
            here = state.locations.get(unit.id)
            if (unit.side != "JP" or unit.is_dummy or unit.move != ALLOWANCE or here in NOT_ON_MAP
                    or unit.id in state.hidden.exposed):
                continue
            there = far_hex(board, state, here, DISTANCE)
            if there is None:
                continue
            done.update(seq=seq, unit=unit.id, start=here, end=there)
            moved = state.model_copy(update={"locations": {**state.locations, unit.id: there}})
            return record_step(moved, game=self.game, seq=seq, scenario_ref=self.ref, ruleset=ruleset, over=played.over,
                               last=played.last, loaded=self.loaded, before=step.state)
        return played

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(br.Japanese, "carry_out", carry_out)
        yield done


def test_a_hidden_unit_moved_18_hexes_with_an_allowance_of_6_is_refused_at_once(tmp_path):
    """Issue 35 item 4: the American's unmodified ``blind next`` refuses the file that carries the teleport, before he
    plays on, and ``verify`` names the Japanese player, the step, the file, the marker and the rule cases."""
    players = begin(tmp_path)
    done: dict = {}
    for _ in range(8):
        writer, sent = write(players, lambda: teleporting(done))
        if done:
            break
    else:
        pytest.fail("the Japanese player never moved in the files written")
    assert writer == "JP" and sent.name == blindfile.file_name(2 * done["seq"])
    assert hexes.distance(done["start"], done["end"]) == DISTANCE
    us = players["US"]
    said = pbem("blind", "next", us.game, "--key", us.key, "--bot", "greedy", code=1)
    assert f"step {done['seq']}: JP published in {sent.name} counters no legal play" in said, said
    assert done["end"] in said and "5.13" in said and "6.0" in said and "caught at once" in said, said
    assert not (us.game / blindfile.file_name(2 * done["seq"] + 1)).exists()  # he wrote nothing
    code, out, err = run("verify", us.game)
    assert code == 1 and "Traceback" not in out + err, out + err
    assert f"step {done['seq']}: JP published in {sent.name}" in out + err and done["end"] in out + err


# -- no false positive: legal games pass the bound --------------------------------------------------------------

US = generate("us")
GAMES = [("leyte-assault", "greedy", "random", 1), ("leyte-mountain-barrier", "greedy", "random", 2),
         ("leyte-final-collapse", "greedy", "random", 3), ("leyte-final-collapse", "greedy", "greedy", 4),
         ("leyte-campaign", "greedy", "random", 5),
         ("leyte-mountain-barrier", "random", "greedy", 29)]  # an American barrage called off by a displacement (7.82)


@pytest.mark.parametrize("name,us,jp,seed", GAMES)
def test_legal_bot_games_pass_the_bound_at_every_step(name, us, jp, seed):
    """Bot games (the random bot tries moves of every length and set-ups in clear hexes; greedy fights), checked by
    the American player as they are played: no finding at all, though the bound checked every step — and refuses a
    counter of the last Japanese player-turn put where no counter could have gone, in the same game."""
    loaded = load_scenario(name)
    steps = 12 if name == "leyte-campaign" else None  # the campaign's first Game-Turns: its reinforcements and set-up
    record, _ = br.run(loaded, us=US, players=br.bot_players(loaded, {"US": us, "JP": jp}, seed),
                       secret=bytes([seed]) * 32, us_secret=bytes([seed + 1]) * 32, max_steps=steps)
    assert record.findings == [], [str(f) for f in record.findings]
    japanese = [(before, pub) for before, pub in zip(record.publications, record.publications[1:]) if pub.side == "JP"
                and pub.view["last"]["valid"]]
    assert japanese, "no Japanese player-turn was played"
    before, pub = japanese[-1]
    seen, after = Seen.of_view(before.view), Seen.of_view(pub.view)
    assert after.counters, "no Japanese counter on the map"
    board = loaded.board
    taken = {c.hex for c in after.counters} | after.us_hexes
    away = max((h for h in board.all_hexes if board.land(h) and h not in taken),
               key=lambda h: min(hexes.distance(h, c.hex) for c in seen.counters + after.counters))
    teleported = Seen(tuple(sorted(list(after.counters[1:]) + [Counter(away, None)], key=lambda c: c.hex)),
                      after.us_hexes, after.known, after.eliminated, after.turn)
    bound = MoveBound(loaded, entered=len(loaded.scenario.units))  # every reinforcement counted in: only moves can explain it
    assert bound.check("JP", seen, teleported, pub.view["last"]["events"], dummies_left=9) != []


class MovesInTheAmericanTurn(br.Japanese):
    """In his first American player-turn after the set-up, moves one of his hidden units to the nearest hex farther
    from every Japanese counter than the step's combat results can move one (5.11, 7.7-7.9), and publishes the step
    so (every commitment and opening consistent)."""

    moved: tuple | None = None

    def carry_out(self, seq, step, orders, stream, ruleset):
        from pbem.engine import hexes as hx
        from pbem.game.modes.blind.move_bound import _combat_slack
        from pbem.game.step import record_step

        played = super().carry_out(seq, step, orders, stream, ruleset)
        state, board = played.state, self.loaded.board
        if self.moved or step.state.to_act() != "US" or not step.state.hidden.deployed or not played.last["valid"]:
            return played
        own, pushed = _combat_slack(played.last["events"], "US")
        japanese = {h for u, h in list(step.state.locations.items()) + list(state.locations.items())
                    if h not in NOT_ON_MAP and state.unit(u).side == "JP"}
        taken = {h for h in state.locations.values() if h not in NOT_ON_MAP}
        us = {state.locations[u.id] for u in state.units if u.side == "US" and state.on_map(u.id)}
        zoc = {n for h in us for n in board.neighbours(h)}
        far = [h for h in board.all_hexes if board.land(h) and h not in taken and h not in zoc and not clear(board, h)
               and min(hx.distance(h, j) for j in japanese) > own + pushed]
        for unit in sorted(state.units, key=lambda u: u.id):
            here = state.locations.get(unit.id)
            if unit.side != "JP" or here in NOT_ON_MAP or unit.id in state.hidden.exposed or not far:
                continue
            there = min(far, key=lambda h: (hx.distance(h, here), h))
            self.moved = (seq, unit.id, here, there)
            moved = state.model_copy(update={"locations": {**state.locations, unit.id: there}})
            return record_step(moved, game=self.game, seq=seq, scenario_ref=self.ref, ruleset=ruleset,
                               over=played.over, last=played.last, loaded=self.loaded, before=step.state)
        return played


def test_a_hidden_unit_moved_in_an_american_player_turn_is_refused_at_once():
    """5.11: no Japanese unit moves in the American player-turn but by a combat result.  The cheater's in-process
    client moves one hidden unit there beyond what the step's combats can move any; the American player's unmodified
    checks refuse the step at once, naming the counter and 5.11."""
    loaded = load_scenario(SCENARIO)
    record, jp = br.run(loaded, us=US, players=br.bot_players(loaded, {"US": "greedy", "JP": "greedy"}, 1),
                        secret=bytes([7]) * 32, us_secret=bytes([8]) * 32, japanese=MovesInTheAmericanTurn, max_steps=3)
    assert jp.moved, "no American player-turn was played"
    seq, unit, start, end = jp.moved
    found = [f for f in record.findings if f.seq == seq]
    assert found and found[0].cheater == "JP" and found[0].when == br.AT_ONCE, [str(f) for f in record.findings]
    assert f"counters no legal play can have put where they stand: {end}" in found[0].what, found[0]
    assert "an American player-turn" in found[0].what and "(5.11)" in found[0].what, found[0]

"""The fog variants with no referee (issue 41): bot games through the real files, and Formosa's one-factor check.

Each variant's game is played as tests/blind_games.py plays 19B's — two
folders, the files mailed, every step the one ``pbem status`` names — then
verified and audited.  Under fog-formosa every concealed unit moves with
the one public factor (Formosa 11.1), so the American player's unmodified
pbem checks each Japanese player-turn at once: a Japanese player whose
modified pbem moves a concealed unit beyond it (tests/blind_games.py's
:func:`illegal_mover`) is named at that very step, before any audit.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import re

import pytest

from pbem.protocol import blindfile
from tests.blind_games import SCENARIO, SECRETS, Player, play_to_the_end, publish_secret, step, reproducible  # noqa: F401  (an autouse fixture)
from tests.games import pbem, run
from tests.blind_leak_scan import BlindScan, scan_blind_game


def begin(base, option: str, scenario: str = SCENARIO) -> dict[str, Player]:
    """``pbem new`` by the Japanese player under ``option``, the genesis mailed (tests/blind_games.begin's, the option named)."""
    base.mkdir(parents=True, exist_ok=True)
    players = {side: Player(base, side) for side in ("US", "JP")}
    jp, us = players["JP"], players["US"]
    said = pbem("new", scenario, "--us", us.pub, "--jp", jp.pub, "--key", jp.key, "--out", jp.game, "--no-referee", "--option", option)
    assert "blind-0000-JP.pbem" in said
    us.game.mkdir()
    jp.mail(blindfile.file_name(0), us)
    return players


@pytest.mark.parametrize("option", ["fog-iph", "fog-formosa"])
def test_a_blind_game_of_the_variant_plays_verifies_and_audits(tmp_path, option):
    SECRETS[0] = itertools.count(1)
    players = begin(tmp_path, option)
    genesis = blindfile.read((players["US"].game / blindfile.file_name(0)).read_text(), "genesis")
    assert genesis.body["options"] == [option]
    assert play_to_the_end(players) > 8
    publish_secret(players)
    us = players["US"]
    assert "verified" in pbem("verify", us.game)
    said = pbem("audit", us.game)
    assert "audited 9 step(s) with full information" in said and "AUDIT FAILED" not in said
    view = json.loads(pbem("view", us.game, "--key", us.key, "--json"))
    assert view["state"]["hidden"]["variant"] == option


def test_two_fog_options_are_refused_with_no_referee(tmp_path):
    players = {side: Player(tmp_path, side) for side in ("US", "JP")}
    code, out, err = run("new", SCENARIO, "--us", players["US"].pub, "--jp", players["JP"].pub, "--key", players["JP"].key,
                         "--out", players["JP"].game, "--no-referee", "--option", "fog-formosa", "--option", "fog-iph")
    assert code == 2 and "Traceback" not in err and "two ways of hiding units" in out + err


@contextlib.contextmanager
def far_mover(monkeypatch):
    """The Japanese player's modified pbem: his honest orders committed, then one concealed unit carried, as the step
    is adjudicated, to a hex no Japanese counter could reach with the one concealed factor (Formosa 11.1), out of
    every American zone of control (so that nothing reveals it, 11.2)."""
    from pbem.engine.placement import Placement
    from pbem.engine.reach import unit_reach
    from pbem.game.modes.blind import run as br
    from pbem.game.step import record_step
    from pbem.model.units import Unit

    real_play, cheat = br.play, {}

    def play(loaded, ruleset, state, orders, stream, **kw):
        played = real_play(loaded, ruleset, state, orders, stream, **kw)
        hidden = state.hidden
        if cheat or hidden is None or not hidden.deployed or state.position.phasing != "JP" or not played.last["valid"]:
            return played
        after, board = played.state, loaded.board
        rules = loaded.scenario.ruleset
        reach = set()
        for unit in state.units:
            if unit.side == "JP" and state.on_map(unit.id):
                probe = {**state.unit_index(), unit.id: Unit.model_construct(id=unit.id, side="JP", kind="infantry", defense=0,
                                                                             move=hidden.concealed_move)}
                reach |= set(unit_reach(board, rules, probe, Placement(probe, state.locations), unit.id).cost)
        for unit in loaded.scenario.units:  # a reinforcement due could stand anywhere its entry and the factor allow
            if unit.side == "JP" and unit.arrives is not None and unit.arrives <= state.position.turn:
                probe = {**state.unit_index(), "due": Unit.model_construct(id="due", side="JP", kind="infantry", defense=0,
                                                                           move=hidden.concealed_move, entry=unit.entry)}
                reach |= set(unit_reach(board, rules, probe, Placement(probe, {**state.locations, "due": "offmap"}), "due").cost)
        occupied = {h for u, h in after.locations.items() if after.on_map(u)}
        near_us = {n for u in after.units if u.side == "US" and after.on_map(u.id) for n in board.neighbours(after.locations[u.id])}
        movers = [u.id for u in after.units if u.side == "JP" and not u.is_dummy and after.on_map(u.id)
                  and u.id not in after.hidden.exposed and u.id not in after.hidden.static]
        far = [h for h in sorted(board.all_hexes) if board.land(h) and h not in reach | occupied | near_us
               and not board.closed_to("JP", h)]
        if not movers or not far:
            return played
        cheat.update(seq=kw["seq"], unit=movers[0], end=far[0])
        moved = after.model_copy(update={"locations": {**after.locations, movers[0]: far[0]}})
        return record_step(moved, game=kw["game"], seq=kw["seq"], scenario_ref=kw["scenario_ref"], ruleset=ruleset,
                           over=played.over, last=played.last, loaded=loaded, before=state)

    with monkeypatch.context() as m:
        m.setattr(br, "play", play)
        yield cheat


def test_a_concealed_move_beyond_the_one_factor_is_caught_at_once(tmp_path, monkeypatch):
    SECRETS[0] = itertools.count(1)
    with far_mover(monkeypatch) as cheat:
        # leyte-assault: test-skirmish's map is so small that the one factor reaches nearly every hex from some marker
        players = begin(tmp_path, "fog-formosa", "leyte-assault")
        caught = ""
        for _ in range(60):
            try:
                name = step(players)
            except AssertionError as refused:  # the American's unmodified pbem refuses to play on from the cheat's file
                caught = str(refused)
                break
            if name is None:  # status offers no next file: the American player's refuses to play on
                caught = players["US"].status(code=1)
                break
            assert not cheat or name[-7:-5] == "JP", f"the American played on after the cheat ({name})"
    assert cheat, f"the modified pbem found no concealed unit to carry off: {caught}"
    cheated = cheat["seq"]
    assert "JP" in caught and "Formosa 11.1" in caught and cheat["end"] in caught
    us = players["US"]
    said = pbem("verify", us.game, code=1)  # his unmodified verify names the Japanese player, the step and the rule
    found = re.search(r"step ([0-9]+): JP left concealed markers in ([0-9 ]+) that no concealed unit could reach", said)
    assert found, said
    assert int(found.group(1)) == cheated and cheat["end"] in found.group(2).split()
    assert "caught at once" in said and "Formosa 11.1" in said and blindfile.file_name(2 * cheated) in said


@pytest.mark.parametrize("option", ["fog-iph", "fog-formosa"])
def test_what_the_american_receives_in_a_blind_game_of_the_variant_says_no_more_than_it_exposes(option):
    """tests/blind_leak_scan.py on two small games of each variant: views, openings (exactly what the variant exposes),
    identities traded, roots and guessed leaves; and no finding in an honest game (Formosa's one-factor check among them)."""
    from pbem.loading.datafiles import load_scenario

    scan = BlindScan()
    for policies, seed in ((("greedy", "greedy"), 1), (("random", "greedy"), 2)):
        scan_blind_game(scan, load_scenario(SCENARIO), policies, seed, options=[option])
    assert scan.leaks == [], "\n".join(scan.leaks)
    assert scan.games == 2 and scan.openings > 0 and scan.guesses > 0

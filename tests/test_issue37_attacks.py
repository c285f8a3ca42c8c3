"""Issue 37: the last ways around the dice and the fog in referee mode, each played as the cheat would play it.

1. a Japanese set-up played as an NMR, rebuilt by the American from public data alone;
2. a peeking referee who induces a re-roll ("pbem stopped on your orders": resend them);
3. a note in American orders that makes the padded size depend on the sealed Japanese content;
4. a lie in the Japanese view about a hidden unit's printed strength;
5. a forged player's reveal that makes the audit blame the honest referee's turn file.
"""

from __future__ import annotations

import json
from pathlib import Path

from pbem.bot.play import bot_orders
from pbem.game.modes.referee.nmr import adjudicate_nmr
from pbem.game.modes.referee.start import start_game
from pbem.game.step import genesis_step
from pbem.loading.turns import load_turn, scenario_of
from pbem.protocol.files import write_new
from pbem.protocol.nmr import bot_seed
from tests.games import run, write_parties
from tests.setup_observer import DUMMY, Tally, _label, public_of, truth_of


# -- 1. a Japanese set-up by NMR: no more public than the counts ----------------------------------------------------

def _american_rebuild(genesis, salt: bytes) -> dict:
    """What the American computes with the genesis file and the public NMR record only, no key: the Japanese view of
    turn file 0 (it follows from the public scenario) and the bot's set-up drawn from the public salt."""
    loaded = scenario_of(genesis)
    opening = genesis_step(loaded, genesis.public["scenario_document"], game=genesis.game,
                           scenario_ref={"id": genesis.scenario_id, "hash": genesis.scenario_hash}, ruleset=genesis.ruleset,
                           overrides=genesis.public.get("overrides"), options=genesis.public.get("options"))
    orders = bot_orders(opening.views["JP"], loaded, "greedy", bot_seed(salt))
    return orders["deployment"]


def test_a_japanese_set_up_played_by_nmr_tells_the_american_no_more_than_the_counts(tmp_path):
    """Issue 37 item 1 (19B.1, the secret set-up): the referee plays the Japanese set-up as an NMR; the American rebuilds
    it from the genesis file and the public NMR record, as the bot would draw it from a seed he can compute, and labels
    every marker from that rebuild.  He must do no better than a labelling that knows only the counts (z < 3 over the
    games, as tests/setup_observer.py scores the set-up observers).  Before the fix he named every marker."""
    ids = write_parties(tmp_path)
    tally, named, markers = Tally(), 0, 0
    for n, scenario in enumerate(["leyte-assault", "leyte-mountain-barrier", "leyte-final-collapse"] * 2):
        folder = tmp_path / f"game{n}"
        folder.mkdir()
        genesis_file = start_game(scenario, ids["ref"], ids["us"].public, ids["jp"].public, options=["hidden-units"])
        write_new(folder / "turn-0000.pbem", genesis_file.text)
        genesis = load_turn(folder / "turn-0000.pbem")
        played, record = adjudicate_nmr(genesis, ids["ref"], "JP")
        public = public_of(scenario_of(genesis), played.step.views["US"])
        truth = truth_of(played.step, public.markers)
        rebuilt = _american_rebuild(genesis, record.salt)
        under = {where: unit for unit, where in rebuilt["units"].items()}
        guess = _label(public, lambda label, marker: 1.0 if under.get(marker, DUMMY) == label else 0.0)
        tally.add(guess, truth, public.dummies)
        named += sum(guess[m] == truth[m] != DUMMY for m in truth)
        markers += len(truth)
    assert markers > 20
    assert tally.z(0) < 3 and tally.z(1) < 3, (
        f"the American rebuilt the NMR set-up from public data: {named} hidden units named among {markers} markers, "
        f"accuracy {tally.accuracy(1)}")

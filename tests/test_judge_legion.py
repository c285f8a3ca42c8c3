"""The judge referees a Legion game by mail (issue 39): real mail servers, as tests/test_judge.py.

A test-island game started by ``pbem judge new``; the U.S. player's orders
for the first player-turn are written by ``pbem bot``, signed by ``pbem
submit`` and mailed; the judge's poll adjudicates them with the Legion rules
(the Legion combat on the committed dice) and mails turn file 1 to both
players, telling the player-turn in the Legion system's words (``tell_last``),
and their ``pbem verify`` accepts the game.  A rule broken in a mailed
orders file goes back to its writer with the Legion rule case.
"""

from __future__ import annotations

import json

from tests.games import pbem
from tests.test_judge import _poll, judge_env, make_judge, servers, start_game  # noqa: F401 (fixtures)


def test_the_judge_adjudicates_a_legion_player_turn_from_a_mailed_orders_file(tmp_path, servers):  # noqa: F811
    home, players, _ = make_judge(tmp_path, servers, inbound="maildir")
    start_game(home, players, "legion-test-island")
    _poll(home)
    for p in players.values():
        p.collect()
    us = players["US"]
    assert json.loads(pbem("judge", "list", home, "--json"))["games"][0]["awaiting"] == "US"
    # Orders breaking a Legion rule, signed directly (pbem submit would refuse them): back to the writer, 6A.2 named.
    turn = us.game / "turn-0000.pbem"
    from pbem.game.receipts import submit_orders
    from pbem.loading.turns import load_turn
    from pbem.protocol.keys import read_private

    bad = {"reserves": [], "moves": [{"units": ["us-1-2"], "path": ["0303", "0403"]}], "attacks": []}
    submit_orders(load_turn(turn), read_private(us.key, None), "US", bad)
    sent = us.game / "orders-0000-US.pbem"
    us.send("orders", "attached", [(sent.name, sent.read_text())])
    _poll(home)
    problems = [m for m in us.collect() if "rule problems" in str(m["Subject"])]
    assert len(problems) == 1 and "6A.2" in problems[0].get_body().get_content()
    assert players["JP"].collect() == [] and not list((home / "games").glob("*/turn-0001.pbem"))
    # The bot's orders, submitted as a new revision and mailed: adjudicated, turn file 1 to both players.
    orders = tmp_path / "orders.json"
    pbem("bot", turn, "--key", us.key, "-o", orders)
    pbem("submit", orders, "--turn", turn, "--key", us.key, "--replace")
    again = us.game / "orders-0000-US-r2.pbem"
    us.send("orders again", "attached", [(again.name, again.read_text())])
    _poll(home)
    for p in players.values():
        mail = next(m for m in p.collect() if "turn file 1" in str(m["Subject"])).get_body().get_content()
        assert (p.game / "turn-0001.pbem").exists()
        # the mail tells the player-turn in the Legion system's words: the assault on Garapan with its odds, die and result
        assert "us-1-2 moved 0203 -> 0303" in mail and "combat 1: assault on 0403 at" in mail and ", die " in mail
        assert "(None)" not in mail
    view = json.loads(pbem("view", players["JP"].game / "turn-0001.pbem", "--key", players["JP"].key, "--json"))
    assert view["last"]["side"] == "US" and view["last"]["valid"] and view["ruleset"] == {"system": "legion-2010"}
    assert any(e["type"] == "moved" for e in view["last"]["events"])
    pbem("verify", players["JP"].game)

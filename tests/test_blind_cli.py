"""Hidden units with no referee, played through the command line and the real files (issue 24).

Two folders, one per player, exchange only what a mail would carry: the .pub
identities and the ``blind-NNNN-SIDE.pbem`` files.  Each step is the one
``pbem status`` names (its command run as printed, the file it names mailed to
the player it names).  At the end the Japanese player publishes his secret,
and the American player verifies and audits the whole game from his folder,
with no key.  Then two cheats played through the files: an opening that does
not match its commitment (caught at once, naming the Japanese player) and a
withheld secret (a finding at the end).
"""

from __future__ import annotations

import json
import re
import shlex

from tests.blind_games import SCENARIO, Player, begin, play_to_the_end, play_until, resign, step
from tests.games import pbem


def test_a_game_with_hidden_units_and_no_referee_is_played_verified_and_audited_through_the_files(tmp_path):
    players = begin(tmp_path)
    jp, us = players["JP"], players["US"]
    secret = json.loads((jp.game / "blind-private-JP.json").read_text())["secret"]
    assert "blind next" in us.status() and "wait for blind-0001-US.pbem" in jp.status()
    written = play_to_the_end(players)
    assert written >= 10  # the set-up and every player-turn of the scenario
    # The secret never left the Japanese folder before he published it: no file the American player holds says it.
    assert not (us.game / "blind-private-JP.json").exists()
    for path in us.game.iterdir():
        assert secret not in path.read_text(), path
    # The game is over; until the secret comes, the American player's verify and status show it withheld.
    said = pbem("verify", us.game, code=1)
    assert "JP withheld his secret at the end of the game" in said
    assert "wait for blind-secret-JP.pbem" in us.status(code=1)
    assert "AUDIT FAILED" in pbem("audit", us.game, code=1)
    advice = jp.status(code=1)
    command = re.search(r"(pbem blind publish-secret [^;]+);", advice).group(1)
    pbem(*shlex.split(command)[1:])
    jp.mail("blind-secret-JP.pbem", us)
    said = pbem("verify", us.game)
    assert "verified" in said and "hidden units" in said
    said = pbem("audit", us.game)
    assert re.search(r"audited \d+ step\(s\) with full information", said)
    assert "game is over and the secret published" in us.status()


def test_an_opening_that_does_not_match_its_commitment_is_caught_at_once_naming_the_japanese_player(tmp_path):
    from pbem.protocol import blindfile
    from pbem.protocol.canonical import b64d, b64e

    players = begin(tmp_path)
    jp, us = players["JP"], players["US"]
    while True:  # play until the Japanese player publishes a step that opens a marker
        name = step(players)
        assert name is not None, "no step opened a marker"
        if name.endswith("-JP.pbem"):
            pub = blindfile.read((jp.game / name).read_text(), name).body["publication"]
            if pub["before"] or pub["after"]:
                break
    which = "before" if pub["before"] else "after"

    def lie(body):  # the leaf's salt altered: what he opens is not what he committed
        opening = body["publication"][which][0]
        salt = b64d(opening["salt"])
        opening["salt"] = b64e(bytes([salt[0] ^ 1]) + salt[1:])

    resign(us.game / name, jp.key, lie)
    said = pbem("blind", "next", us.game, "--key", us.key, code=1)
    assert "do not play on" in said and "JP opened the marker" in said and "does not match" in said
    assert "caught at once" in said
    said = pbem("verify", us.game, code=1)
    assert re.search(r"NOT VERIFIED: step \d+: JP opened the marker in \S+ with a leaf that does not match", said)
    assert "do not play on" in us.status(code=1)


def test_a_withheld_secret_is_a_finding_at_the_end_naming_the_japanese_player(tmp_path):
    players = begin(tmp_path)
    us = players["US"]
    play_to_the_end(players)
    said = pbem("verify", us.game, "--json", code=1)
    found = json.loads(said)["findings"]
    assert [(f["cheater"], f["when"]) for f in found] == [("JP", "at the end")]
    assert "withheld his secret" in found[0]["problem"]
    said = us.status(code=1)
    assert "FINDING" in said and "withheld his secret" in said and "a forfeit in a tournament" in said


def test_the_demo_plays_a_game_with_hidden_units_and_no_referee_and_ends_verified_and_audited(tmp_path):
    said = pbem("demo", "--scenario", SCENARIO, "--no-referee", "--option", "hidden-units", "--dir", tmp_path / "d")
    assert "verified:" in said and "audited with the Japanese player's published secret" in said
    assert not (tmp_path / "d" / "US" / "blind-private-JP.json").exists()
    pbem("verify", tmp_path / "d" / "US")
    pbem("audit", tmp_path / "d" / "US")


def test_a_demo_without_a_referee_or_hidden_units_is_a_two_player_game(tmp_path):
    """Without hidden units, --no-referee is two-player mode (tests/test_bot_cli.py plays it in full)."""
    said = pbem("demo", "--scenario", SCENARIO, "--no-referee", "--dir", tmp_path / "d")
    assert "two players and no referee" in said and "from the turn files alone" in said
    assert not (tmp_path / "d" / "ref.key").exists() and not (tmp_path / "d" / "JP").exists()


def test_a_set_up_against_the_rules_is_refused_before_it_is_committed(tmp_path):
    """19B.2 / 5.31: two units in one hex; the honest Japanese player is told before his genesis commits it."""
    from pbem.bot.play import bot_orders
    from pbem.loading.datafiles import load_scenario
    from pbem.game.step import genesis_step

    loaded = load_scenario(SCENARIO)
    step = genesis_step(loaded, {}, game="0" * 32, scenario_ref={"id": SCENARIO, "hash": "-"},
                        ruleset=loaded.scenario.ruleset.model_dump(mode="json"), options=["hidden-units"])
    setup = bot_orders(step.views["JP"], loaded, "greedy", 0)
    units = setup["deployment"]["units"]
    first, second = list(units)[:2]
    units[second] = units[first]
    (tmp_path / "setup.json").write_text(json.dumps(setup))
    players = {side: Player(tmp_path, side) for side in ("US", "JP")}
    said = pbem("new", SCENARIO, "--us", players["US"].pub, "--jp", players["JP"].pub, "--key", players["JP"].key,
                "--out", players["JP"].game, "--no-referee", "--option", "hidden-units", "--setup", tmp_path / "setup.json", code=2)
    assert "breaks rule 5.31" in said and second in said
    assert not players["JP"].game.exists()


def test_a_wrong_roll_is_caught_at_once_naming_the_japanese_player(tmp_path):
    players = begin(tmp_path)
    jp, us = players["JP"], players["US"]
    name, _ = play_until(players, lambda b: b.get("from") == "JP" and (b.get("publication") or {}).get("rolls"))

    def lie(body):
        roll = body["publication"]["rolls"][0]
        roll["value"] = roll["value"] % 6 + 1

    resign(us.game / name, jp.key, lie)
    said = pbem("blind", "next", us.game, "--key", us.key, code=1)
    assert "do not play on" in said and "JP recorded rolls that the committed seed and the salt do not give" in said


def test_an_american_seed_other_than_committed_is_caught_by_the_japanese_player_naming_him(tmp_path):
    from pbem.protocol.canonical import b64e

    players = begin(tmp_path)
    jp, us = players["JP"], players["US"]
    name, _ = play_until(players, lambda b: b.get("from") == "US" and b.get("seed") and b["n"] > 1)
    resign(jp.game / name, us.key, lambda body: body.update(seed=b64e(bytes(32))))
    said = pbem("blind", "next", jp.game, "--key", jp.key, "--bot", "greedy", code=1)
    assert "do not play on" in said and "US revealed a seed that is not the one his acknowledgement committed" in said
    assert "US revealed a seed" in pbem("verify", jp.game, code=1)


def test_the_secret_is_not_published_during_the_game(tmp_path):
    """It opens every marker: ``publish-secret`` refuses before the end, and only the Japanese player may run it."""
    players = begin(tmp_path)
    for _ in range(3):
        step(players)
    said = pbem("blind", "publish-secret", players["JP"].game, "--key", players["JP"].key, code=2)
    assert "the game is not over" in said
    said = pbem("blind", "publish-secret", players["US"].game, "--key", players["US"].key, code=2)
    assert "only the Japanese player" in said
    assert not (players["JP"].game / "blind-secret-JP.pbem").exists()

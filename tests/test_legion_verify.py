"""``pbem verify`` checks a Legion game's public combat records against the charts its genesis carries (issue 39).

Played as the cheat plays it: a referee (or, in a two-player game, the player who adjudicates) who alters a
recorded combat result and signs the file again with his own key, against the victim's unmodified ``pbem verify``,
which must exit 1 naming the turn file, the combat and the rule case.  Honest games — the two demo games of the test
island, and random positions of every kind of combat (Fire, Assault, Overrun, Retreat Before Combat, Banzai) —
pass.  And ``pbem status`` names a Legion game's rules by its system, where an SPI game names its edition.
"""

from __future__ import annotations

import copy
import random
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from pbem.engine.dice import FixedDice
from pbem.systems.legion.adjudicator import adjudicate
from pbem.systems.legion.records import combat_problems
from tests.games import run
from tests.legion_positions import orders, position

ISLAND = "legion-test-island"


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    """The test island played once with a referee and once by two players (a few seconds each)."""
    from pbem.bot.demo import run_demo

    base = tmp_path_factory.mktemp("legion-verify")
    return {"referee": run_demo(ISLAND, base / "referee", seed=1), "two-player": run_demo(ISLAND, base / "two", seed=1, referee=False)}


def _turns(game: Path):
    from pbem.loading.turns import open_turn

    return [open_turn(p).turn for p in sorted(game.glob("turn-*.pbem"))]


def _first_assault(game: Path, drm: str | None = None):
    """The first turn file whose public record shows an Assault Combat read on the table (a die rolled; with ``drm``,
    that DRM among its own)."""
    for turn in _turns(game):
        combats = ((turn.public or {}).get("last") or {}).get("combats") or []
        for combat in combats:
            if combat.get("type") == "assault" and combat.get("die") is not None and (drm is None or drm in combat["drms"]):
                return turn, combat
    raise AssertionError("the demo game rolled no Assault Combat")


def _cheat(game: Path, folder: Path, signer, mutate, turn=None) -> Path:
    """The game up to ``turn`` (default: the first turn file with an Assault), that file's body changed by ``mutate``
    and signed again by ``signer`` (what the writer of the file can do with his key), as the victim receives it."""
    from pbem.protocol import parts, signing
    from pbem.protocol.armour import armour
    from pbem.protocol.turnfile import SIGN_CONTEXT, parse_turn, signed_turn

    turn = turn or _first_assault(game)[0]
    shutil.copytree(game, folder)
    for later in folder.iterdir():  # the victim has not answered the forged file yet: no orders, no receipt for it
        if later.name.startswith("turn-") and int(later.name[5:9]) > turn.seq:
            later.unlink()
        elif later.name.startswith("orders-") and int(later.name[7:11]) >= turn.seq:
            later.unlink()
    path = folder / Path(turn.source).name
    original = parse_turn(path.read_text(), str(path))
    body = copy.deepcopy(original.body)
    mutate(body)
    if body.get("mode") == "two-player":
        path.write_text(signed_turn(signer, body, []).text)
    else:
        envelope = signing.sign(signer, body, SIGN_CONTEXT)
        payload = parts.join(envelope, [original.views["US"], original.views["JP"], original.referee_state])
        path.write_text(armour("TURN", payload, {"Game": body["game"], "Sequence": str(body["seq"])}))
    return path


def _key(result, role: str):
    from pbem.protocol.keys import read_private

    return read_private(result.folder / f"{ {'referee': 'ref', 'US': 'us', 'JP': 'jp'}[role] }.key", None)


def _other_result(body: dict) -> str:
    """Another entry of the same column of the Assault Combat Results Table than the one recorded."""
    from pbem.systems.legion.files import load_scenario

    charts = load_scenario(ISLAND).charts
    combat = next(c for c in body["public"]["last"]["combats"] if c.get("type") == "assault" and c.get("die") is not None)
    column = charts.assault.columns.index(combat["column"])
    return next(r.results[column] for r in charts.assault.rows if r.results[column] != combat["result"])


def test_honest_legion_games_pass_the_chart_check_in_both_modes(games):
    from pbem.game.checks import verify_game
    from pbem.game.record_checks import combat_table_problems
    from pbem.loading.turns import scenario_document_of

    for mode, result in games.items():
        assert not verify_game(result.game, {result.game}).findings, mode
        turns = _turns(result.game)
        carried = scenario_document_of(turns[0])[0]
        checked = [c for t in turns for c in ((t.public.get("last") or {}).get("combats") or [])]
        assert checked, f"the {mode} game had no combat to check"
        for turn in turns:
            assert combat_table_problems(turn.public, turn.dice.rolls, turn.ruleset, turn.source, carried) == [], turn.source


def test_a_referee_who_changes_an_assault_result_and_signs_again_fails_verify(games, tmp_path):
    result = games["referee"]

    def falsify(body):
        combat = next(c for c in body["public"]["last"]["combats"] if c.get("type") == "assault" and c.get("die") is not None)
        combat["result"] = _other_result(body)

    path = _cheat(result.game, tmp_path / "game", _key(result, "referee"), falsify)
    status, out, err = run("verify", tmp_path / "game")
    assert status == 1 and "Traceback" not in err, out + err
    assert out.startswith(f"NOT VERIFIED: first bad file {path}") and len(out.strip().splitlines()) == 2  # that finding alone
    assert "combat 1 (Assault Combat against" in out
    assert "Assault Combat Results Table (9A.2, 9D.1)" in out and "but the record shows" in out
    status, out, _ = run("verify", result.game)  # the honest game still verifies
    assert status == 0 and out.startswith("verified")


def test_a_referee_who_drops_the_terrain_drm_and_rereads_the_table_fails_verify_naming_9c(games, tmp_path):
    """A consistent lie — DRM, modified roll and result all as the table gives them without the terrain — is caught by
    the map the genesis carries: the hex attacked gives its Terrain Effects Chart DRM (9C)."""
    from pbem.systems.legion.files import load_scenario

    result = games["referee"]
    loaded = load_scenario(ISLAND)
    turn, combat = _first_assault(result.game, "terrain (9C)")  # the town the Japanese hold (0403) has one

    def falsify(body):
        c = next(c for c in body["public"]["last"]["combats"] if c.get("index") == combat["index"])
        del c["drms"]["terrain (9C)"]
        c["drm"] = max(sum(c["drms"].values()), loaded.charts.terrain.max_negative_drm)
        c["modified"] = c["die"] + c["drm"]
        row = loaded.charts.lookup(c["modified"], loaded.charts.assault)
        c["result"] = row.results[loaded.charts.assault.columns.index(c["column"])]

    path = _cheat(result.game, tmp_path / "game", _key(result, "referee"), falsify, turn)
    status, out, err = run("verify", tmp_path / "game")
    assert status == 1, out + err
    assert path.name in out and "terrain (9C) +0" in out and "Terrain Effects Chart (9C)" in out


def test_the_player_who_adjudicates_a_two_player_game_cannot_change_a_result_either(games, tmp_path):
    result = games["two-player"]
    turn, _ = _first_assault(result.game)

    def falsify(body):
        combat = next(c for c in body["public"]["last"]["combats"] if c.get("type") == "assault" and c.get("die") is not None)
        combat["result"] = _other_result(body)

    path = _cheat(result.game, tmp_path / "game", _key(result, turn.writer), falsify)
    status, out, err = run("verify", tmp_path / "game")
    assert status == 1 and "Traceback" not in err, out + err
    assert path.name in out and "Assault Combat Results Table (9A.2, 9D.1)" in out


def test_status_names_a_legion_games_rules_by_its_system_and_an_spi_games_by_its_edition(games, tmp_path):
    for result in games.values():
        status, out, err = run("status", result.game, "--key", result.keys["US"])
        assert status == 0, err
        first = out.splitlines()[0]
        assert "(legion-2010)" in first and "None" not in out
    for name in ("us", "jp", "ref"):
        run("keygen", name, "--dir", tmp_path, "--no-passphrase")
    keys = ("--us", tmp_path / "us.pub", "--jp", tmp_path / "jp.pub", "--referee", tmp_path / "ref.pub", "--key", tmp_path / "ref.key")
    for edition, shown in ((None, "dg-2009"), ("spi-1975", "spi-1975")):
        game = tmp_path / f"spi-{shown}"
        assert run("new", "test-skirmish", *keys, "--out", game, *(("--edition", edition) if edition else ()))[0] == 0
        status, out, _ = run("status", game)
        assert status == 0 and f"(test scenario) ({shown}), referee" in out.splitlines()[0]


# ---------------------------------------------------------------- every kind of combat, from random positions

SOME = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: One field of a combat record changed as a cheat would (each to a value the table or the map does not give).
TAMPERS = {
    "assault": [("result", lambda c: "DE/-" if c["result"] != "DE/-" else "AE/-"), ("drm", lambda c: c["drm"] + 1),
                ("odds", lambda c: "9:1" if c["odds"] != "9:1" else "1:4")],
    "fire": [("inflicted", lambda c: c["inflicted"] + 1), ("drm", lambda c: c["drm"] - 1), ("return_drm", lambda c: c["return_drm"] + 1)],
    "overrun": [("result", lambda c: "failed" if c["result"] == "success" else "success")],
}


def _played(seed: int):
    rng = random.Random(seed)
    board, state = position(rng)
    planned = orders(rng, board, state)
    dice = FixedDice([rng.randint(1, 6) for _ in range(80)])
    result = adjudicate(board, state, planned, dice)
    rolls = [{"n": i, "purpose": purpose, "value": value} for i, (purpose, value) in enumerate(dice.rolls, 1)]
    return board, result, rolls


@SOME
@given(st.integers(min_value=0, max_value=10**9))
def test_every_honest_combat_record_passes_and_each_altered_field_is_caught(seed):
    board, result, rolls = _played(seed)
    public = {"last": {"valid": result.valid, "combats": list(result.combats)}}
    assert combat_problems(public, rolls, board) == [], seed
    for n, combat in enumerate(result.combats):
        kind = "assault" if combat["type"] in ("assault", "overrun-assault") and combat.get("die") is not None else combat["type"]
        if combat.get("status") not in (None, "resolved") or combat.get("rule") == "9G":
            continue
        for key, change in TAMPERS.get(kind, []):
            forged = copy.deepcopy(public)
            forged["last"]["combats"][n][key] = change(combat)
            assert combat_problems(forged, rolls, board), (seed, combat, key)


def test_rolls_that_contradict_their_combat_are_caught_retreat_before_combat_and_banzai_included():
    """9J: a failed Retreat Before Combat is the +1 of its combat; 19A: a Banzai roll belongs to a Banzai Assault."""
    found = {"rbc": False, "banzai": False}
    for seed in range(3000):
        board, result, rolls = _played(seed)
        public = {"last": {"valid": True, "combats": list(result.combats)}}
        for n, combat in enumerate(result.combats):
            failed = "failed Retreat Before Combat (9J)" in (combat.get("drms") or {})
            if failed and not found["rbc"]:
                forged = copy.deepcopy(public)
                del forged["last"]["combats"][n]["drms"]["failed Retreat Before Combat (9J)"]
                assert any("(9J)" in p for p in combat_problems(forged, rolls, board))
                found["rbc"] = True
            if combat.get("banzai") and combat.get("status") == "resolved" and not found["banzai"]:
                forged = copy.deepcopy(public)
                forged["last"]["combats"][n]["banzai"] = False
                assert any("(19A)" in p for p in combat_problems(forged, rolls, board))
                found["banzai"] = True
        if all(found.values()):
            return
    raise AssertionError(f"no random position gave {found}")


def test_a_roll_no_legion_rule_makes_is_named():
    board, result, rolls = _played(next(s for s in range(500) if _played(s)[1].combats))
    public = {"last": {"valid": True, "combats": list(result.combats)}}
    extra = rolls + [{"n": len(rolls) + 1, "purpose": "Bombardment of 0304 (11B)", "value": 3}]
    assert any("is none the Legion rules make" in p for p in combat_problems(public, extra, board))


def test_without_the_genesis_only_the_rolls_purposes_are_checked_and_unreadable_charts_are_named():
    """``pbem verify`` of turn files without their genesis hands no scenario; a genesis whose scenario holds no map or
    charts in it (not the document pbem carries) is named, not a traceback."""
    from pbem.systems.legion.records import record_problems

    board, result, rolls = next(p for p in map(_played, range(500)) if p[1].combats and p[2])
    public = {"last": {"valid": True, "combats": list(result.combats)}}
    forged = copy.deepcopy(public)
    forged["last"]["combats"][0]["result"] = "no such result"
    assert record_problems(forged, rolls, None) == []
    said = record_problems(public, rolls, {"map": "map-test-island.json", "charts": {}})
    assert len(said) == 1 and "the charts the genesis carries cannot be read" in said[0]
    assert record_problems({"last": {"valid": True, "combats": []}}, [], {"map": "x"}) == []  # nothing to read them for

"""``pbem audit DIR...`` and ``pbem dice DIR...`` over a whole event of bot games.

The event: two dozen games played by the bots through the real files — the
test board and Leyte, with a referee (with and without hidden units) and
without one (``--no-referee``) — and four planted among them: a referee who
read the Combat Results Table wrongly once and signed it (caught by the
replay), a referee's reveal that leaves out one turn file's openings, a game
whose reveal was never given, and a game with a turn file damaged in transit.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.event_games import REVEAL, combat_turns, omit_turn, play_game
from tests.games import run

GOOD = (
    [("test-skirmish", True, False)] * 3 + [("test-skirmish", True, True)] * 3 + [("test-skirmish", False, False)] * 3
    + [("leyte-assault", True, True), ("leyte-assault", False, False)]
)
TAMPERED, OMITTED, NO_REVEAL, DAMAGED = "g-tampered", "g-omitted", "g-no-reveal", "g-damaged"


@pytest.fixture(scope="module")
def event(tmp_path_factory):
    base = tmp_path_factory.mktemp("event")
    root, reveals = base / "event", base / "reveals"
    reveals.mkdir()
    good = []
    for i, (scenario, referee, hidden) in enumerate(GOOD):
        good.append(play_game(root / f"g{i:02d}", scenario, referee=referee, hidden=hidden, seed=i))
    # A few reveals are handed over apart from their games, under names that say nothing: matched by game id.
    for n, folder in enumerate(g for g in good if (g / REVEAL).exists()):
        if n % 4 == 0:
            shutil.move(folder / REVEAL, reveals / f"{99 - n}.pbem")
    tampered = play_game(root / TAMPERED, "test-skirmish", seed=0, tamper_at=1)
    omitted = play_game(root / OMITTED, "test-skirmish", seed=1)
    omitted_seq = combat_turns(omitted)[1]
    omit_turn(omitted / REVEAL, omitted_seq)
    missing = play_game(root / NO_REVEAL, "test-skirmish", seed=2)
    shutil.move(missing / REVEAL, base / "withheld.pbem")
    damaged = play_game(root / DAMAGED, "test-skirmish", seed=3, referee=False)
    text = (damaged / "turn-0002.pbem").read_text()
    (damaged / "turn-0002.pbem").unlink()
    (damaged / "turn-0002.pbem").write_text(text[: len(text) // 2])  # cut off in transit
    stray = play_game(base / "elsewhere", "test-skirmish", seed=4)  # a reveal of a game not in the event
    return {"root": root, "reveals": sorted(reveals.iterdir()), "good": good, "tampered": tampered, "omitted": omitted,
            "omitted_seq": omitted_seq, "missing": missing, "damaged": damaged, "stray": stray / REVEAL, "base": base}


def _audit_json(*args) -> tuple[int, dict]:
    code, out, err = run("audit", *args, "--json")
    assert not err, err
    return code, json.loads(out)


def _by_folder(report: dict) -> dict[str, dict]:
    return {Path(g["folder"]).name: g for g in report["games"]}


def test_every_game_gets_its_verdict_and_an_unreadable_one_makes_the_exit_status_2(event):
    reveal_args = [a for r in [*event["reveals"], event["stray"]] for a in ("--reveal", r)]
    code, report = _audit_json(event["root"], *reveal_args)
    assert code == 2 and report["exit_status"] == 2 and not report["ok"]
    games = _by_folder(report)
    assert len(games) == len(GOOD) + 4
    for folder in event["good"]:
        game = games[folder.name]
        assert game["verdict"] == "holds", game
        assert game["adjudications_replayed"] > 0 and not game["findings"]
    modes = {(g["mode"], g["views_checked"] > 0) for g in games.values() if g["verdict"] == "holds"}
    assert {("referee", True), ("two-player", False)} <= modes
    # The referee who misread the table: the replay with the true table names the turn file and says why.
    bad = games[TAMPERED]
    assert bad["verdict"] == "failed"
    assert any(Path(f["file"]).name == "turn-0001.pbem" and "public record is not what the replay gives" in f["problem"]
               for f in bad["findings"])
    assert report["findings_by_referee"][bad["referee"]] == len(bad["findings"])
    # A game whose reveal was never given is not audited, and never passed.
    assert games[NO_REVEAL]["verdict"] == "not audited" and "no reveal file" in games[NO_REVEAL]["reason"]
    # The reveal that leaves a turn file out: the adjudication after it cannot be replayed, so the game does not hold.
    omitted = games[OMITTED]
    assert omitted["verdict"] == "failed"  # a referee's reveal that omits a turn fails (issue 19 item 3)
    assert str(event["omitted_seq"] + 1) in omitted["reason"] or omitted["findings"]
    # The damaged turn file: the game is unreadable, the file named.
    damaged = games[DAMAGED]
    assert damaged["verdict"] == "unreadable" and "turn-0002.pbem" in damaged["findings"][0]["problem"]
    assert set(report["not_holding"]) == {str(event["root"] / n) for n in (TAMPERED, OMITTED, NO_REVEAL, DAMAGED)}
    # The stray reveal matches no game of the event: said, not fatal.
    assert any(str(event["stray"]) in note and "not among the games given" in note for note in report["notes"])
    totals = report["totals"]
    assert totals["games"] == len(GOOD) + 4 and totals["holds"] == len(GOOD) and totals["failed"] == 2
    assert totals["not_audited"] == 1 and totals["unreadable"] == 1
    assert totals["adjudications_replayed"] == sum(g["adjudications_replayed"] for g in games.values())
    assert totals["rolls"] == sum(g["rolls"] for g in games.values()) == report["dice"]["rolls"]


def test_exit_1_names_each_game_that_does_not_hold(event):
    folders = [*event["good"], event["tampered"], event["omitted"], event["missing"]]
    code, out, err = run("audit", *folders, *[a for r in event["reveals"] for a in ("--reveal", r)])
    assert code == 1, out + err
    lines = out.splitlines()
    for folder in event["good"]:
        assert any(line.split()[:2] == ["HOLDS", str(folder)] for line in lines), folder
    assert any(line.split()[:2] == ["FAILED", str(event["tampered"])] for line in lines)
    assert any(line.split()[:3] == ["NOT", "AUDITED", str(event["missing"])] for line in lines)
    last = lines[-1]
    assert last.startswith("3 game(s) do not hold:")
    for folder in (event["tampered"], event["omitted"], event["missing"]):
        assert str(folder) in last


def test_exit_0_only_when_every_game_holds(event):
    reveal_args = [a for r in event["reveals"] for a in ("--reveal", r)]
    code, out, err = run("audit", *event["good"], *reveal_args)
    assert code == 0, out + err
    assert out.splitlines()[-1] == "every game holds"
    assert f"totals: {len(GOOD)} game(s): {len(GOOD)} hold, 0 failed, 0 not audited, 0 stalled, 0 unreadable" in out
    # The withheld reveal, given back, makes that game hold too: it is matched by the game id inside it.
    code, _, _ = run("audit", event["missing"], "--reveal", event["base"] / "withheld.pbem", "--json")
    assert code == 0


def test_a_folder_of_game_folders_finds_the_reveals_in_them_and_a_path_with_no_game_is_unreadable(event, tmp_path):
    code, report = _audit_json(event["root"], tmp_path)
    assert code == 2
    assert [u["file"] for u in report["unreadable"]] == [str(tmp_path)]
    games = _by_folder(report)
    moved = {g.name for g in event["good"] if not (g / REVEAL).exists() and _by_folder(report)[g.name]["mode"] == "referee"}
    assert moved and all(games[name]["verdict"] == "not audited" for name in moved)
    code, out, err = run("audit", event["root"], tmp_path / "nowhere", "--reveal", tmp_path / "empty.pbem")
    assert code == 2 and "does not exist" in out and "empty.pbem" in out and not err


def test_the_event_audit_takes_no_key(event):
    code, _, err = run("audit", *event["good"][:2], "--key", event["base"] / "ref.key")
    assert code == 2 and "takes reveal files, not a key" in err


def test_the_single_game_forms_print_as_before(event):
    folder = next(g for g, spec in zip(event["good"], GOOD) if (g / REVEAL).exists() and spec == ("test-skirmish", True, False))
    code, out, _ = run("audit", folder, "--reveal", folder / REVEAL)
    assert code == 0
    assert out.startswith("audited 8 adjudication(s): every public record and roll is what the engine gives; ")
    assert out.count("\n") == 1
    two_player = next(g for g, spec in zip(event["good"], GOOD) if not spec[1])
    code, out, _ = run("audit", two_player)
    assert code == 0 and out.startswith("audited 8 adjudication(s) from the files alone")
    code, out, _ = run("dice", folder, "--json")
    assert code == 0 and set(json.loads(out)) == {"rolls", "counts", "chi_square", "degrees_of_freedom", "p_value"}
    code, out, _ = run("audit", event["tampered"], "--reveal", event["tampered"] / REVEAL)
    assert code == 1 and out.startswith(f"AUDIT FAILED: first bad file {event['tampered'] / 'turn-0001.pbem'}")


def test_the_event_dice_pool_every_verified_roll_with_a_test_valid_for_each_sample(event):
    singles = [json.loads(run("dice", g, "--json")[1]) for g in event["good"]]
    code, out, err = run("dice", *event["good"], "--json")
    assert code == 0, err
    dice = json.loads(out)["dice"]
    assert dice["rolls"] == sum(len(s["rolls"]) for s in singles)
    assert dice["counts"] == {f: sum(s["counts"][f] for s in singles) for f in "123456"}
    assert dice["correction"] == "Holm"
    groups = {s["group"] for s in dice["samples"]}
    assert groups == {"all", "purpose", "referee", "position"}
    purposes = {s["sample"] for s in dice["samples"] if s["group"] == "purpose"}
    assert {"purpose: combat", "purpose: set-up"} <= purposes  # the hidden-unit games roll for intelligence after the set-up
    # By who signed the rolls: each referee game's referee, and in a two-player game each player who adjudicated a combat.
    referees = [s for s in dice["samples"] if s["group"] == "referee"]
    assert len(GOOD) <= len(referees) <= len(GOOD) + sum(1 for spec in GOOD if not spec[1])
    assert sum(s["rolls"] for s in referees) == dice["rolls"]
    first, later = (s for s in dice["samples"] if s["group"] == "position")
    assert first["rolls"] + later["rolls"] == dice["rolls"]
    tests = dice["tests"]
    assert len(tests) == sum(1 for s in dice["samples"] if s["rolls"])
    for t in tests:
        assert t["test"] == ("chi-square" if t["rolls"] >= 30 else "exact multinomial"), t
        assert t["p_value"] <= t["p_adjusted"] <= 1
    assert {t["test"] for t in tests} == {"chi-square", "exact multinomial"}
    # The damaged game makes the dice of the event unreadable input: exit 2, the rest still counted.
    code, out, _ = run("dice", event["root"])
    assert code == 2 and "UNREADABLE" in out and str(event["damaged"]) in out


def test_the_page_holds_the_games_the_findings_the_histograms_and_the_tests(event, tmp_path):
    page = tmp_path / "event.html"
    reveal_args = [a for r in event["reveals"] for a in ("--reveal", r)]
    code, out, _ = run("audit", event["root"], *reveal_args, "--html", page)
    assert code == 2 and out.splitlines()[-1] == f"wrote {page}"
    html = page.read_text()
    assert html.count('<tr class="game ') == len(GOOD) + 4
    assert html.count('data-verdict="holds"') == len(GOOD)
    assert html.count('data-verdict="failed"') == 2 and html.count('data-verdict="unreadable"') == 1
    assert "turn-0001.pbem" in html and "the public record is not what the replay gives" in html
    assert html.count('<svg xmlns="http://www.w3.org/2000/svg" version="1.1" class="histogram"') >= 6
    assert 'id="tests"' in html and "Holm" in html
    assert "src=" not in html and "<link" not in html and "https://" not in html  # offline: nothing fetched
    # --json and --html together: both written, one run.
    code, out, _ = run("dice", *event["good"][:3], "--html", tmp_path / "dice.html", "--json")
    assert code == 0 and json.loads(out)["command"] == "dice" and (tmp_path / "dice.html").exists()


def test_a_referee_reveal_that_omits_a_turn_fails_the_game(event):
    code, report = _audit_json(event["omitted"])
    assert code == 1
    assert _by_folder(report)[OMITTED]["verdict"] == "failed"


def test_a_referee_reveal_that_omits_the_last_turn_does_not_pass(tmp_path):
    folder = play_game(tmp_path / "g", "test-skirmish", seed=5)
    last = max(int(p.stem.split("-")[1]) for p in folder.glob("turn-*.pbem"))
    omit_turn(folder / REVEAL, last)
    code, report = _audit_json(folder)
    assert code == 1 and report["games"][0]["verdict"] != "holds"


def test_games_examined_side_by_side_give_the_very_report_of_one_process(event):
    one = run("audit", event["root"], "--jobs", "1", "--json")
    two = run("audit", event["root"], "--jobs", "2", "--json")
    assert one == two and one[0] == 2
    assert run("dice", event["root"], "--jobs", "0")[0] == 2


def test_a_reveal_in_the_wrong_folder_audits_its_own_game_not_the_folder_it_lies_in(event, tmp_path):
    honest = next(g for g in event["good"] if (g / REVEAL).exists())
    shutil.copytree(honest, tmp_path / "a")
    shutil.copytree(event["missing"], tmp_path / "b")
    (tmp_path / "a" / REVEAL).rename(tmp_path / "b" / REVEAL)  # a's reveal filed with b
    shutil.copy(tmp_path / "b" / REVEAL, tmp_path / "b" / "copy-of-the-same.pbem")
    code, report = _audit_json(tmp_path)
    games = _by_folder(report)
    assert code == 1 and games["a"]["verdict"] == "holds" and games["b"]["verdict"] == "not audited"
    assert games["a"]["reveals"] == [str(tmp_path / "b" / "copy-of-the-same.pbem")] or games["a"]["reveals"] == [str(tmp_path / "b" / REVEAL)]

"""``pbem play`` in real Chromium (Debian's, as tests/test_render_browser.py): orders made by clicks alone.

Each test starts ``pbem play --no-browser`` as a player would, reads the
address from the first line, and clicks.  The American Game-Turn 1 of
``leyte-assault`` follows the plan the bot writes for that view, but every
move and attack is made on the map (the page never sees the bot's file);
the saved orders must pass ``pbem validate``.  Skipped without Chromium or
Playwright on a developer's machine, never under CI.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.games import run
from tests.play_game import new_game, planner_of
from tests.test_render_browser import CHROMIUM, FLAGS, _playwright

ROOT = Path(__file__).resolve().parent.parent


class Play:
    """A running ``pbem play`` process and its address."""

    def __init__(self, turn: Path, key: Path, *extra: str) -> None:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.process = subprocess.Popen([sys.executable, "-m", "pbem", "play", str(turn), "--key", str(key), "--no-browser", *extra],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        self.url = self.process.stdout.readline().strip()
        assert self.url.startswith("http://127.0.0.1:"), self.process.stderr.read()

    def stop(self) -> tuple[int, str]:
        self.process.send_signal(signal.SIGINT)
        _, err = self.process.communicate(timeout=20)
        return self.process.returncode, err


@pytest.fixture(scope="module")
def browser():
    sync_playwright = _playwright()
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        yield chromium
        chromium.close()


#: Counts the page's requests to its server still being answered, and a moment after each answer (the page chains its
#: next request on the last one's answer, and draws in between): zero once what a click asked is answered and drawn.
IN_FLIGHT = """
window.__pbemInFlight = 0;
const __pbemFetch = window.fetch.bind(window);
window.fetch = (...args) => {
  window.__pbemInFlight += 1;
  const done = () => setTimeout(() => { window.__pbemInFlight -= 1; }, 30);
  const answer = __pbemFetch(...args);
  answer.then(r => r.clone().text()).then(done, done);
  return answer;
};
"""


def _open(browser, url, viewport=(1500, 950)):
    """The play page in a new tab of ``viewport`` (width, height), loaded; the page errors it raises are collected."""
    tab = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
    tab.add_init_script(IN_FLIGHT)
    errors: list[str] = []
    tab.on("pageerror", lambda e: errors.append(str(e)))
    tab.on("dialog", lambda d: d.accept())
    tab.goto(url)
    tab.wait_for_selector("#problems")
    tab.wait_for_load_state("networkidle")
    return tab, errors


@contextlib.contextmanager
def _playing(browser, turn: Path, key: Path, *extra: str):
    """A ``pbem play`` of ``turn`` and a browser tab on its page: ``(tab, errors)``; the server stopped after."""
    play = Play(turn, key, *extra)
    try:
        yield _open(browser, play.url)
    finally:
        play.stop()


def _settle(tab):
    """Until every request the page made is answered and drawn (not Playwright's "networkidle", which waits half a
    second of quiet after each click)."""
    tab.wait_for_function("window.__pbemInFlight === 0")
    tab.wait_for_timeout(50)


def _move_by_clicks(tab, unit: str, to: str, waiting: bool):
    tab.click(f'[data-waiting="{unit}"]' if waiting else f'#map .counter[data-unit="{unit}"]')
    tab.wait_for_selector(f'.hex.reachable[data-hex="{to}"]')
    tab.click(f'#map .hex[data-hex="{to}"]')
    tab.wait_for_selector(f'#moves li[data-move="{unit}"]')
    _settle(tab)


def _attack_by_clicks(tab, index: int, units: list[str], targets: list[str], gsp: int):
    tab.click("#new-attack")
    for u in units:
        tab.click(f'#map .ghost-counter[data-unit="{u}"], #map .counter[data-unit="{u}"]:not(.moved)')
        _settle(tab)
    for d in targets:
        tab.click(f'#map .counter[data-unit="{d}"]')
        _settle(tab)
    for _ in range(gsp):
        tab.click(f'[data-gsp-plus="{index}"]')
        _settle(tab)


def test_the_american_game_turn_1_by_clicks_saves_orders_validate_accepts(browser, tmp_path):
    turn = new_game(tmp_path)
    key = tmp_path / "us.key"
    status, _, err = run("bot", turn, "--key", key, "-o", tmp_path / "plan.json")
    assert status == 0, err
    plan = json.loads((tmp_path / "plan.json").read_text())
    assert len(plan["moves"]) > 10 and plan["attacks"]
    orders = tmp_path / "mine.json"
    play = Play(turn, key, "--orders", str(orders))
    try:
        tab, errors = _open(browser, play.url)
        for move in plan["moves"]:
            end = (move["path"] or [move.get("enter")])[-1]
            _move_by_clicks(tab, move["unit"], end, waiting="enter" in move)
        assert tab.get_attribute(f'#map .hex[data-hex="{end}"]', "class").split().count("reachable") == 0  # the marks go once moved
        tab.reload()  # a reload keeps the orders as they stand
        tab.wait_for_function(f"document.querySelectorAll('#moves li').length === {len(plan['moves'])}")
        tab.click("#mode-attack")
        for i, attack in enumerate(plan["attacks"]):
            _attack_by_clicks(tab, i, attack["attackers"] + attack.get("barrage", []), attack["defenders"], attack.get("gsp", 0))
            assert "Attack " in tab.inner_text(f'.attack[data-attack="{i}"] pre.odds')  # the odds, as --explain gives them
        tab.wait_for_function("document.querySelectorAll('#problems li').length === 0")
        assert "none" in tab.inner_text("#owed").split("must still attack")[1].split("\n")[0]
        tab.click("#save-orders")
        tab.wait_for_function("document.getElementById('status').textContent.startsWith('saved to')")
        idle = sorted(set(planner_of(turn, key).movable()) - {m["unit"] for m in plan["moves"]})
        _screenshot(tab, tmp_path, idle[0])
        assert not errors
    finally:
        code, err = play.stop()
    assert code == 0 and "Traceback" not in err
    saved = json.loads(orders.read_text())
    assert {m["unit"]: (m["path"] or [m.get("enter")])[-1] for m in saved["moves"]} == \
           {m["unit"]: (m["path"] or [m.get("enter")])[-1] for m in plan["moves"]}
    status, out, _ = run("validate", orders, "--turn", turn, "--key", key)
    assert status == 0, out
    # the saved file loads back into a new page
    again = Play(turn, key, "--orders", str(orders))
    try:
        tab, _ = _open(browser, again.url)
        tab.wait_for_function(f"document.querySelectorAll('#moves li').length === {len(plan['moves'])}")
        assert tab.locator(".attack").count() == len(plan["attacks"])
    finally:
        again.stop()


def _screenshot(tab, tmp_path, waiting: str):
    """The page with the attacks weighed and a reinforcement's reach marked: kept for the README when
    PBEM_README_SHOT names a file."""
    tab.click('[data-select-attack="0"]')
    tab.click("#mode-move")
    tab.click(f'[data-waiting="{waiting}"]')
    tab.wait_for_selector(".hex.reachable")
    _settle(tab)
    shot = tmp_path / "play.png"
    tab.screenshot(path=str(shot))
    assert shot.stat().st_size > 20_000
    target = os.environ.get("PBEM_README_SHOT")
    if target:
        shutil.copy(shot, target)


def test_the_japanese_hidden_set_up_by_clicks(browser, tmp_path):
    turn = new_game(tmp_path, options=["hidden-units"])
    key = tmp_path / "jp.key"
    planner = planner_of(turn, key)
    limits = planner.deployment()
    units, hexes = limits["units"], limits["hexes"]
    listed = {u: planner.state.locations[u] for u in units}
    with _playing(browser, turn, key) as (tab, errors):
        assert "dummies placed" in tab.inner_text("#setup-limits")
        # each unit on the hex of the next one: a set-up the scenario does not list
        for i, u in enumerate(units):
            to = listed[units[(i + 1) % len(units)]]
            tab.click(f'[data-setup-unit="{u}"]')
            tab.wait_for_selector(f'.hex.allowed[data-hex="{to}"]')
            tab.click(f'#map .counter[data-hex="{to}"] >> nth=0')
            _settle(tab)
        tab.click("#place-dummies")
        allowed = tab.eval_on_selector_all(".hex.allowed", "els => els.map(e => e.dataset.hex)")
        assert set(allowed) <= set(limits["dummy_hexes"]) and allowed
        dummies = allowed[: min(2, limits["dummies"])]
        for h in dummies:
            tab.click(f'#map .hex[data-hex="{h}"]')
            _settle(tab)
        tab.wait_for_function("document.querySelectorAll('#problems li').length === 0")
        tab.click("#save-orders")
        tab.wait_for_function("document.getElementById('status').textContent.startsWith('saved to')")
        assert not errors
    saved = json.loads((turn.parent / "orders-0000-JP.json").read_text())
    assert saved["deployment"]["units"] == {u: listed[units[(i + 1) % len(units)]] for i, u in enumerate(units)}
    assert saved["deployment"]["dummies"] == dummies
    status, out, _ = run("validate", turn.parent / "orders-0000-JP.json", "--turn", turn, "--key", key)
    assert status == 0, out


def _mistakes(turn: Path, key: Path):
    """Hexes for the three mistakes, found on the player's own view: a reinforcement path that goes on past
    a Japanese zone of control, a landing next to a Japanese unit, and that unit."""
    planner = planner_of(turn, key)
    board, placement = planner.board, planner.placement
    japanese = {placement.where(u): u for u in placement.units_of("JP")}
    zoc = {n for h in japanese for n in board.neighbours(h)}
    empty = {"moves": [], "attacks": []}
    overrun = contact = None
    for unit in planner.movable():
        reach = planner.reach(empty, unit)
        if reach.start is not None:
            continue
        entries = [h for h in reach.cost if reach.came_from[h] is None]
        for e in sorted(entries):
            if e in zoc:
                continue
            for z in board.neighbours(e):
                if z in zoc and z in reach.cost and overrun is None:
                    beyond = [b for b in board.neighbours(z) if board.passable(z, b) and b not in japanese and b != e]
                    if beyond:
                        overrun = (unit, e, z, beyond[0])
        if contact is None and overrun is not None and unit != overrun[0] and not planner.units[unit].is_artillery:
            near = sorted(h for h in reach.cost if h in zoc)
            if near:
                target = next(japanese[n] for n in board.neighbours(near[0]) if n in japanese)
                contact = (unit, near[0], target)
    assert overrun and contact
    return overrun, contact


def test_three_mistakes_made_by_clicking_are_each_shown_with_their_rule_case(browser, tmp_path):
    turn = new_game(tmp_path)
    key = tmp_path / "us.key"
    (unit, e, z, b), (lander, near, target) = _mistakes(turn, key)
    with _playing(browser, turn, key) as (tab, errors):
        # 1. a path laid hex by hex (shift-click) that goes on past a Japanese zone of control (6.0)
        tab.click(f'[data-waiting="{unit}"]')
        tab.wait_for_selector(".hex.reachable")
        assert tab.get_attribute(f'#map .hex[data-hex="{z}"]', "data-mp")  # the MP spent there is marked
        for h in (e, z, b):
            tab.click(f'#map .hex[data-hex="{h}"]', modifiers=["Shift"])
            _settle(tab)
        problem = tab.locator(f'#problems li[data-rule="6.0"][data-names="{unit}"]')
        problem.wait_for()
        assert "rule 6.0" in problem.inner_text() and z in problem.inner_text()
        # 2. a landing next to the enemy with no attack: the owed attack is shown (7.12, 7.11)
        _move_by_clicks(tab, lander, near, waiting=True)
        owed = tab.locator(f'#problems li[data-rule="7.12"][data-names="{lander}"]')
        owed.wait_for()
        assert "must attack" in owed.inner_text()
        assert tab.locator(f'#problems li[data-rule="7.11"][data-names="{target}"]').count() == 1
        assert lander in tab.inner_text("#owed").split("must still attack")[1].split("\n")[0]
        # 3. the attack made, with more Ground Support Points than are left (9.1)
        tab.click("#mode-attack")
        _attack_by_clicks(tab, 0, [lander], [target], 5)
        gsp = tab.locator('#problems li[data-rule="9.1"]')
        gsp.wait_for()
        assert "Ground Support Points" in gsp.inner_text() and "rule 9.1" in gsp.inner_text()
        assert tab.locator('#problems li[data-rule="7.12"]').count() == 0  # the attack owed is made now
        # undo takes the last click back
        tab.click("#undo")
        tab.wait_for_function("document.querySelectorAll('#problems li[data-rule=\"9.1\"]').length === 0")
        assert not errors


def test_the_spi_1975_fpf_choice_and_the_intelligence_roll_by_clicks(browser, tmp_path):
    from tests.play_game import after_set_up

    # spi-1975: a gun landed, a battalion beside it, and the gun's FPF given to the battalion
    (tmp_path / "spi").mkdir()
    turn = new_game(tmp_path / "spi", edition="spi-1975")
    key = tmp_path / "spi" / "us.key"
    with _playing(browser, turn, key) as (tab, errors):
        _move_by_clicks(tab, "us-13-art", "2428", waiting=True)
        _move_by_clicks(tab, "us-12-cav", "2528", waiting=True)
        tab.click("#mode-defense")
        tab.click('#map .ghost-counter[data-unit="us-13-art"]')
        tab.click('#map .ghost-counter[data-unit="us-12-cav"]')
        tab.wait_for_function("document.getElementById('fpf').textContent.includes('us-13-art covers us-12-cav')")
        tab.click('#map .ghost-counter[data-unit="us-12-cav"]')  # and its retreat route, hex by hex
        for h in ("2628", "2728"):
            tab.click(f'#map .hex[data-hex="{h}"]', modifiers=["Shift"])
            _settle(tab)
        tab.wait_for_selector('#retreats li[data-retreat="us-12-cav"]')
        tab.wait_for_function("document.querySelectorAll('#problems li').length === 0")
        tab.click("#save-orders")
        tab.wait_for_function("document.getElementById('status').textContent.startsWith('saved to')")
        assert not errors
    saved = turn.parent / "orders-0000-US.json"
    assert json.loads(saved.read_text())["defense"] == {"fpf": [{"artillery": "us-13-art", "defender": "us-12-cav"}],
                                                        "retreats": [{"unit": "us-12-cav", "path": ["2628", "2728"]}]}
    status, out, _ = run("validate", saved, "--turn", turn, "--key", key)
    assert status == 0, out

    # hidden units: the American intelligence roll costs a Ground Support Point (19B.7)
    (tmp_path / "hidden").mkdir()
    turn = after_set_up(tmp_path / "hidden")
    key = tmp_path / "hidden" / "us.key"
    with _playing(browser, turn, key) as (tab, errors):
        assert "Ground Support Points left: 4 of 4" in tab.inner_text("#owed")
        tab.check("#intel-roll")
        tab.wait_for_function("document.getElementById('owed').textContent.includes('left: 3 of 4')")
        tab.click("#save-orders")
        tab.wait_for_function("document.getElementById('status').textContent.startsWith('saved to')")
        assert not errors
    saved = turn.parent / "orders-0001-US.json"
    assert json.loads(saved.read_text())["intelligence"] == {"roll": True}
    status, out, _ = run("validate", saved, "--turn", turn, "--key", key)
    assert status == 0, out


def _plain_spi_game(base: Path) -> Path:
    """``leyte-assault`` played by the spi-1975 standard rules alone (no Leyte exclusive rules): Ground Support
    may serve as FPF there (9.1), never under Leyte (13.13).  A scenario file of the test's own, as a referee could write."""
    from pbem.loading.datafiles import scenario_document

    base.mkdir()
    doc = scenario_document(ROOT / "scenarios" / "leyte" / "leyte-assault.json")
    doc["id"], doc["ruleset"] = "plain-assault", {"edition": "spi-1975"}
    (base / "plain.json").write_text(json.dumps(doc))
    return new_game(base, scenario=str(base / "plain.json"))


def _defense_by_clicks(tab, unit: str, depth: int, gsp: int):
    tab.click("#mode-defense")
    tab.click(f'#map .ghost-counter[data-unit="{unit}"]')
    tab.click(f'[data-defense-advance="{depth}"]')
    _settle(tab)
    tab.wait_for_selector(f'#advances li[data-defense-advance-of="{unit}"]')
    for _ in range(gsp):
        tab.click(f'[data-gsp-fpf-plus="{unit}"]')
        _settle(tab)


def test_the_spi_1975_advances_and_ground_support_as_fpf_by_clicks_only_where_the_rules_allow(browser, tmp_path):
    # Leyte (13.13): the page offers no Ground Support as FPF, and the advance is set by clicks
    (tmp_path / "leyte").mkdir()
    turn = new_game(tmp_path / "leyte", edition="spi-1975")
    key = tmp_path / "leyte" / "us.key"
    with _playing(browser, turn, key) as (tab, errors):
        _move_by_clicks(tab, "us-12-cav", "2528", waiting=True)
        _defense_by_clicks(tab, "us-12-cav", 2, 0)
        assert tab.locator("[data-gsp-fpf-plus]").count() == 0 and not tab.is_visible("#gsp-fpf-box")
        tab.wait_for_function("document.querySelectorAll('#problems li').length === 0")
        tab.click("#save-orders")
        tab.wait_for_function("document.getElementById('status').textContent.startsWith('saved to')")
        assert not errors
    saved = turn.parent / "orders-0000-US.json"
    assert json.loads(saved.read_text())["defense"] == {"advances": [{"unit": "us-12-cav", "to": 2}]}
    status, out, _ = run("validate", saved, "--turn", turn, "--key", key)
    assert status == 0, out

    # the standard rules alone: Ground Support as FPF is offered, given by clicks, and validate accepts it
    turn = _plain_spi_game(tmp_path / "plain")
    key = tmp_path / "plain" / "us.key"
    with _playing(browser, turn, key) as (tab, errors):
        _move_by_clicks(tab, "us-12-cav", "2528", waiting=True)
        _defense_by_clicks(tab, "us-12-cav", 1, 2)
        tab.wait_for_selector('#gsp-fpf li[data-gsp-fpf-of="us-12-cav"]')
        assert "2 Ground Support Point(s) as FPF for us-12-cav" in tab.inner_text("#gsp-fpf")
        tab.wait_for_function("document.querySelectorAll('#problems li').length === 0")
        tab.click("#save-orders")
        tab.wait_for_function("document.getElementById('status').textContent.startsWith('saved to')")
        assert not errors
    saved = turn.parent / "orders-0000-US.json"
    assert json.loads(saved.read_text())["defense"] == {"advances": [{"unit": "us-12-cav", "to": 1}],
                                                        "gsp_fpf": [{"defender": "us-12-cav", "points": 2}]}
    status, out, _ = run("validate", saved, "--turn", turn, "--key", key)
    assert status == 0, out


def test_the_intelligence_priority_by_clicking_hidden_markers(browser, tmp_path):
    from tests.play_game import after_set_up

    turn = after_set_up(tmp_path)
    key = tmp_path / "us.key"
    markers = planner_of(turn, key).marker_hexes()
    assert len(markers) >= 3
    first, second, third = markers[2], markers[0], markers[1]
    with _playing(browser, turn, key) as (tab, errors):
        tab.click("#mode-intel")
        tab.wait_for_selector(f'.hex.allowed[data-hex="{first}"]')  # the markers are marked
        for h in (first, second, third):
            tab.click(f'#map .counter[data-hex="{h}"] >> nth=0')
            _settle(tab)
        tab.click(f'#map .counter[data-hex="{second}"] >> nth=0')  # again: out of the list
        _settle(tab)
        tab.click(f'#priority li[data-priority="{third}"] button >> nth=0')  # ↑: before the first
        _settle(tab)
        assert tab.eval_on_selector_all("#priority li[data-priority]", "els => els.map(e => e.dataset.priority)") == [third, first]
        tab.check("#intel-roll")
        _settle(tab)
        tab.wait_for_function("document.querySelectorAll('#problems li').length === 0")
        tab.click("#save-orders")
        tab.wait_for_function("document.getElementById('status').textContent.startsWith('saved to')")
        assert not errors
    saved = turn.parent / "orders-0001-US.json"
    assert json.loads(saved.read_text())["intelligence"] == {"roll": True, "priority": [third, first]}
    status, out, _ = run("validate", saved, "--turn", turn, "--key", key)
    assert status == 0, out


def test_a_hidden_marker_attacked_a_note_written_and_the_orders_submitted_by_clicks(browser, tmp_path):
    """What the README promises beyond the Game-Turn 1 test: a hidden marker as a target, the note, and Submit showing the mail."""
    from tests.play_game import after_set_up

    empty = {"moves": [], "attacks": []}
    for attempt in range(8):  # the set-up's intelligence roll may expose every marker a landing reaches: draw another game
        (tmp_path / str(attempt)).mkdir()
        turn = after_set_up(tmp_path / str(attempt))
        key = tmp_path / str(attempt) / "us.key"
        planner = planner_of(turn, key)
        markers = set(planner.marker_hexes())
        found = [(u, h, m) for u in planner.movable() if not planner.units[u].is_artillery
                 for h in sorted(planner.reach(empty, u).cost) for m in planner.board.neighbours(h) if m in markers]
        if found:
            break
    unit, to, marker = found[0]
    with _playing(browser, turn, key) as (tab, errors):
        _move_by_clicks(tab, unit, to, waiting=True)
        tab.click("#mode-attack")
        tab.click("#new-attack")
        tab.click(f'#map .ghost-counter[data-unit="{unit}"]')
        _settle(tab)
        tab.click(f'#map .counter[data-hex="{marker}"] >> nth=0')
        _settle(tab)
        odds = tab.inner_text('.attack[data-attack="0"] pre.odds')
        assert f"against {marker}" in odds and "hidden unit(s)" in odds  # weighed as --explain weighs a marker
        tab.fill("#note", "your move, general")
        tab.press("#note", "Tab")
        _settle(tab)
        tab.wait_for_function("document.querySelectorAll('#problems li').length === 0")
        tab.click("#save-orders")
        tab.wait_for_function("document.getElementById('status').textContent.startsWith('saved to')")
        tab.click("#submit-orders")
        tab.wait_for_function("!document.getElementById('mail-box').hidden")
        assert "orders-0001-US.pbem" in tab.inner_text("#status") and "orders-0001-US.pbem" in tab.inner_text("#mail")
        assert not errors
    saved = turn.parent / "orders-0001-US.json"
    document = json.loads(saved.read_text())
    assert document["note"] == "your move, general" and document["attacks"] == [{"attackers": [unit], "defenders": [marker], "gsp": 0}]
    assert (turn.parent / "orders-0001-US.pbem").exists()
    status, out, _ = run("validate", saved, "--turn", turn, "--key", key)
    assert status == 0, out

"""``pbem play`` in real Chromium at 1400x900 (issue 38): the page opens on the player's own units, lists them,
and shows a bad move where the player looks.

No scrolling is done before the checks: what is asserted "in view" is what a
player sees when the page has loaded.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot_games import play_bot_game
from tests.play_game import new_game, planner_of
from tests.test_play_browser import Play, _open as open_play, _settle
from tests.test_render_browser import CHROMIUM, FLAGS, _playwright

SHOTS = Path("/tmp/pbem-play-shots")


@pytest.fixture(scope="module")
def browser():
    sync_playwright = _playwright()
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Path:
    """Two player-turns of a leyte-assault game by the bots: turn file 1 is the Japanese's, 2 the American's."""
    return play_bot_game(tmp_path_factory.mktemp("view"), "leyte-assault", player_turns=2, exits=False)


def _open(browser, url):
    tab, errors = open_play(browser, url, viewport=(1400, 900))
    tab.wait_for_timeout(100)
    return tab, errors


def _in_view(tab, selector: str, on_map: bool = True) -> bool:
    """The element is inside the window (and the map's visible box when ``on_map``), with nothing scrolled by the test."""
    return tab.evaluate("""([sel, onMap]) => {
        const e = document.querySelector(sel); if (!e) return false;
        const r = e.getBoundingClientRect(), m = document.getElementById('map').getBoundingClientRect();
        const inside = (b) => r.left >= b.left && r.right <= b.right && r.top >= b.top && r.bottom <= b.bottom;
        return r.width > 0 && (!onMap || inside(m)) && inside({left: 0, top: 0, right: innerWidth, bottom: innerHeight});
    }""", [selector, on_map])


@pytest.fixture(scope="module")
def hidden_game(tmp_path_factory) -> Path:
    """The same under hidden units: turn file 0 is the Japanese set-up, 1 the American's, 2 the Japanese's, 3 the American's."""
    return play_bot_game(tmp_path_factory.mktemp("hidden"), "leyte-assault", options=["hidden-units"], player_turns=3, exits=False)


@pytest.mark.parametrize("hidden, seq, side", [(False, 1, "JP"), (False, 2, "US"), (True, 0, "JP"), (True, 2, "JP"), (True, 3, "US")])
def test_the_page_opens_on_the_players_own_counters_and_lists_them(browser, request, hidden, seq, side):
    game = request.getfixturevalue("hidden_game" if hidden else "game")
    turn = game / f"turn-{seq:04d}.pbem"
    key = game.parent / f"{side.lower()}.key"
    planner = planner_of(turn, key)
    on_map = sorted(u for u in planner.placement.units_of(side))
    assert on_map
    play = Play(turn, key)
    try:
        tab, errors = _open(browser, play.url)
        seen = [u for u in on_map if _in_view(tab, f'#map .counter[data-unit="{u}"]')]
        SHOTS.mkdir(exist_ok=True)
        tab.screenshot(path=str(SHOTS / f"open-{'hidden-' if hidden else ''}{seq}-{side}.png"))
        assert seen, f"none of {side}'s {len(on_map)} counters is in view on load"
        if hidden and seq == 0:  # the secret set-up: its own list of the units to place (19B.2)
            listed = tab.eval_on_selector_all("#setup-units [data-setup-unit]", "bs => bs.map(b => b.dataset.setupUnit)")
            assert sorted(listed) == on_map
            assert not errors
            return
        listed = tab.eval_on_selector_all("#on-map [data-on-map]", "bs => bs.map(b => b.dataset.onMap)")
        assert sorted(listed) == on_map
        # a click on one far from the view centres the map on it
        far = next(u for u in reversed(on_map) if u not in seen) if len(seen) < len(on_map) else on_map[-1]
        tab.click(f'[data-on-map="{far}"]')
        _settle(tab)
        assert _in_view(tab, f'#map .counter[data-unit="{far}"]')
        assert far in tab.inner_text("#selected")
        assert not errors
    finally:
        play.stop()


def _into_the_enemy(turn: Path, key: Path):
    """A reinforcement, its entry hex out of any zone of control, a hex in a Japanese zone of control next to it,
    and the Japanese unit's hex beyond: a path through the zone into the enemy (6.0, 5.12)."""
    planner = planner_of(turn, key)
    board, placement = planner.board, planner.placement
    japanese = {placement.where(u): u for u in placement.units_of("JP")}
    zoc = {n for h in japanese for n in board.neighbours(h)}
    empty = {"moves": [], "attacks": []}
    for unit in planner.movable():
        reach = planner.reach(empty, unit)
        if reach.start is not None:
            continue
        for e in sorted(h for h in reach.cost if reach.came_from[h] is None):
            if e in zoc:
                continue
            for z in board.neighbours(e):
                if z in zoc and z in reach.cost:
                    for j in board.neighbours(z):
                        if j in japanese and board.passable(z, j):
                            return unit, e, z, j, japanese[j]
    raise AssertionError("no such path on this map")


def test_a_path_into_the_enemy_is_shown_broken_where_the_player_looks_and_the_defender_stays_clickable(browser, tmp_path):
    turn = new_game(tmp_path)
    key = tmp_path / "us.key"
    unit, e, z, j, target = _into_the_enemy(turn, key)
    play = Play(turn, key, "--orders", str(tmp_path / "mine.json"))
    try:
        tab, errors = _open(browser, play.url)
        tab.click(f'[data-waiting="{unit}"]')
        tab.wait_for_selector(".hex.reachable")
        for h in (e, z):
            tab.click(f'#map .hex[data-hex="{h}"]', modifiers=["Shift"])
            _settle(tab)
        tab.click(f'#map .counter[data-unit="{target}"]', modifiers=["Shift"])  # the last step, onto the enemy counter
        _settle(tab)
        tab.wait_for_selector(f'#map .illegal-mark[data-unit="{unit}"]')
        SHOTS.mkdir(exist_ok=True)
        tab.screenshot(path=str(SHOTS / "illegal-path.png"))
        # on the map, in view, with the rule case
        mark = f'#map .illegal-mark[data-unit="{unit}"]'
        assert _in_view(tab, mark)
        assert "rule 6.0, 5.12" in tab.text_content(mark)
        assert "problem" in tab.get_attribute(f'#map .ghost-counter[data-unit="{unit}"]', "class")
        # in the status line, in red, with the rule case
        status = tab.locator("#status")
        assert status.get_attribute("class") == "bad"
        assert "rule 6.0" in status.inner_text() and unit in status.inner_text(), status.inner_text()
        assert _in_view(tab, "#status", on_map=False)
        # shift-clicks selected no text
        assert tab.evaluate("getSelection().toString()") == ""
        # the next click on the defender, where the player sees it, picks the defender
        tab.click("#new-attack")
        _settle(tab)
        box = tab.locator(f'#map .counter[data-unit="{target}"]').bounding_box()
        tab.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        _settle(tab)
        text = tab.inner_text('.attack[data-attack="0"]')
        assert f"against {target}" in text and unit not in text.split(" against ")[0], text
        assert target in tab.inner_text("#status")
        assert not errors
    finally:
        play.stop()


def test_a_reopened_page_says_its_orders_were_already_submitted(browser, tmp_path):
    turn = new_game(tmp_path)
    key = tmp_path / "us.key"
    play = Play(turn, key)
    try:
        tab, errors = _open(browser, play.url)
        tab.click("#submit-orders")
        tab.wait_for_function("document.getElementById('status').textContent.startsWith('wrote ')")
        assert not errors
    finally:
        play.stop()
    again = Play(turn, key)
    try:
        tab, errors = _open(browser, again.url)
        tab.wait_for_function("document.getElementById('status').textContent.includes('already submitted')")
        status = tab.inner_text("#status")
        assert "revision 1" in status and "orders-0000-US.pbem" in status and "the judge" in status, status
        tab.screenshot(path=str(SHOTS / "reopened.png"))
        assert not errors
    finally:
        again.stop()

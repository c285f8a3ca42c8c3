"""The Leyte page a player plans on, in headless Chromium (issue 20).

It opens on the player's own units, marks the objectives, shows the unit ids
on a toggle (and on hover), keeps place names off the hex numbers and off
each other, and on the Japanese view marks the units the enemy sees now.
"""

from __future__ import annotations

import json

import pytest

from pbem.render.html import render_html
from pbem.render.scene import build_scene
from tests.bot_games import play_bot_game
from tests.test_render_browser import CHROMIUM, FLAGS, _playwright


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    from pbem.loading.turns import load_turn, scenario_of
    from pbem.game.player import view_for
    from pbem.protocol.keys import read_private

    sync_playwright = _playwright()
    base = tmp_path_factory.mktemp("leyte-page")
    game = play_bot_game(base, "leyte-assault", options=["hidden-units"], player_turns=3)
    turn = load_turn(game / "turn-0003.pbem")
    loaded = scenario_of(turn)
    board = loaded.board
    objectives = [o.model_dump(exclude_none=True) for o in loaded.scenario.objectives]
    written = {}
    for side in ("us", "jp"):
        _, view = view_for(turn, read_private(base / f"{side}.key", None))
        scene = build_scene(view, board, objectives=objectives)
        path = base / f"{side}.html"
        path.write_text(render_html(scene), encoding="utf-8")
        written[side] = (path, scene)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        tabs = {}
        for side, (path, scene) in written.items():
            tab = browser.new_page(viewport={"width": 1300, "height": 820})
            tab.goto(path.as_uri())
            tabs[side] = (tab, scene)
        yield tabs
        browser.close()


def _visible_share(tab, selector: str) -> float:
    """The share of the elements matching ``selector`` whose centres lie inside the map's visible frame."""
    return tab.evaluate("""sel => {
      const frame = document.getElementById('map').getBoundingClientRect();
      const all = [...document.querySelectorAll(sel)];
      const inside = all.filter(e => { const r = e.getBoundingClientRect(); const x = r.left + r.width / 2, y = r.top + r.height / 2;
        return x >= frame.left && x <= frame.right && y >= frame.top && y <= frame.bottom; });
      return all.length ? inside.length / all.length : 0; }""", selector)


@pytest.mark.parametrize("side", ["us", "jp"])
def test_the_page_opens_on_the_players_own_units(pages, side):
    tab, scene = pages[side]
    scrolled = tab.evaluate("[document.getElementById('map').scrollLeft, document.getElementById('map').scrollTop]")
    assert scrolled != [0, 0], "the page opened on the map's north-west corner"
    total = tab.eval_on_selector_all(f".counter.side-{side.upper()}", "es => es.length")
    assert total and _visible_share(tab, f".counter.side-{side.upper()}") * total >= min(3, total)


def test_objectives_are_marked_and_told_in_the_hex_panel(pages):
    tab, scene = pages["us"]
    hexes = sorted({o["hex"] for o in scene.objectives})
    assert hexes and sorted(tab.eval_on_selector_all(".objective", "es => es.map(e => e.dataset.hex)")) == hexes
    target = hexes[0]
    tab.evaluate("h => document.querySelector('.hex[data-hex=\"' + h + '\"]').dispatchEvent(new MouseEvent('click', {bubbles: true}))", target)
    assert "objective" in tab.inner_text("#hex-info") and "VP" in tab.inner_text("#hex-info")


def test_unit_ids_show_on_a_toggle_and_every_counter_has_its_hooks(pages):
    tab, scene = pages["us"]
    assert tab.eval_on_selector_all(".counter .counter-id", "es => es.filter(e => getComputedStyle(e).display !== 'none').length") == 0
    tab.check("#show-ids")
    shown = tab.eval_on_selector_all(".counter .counter-id", "es => es.filter(e => getComputedStyle(e).display !== 'none').map(e => e.textContent)")
    assert sorted(shown) == sorted(c.id for c in scene.all_counters() if not c.hidden)
    hooks = tab.eval_on_selector_all(".counter", "es => es.map(e => [e.dataset.unit, e.dataset.hex])")
    assert all(u and len(h) == 4 for u, h in hooks)
    assert tab.eval_on_selector_all(".hex", "es => es.every(e => /^[0-9]{4}$/.test(e.dataset.hex))")
    tab.uncheck("#show-ids")


def test_place_names_cover_no_hex_number_and_no_other_name(pages):
    tab, _ = pages["us"]
    boxes = tab.evaluate("""() => {
      const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom, e.textContent]; };
      return {names: [...document.querySelectorAll('.place-name')].map(box),
              ids: [...document.querySelectorAll('.hex-id, .counter rect.body')].map(box)}; }""")

    def overlap(a, b):
        return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5

    clashes = [(a[4], b[4]) for i, a in enumerate(boxes["names"]) for b in boxes["names"][i + 1:] + boxes["ids"] if overlap(a, b)]
    assert not clashes, clashes


def test_the_japanese_view_marks_his_units_the_enemy_sees_now(pages):
    tab, scene = pages["jp"]
    exposed = sorted(c.id for c in scene.all_counters() if c.exposed)
    assert exposed, "the game should have exposed Japanese units by now"
    assert sorted(tab.eval_on_selector_all(".counter.exposed", "es => es.map(e => e.dataset.unit)")) == exposed
    us_tab, _ = pages["us"]
    assert us_tab.eval_on_selector_all(".counter.exposed", "es => es.length") == 0
    data = json.loads(tab.inner_text("#pbem-data")) if tab.query_selector("#pbem-data") else None
    assert data is None or data["units"][exposed[0]]["seen"].startswith("exposed")

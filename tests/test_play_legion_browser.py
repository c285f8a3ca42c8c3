"""``pbem play`` of a Legion game in real Chromium (issue 39): the map, the side's counters, orders written as JSON.

The page for a system without clicking tools: the room's map and a text
area that starts from the phase's template, written by hand or by clicks
(a move: the counter, then each hex entered; an attack: the hex attacked,
then each attacker); what it holds is checked by the Legion check at each change (a move into an enemy-held hex is
refused with 6A.2), and valid orders are signed as ``pbem submit`` signs them.
"""

from __future__ import annotations

import json

from tests.play_game import new_game
from tests.test_play_browser import _playing, _settle, browser  # noqa: F401 (the module's browser fixture)


def _type(tab, document: dict) -> None:
    tab.fill("#orders-text", json.dumps(document))
    tab.click("#check-orders")
    _settle(tab)
    tab.wait_for_timeout(150)


def test_a_legion_player_turn_written_on_the_page_is_checked_by_the_legion_rules_and_submitted(browser, tmp_path):
    turn = new_game(tmp_path, "legion-test-island")
    with _playing(browser, turn, tmp_path / "us.key") as (tab, errors):
        on_map = tab.eval_on_selector_all("#map .counter", "cs => cs.map(c => c.dataset.unit)")
        assert {"us-1-2", "us-art-10", "jp-1-135"} <= set(on_map)
        assert tab.locator("#map .owned").count() > 0 and tab.locator("#map .objective").count() == 2
        assert json.loads(tab.input_value("#orders-text")) == {"reserves": [], "moves": [], "attacks": []}
        rows = tab.eval_on_selector_all("tr.unit-row", "rs => rs.map(r => r.dataset.unit)")
        assert rows and all(u.startswith("us-") for u in rows)  # the side's own units listed, no enemy's
        _type(tab, {"reserves": [], "moves": [{"units": ["us-1-2"], "path": ["0303", "0403"]}], "attacks": []})
        problems = tab.inner_text("#problems")
        assert "0403 holds enemy units" in problems and "(rule 6A.2)" in problems
        # the same orders by clicks: each click writes into the text, which the Legion check reads
        _type(tab, {"reserves": [], "moves": [], "attacks": []})
        for unit, path in (("us-1-2", ["0303"]), ("us-2-2", ["0304"])):
            tab.click("#mode-move") if not tab.locator("#mode-move.on").count() else None
            tab.click(f'#map .counter[data-unit="{unit}"]')
            for h in path:
                tab.click(f'#map .hex[data-hex="{h}"]', force=True)
            tab.click("#done")
        tab.click("#mode-assault")
        tab.click('#map .counter[data-unit="jp-1-135"]')  # the hex it holds, 0403, is the target
        for unit in ("us-1-2", "us-2-2"):
            tab.click(f'#map .counter[data-unit="{unit}"]')
        _settle(tab)
        assert json.loads(tab.input_value("#orders-text")) == {
            "reserves": [], "moves": [{"units": ["us-1-2"], "path": ["0303"]}, {"units": ["us-2-2"], "path": ["0304"]}],
            "attacks": [{"type": "assault", "target": "0403", "attackers": ["us-1-2", "us-2-2"]}]}
        tab.click("#check-orders")
        _settle(tab)
        assert tab.inner_text("#problems").strip() == "" and tab.inner_text("#status") == "valid"
        tab.click("#submit-orders")
        tab.wait_for_selector("#mail-box:not([hidden])")
        assert "revision 1" in tab.inner_text("#status")
        assert not errors
    assert (turn.parent / "orders-0000-US.pbem").exists()

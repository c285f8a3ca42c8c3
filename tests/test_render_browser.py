"""The offline page in a real browser: headless Chromium (Debian's ``chromium``) driven by Playwright.

Skipped when Chromium or Playwright is missing on a developer's machine —
but never under CI (``CI`` set), where a missing browser fails the test.
Install: README, Development.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from pbem.render.html import render_html
from pbem.render.scene import build_scene
from tests.render_game import played_views

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]


def _playwright():
    missing = None
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing = "the playwright package (pip install -e '.[browser]')"
    if missing is None and not Path(CHROMIUM).exists():
        missing = "chromium (apt-get install chromium)"
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the browser test, but {missing} is not installed")
        pytest.skip(f"needs {missing}")
    return sync_playwright


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    sync_playwright = _playwright()
    board, views = played_views()
    path = tmp_path_factory.mktemp("page") / "map.html"
    path.write_text(render_html(build_scene(views["US"], board)), encoding="utf-8")
    requests: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        tab = browser.new_page(viewport={"width": 1300, "height": 820})
        tab.on("request", lambda r: requests.append(r.url))
        tab.goto(path.as_uri())
        yield tab, requests
        browser.close()


def test_clicking_a_hex_tells_its_terrain_cost_and_who_holds_it(page, tmp_path):
    tab, _ = page
    tab.click('.hex[data-hex="0405"]')
    info = tab.inner_text("#hex-info")
    assert "0405" in info and "clear" in info and "1 MP to enter" in info and "road" in info
    assert "in the JP zone of control" in info  # jp-art-22 stands next door in 0506
    assert tab.get_attribute('.hex[data-hex="0405"]', "class").split()[-1] == "selected"
    tab.screenshot(path=str(tmp_path / "hex.png"))
    assert (tmp_path / "hex.png").stat().st_size > 10_000


def test_pointing_at_a_unit_shows_its_counter_and_clicking_it_its_hex(page):
    tab, _ = page
    tab.hover('.counter[data-unit="us-7cav"]')
    unit = tab.inner_text("#unit-info")
    assert "us-7cav" in unit and "cavalry" in unit and "5-5-5" in unit
    tab.click('.counter[data-unit="jp-1-33"]')
    assert "jp-1-33" in tab.inner_text("#unit-info")
    assert "town" in tab.inner_text("#hex-info") and "occupied by JP" in tab.inner_text("#hex-info")


def test_the_layers_toggle_and_the_side_panel_tells_the_last_player_turn(page):
    tab, _ = page
    assert tab.get_attribute(".zoc-layer", "display") == "none"
    tab.check("#show-zoc")
    assert tab.get_attribute(".zoc-layer", "display") == "inline"
    tab.uncheck("#show-events")
    assert tab.get_attribute(".events-layer", "display") == "none"
    assert "Combat 1: us-7cav, us-art-61 with 3 GSP against jp-1-9" in tab.inner_text("#report")
    assert tab.locator("tr.unit-row").count() == 11


def test_the_page_asks_the_network_for_nothing(page):
    _, requests = page
    assert requests and all(url.startswith("file://") for url in requests)

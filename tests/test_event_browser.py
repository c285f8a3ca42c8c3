"""The event page in a real browser (Debian's ``chromium`` driven by Playwright): skipped without one, failed under CI."""

from __future__ import annotations

import pytest

from tests.event_games import REVEAL, play_game
from tests.games import run
from tests.test_render_browser import CHROMIUM, FLAGS, _playwright


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    sync_playwright = _playwright()
    base = tmp_path_factory.mktemp("event-page")
    root = base / "event"
    play_game(root / "g1-referee", "test-skirmish", seed=0)
    play_game(root / "g2-hidden", "test-skirmish", hidden=True, seed=1)
    play_game(root / "g3-two-player", "test-skirmish", referee=False, seed=2)
    play_game(root / "g4-misread-table", "test-skirmish", seed=0, tamper_at=1)
    (play_game(root / "g5-no-reveal", "test-skirmish", seed=3) / REVEAL).unlink()
    path = base / "event.html"
    code, _, err = run("audit", root, "--html", path)
    assert code == 1, err
    requests: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        tab = browser.new_page(viewport={"width": 1300, "height": 900})
        tab.on("request", lambda r: requests.append(r.url))
        tab.goto(path.as_uri())
        yield tab, requests, base
        browser.close()


def test_the_games_table_shows_each_verdict_in_its_colour(page):
    tab, requests, base = page
    rows = tab.locator("#games tr.game")
    assert rows.count() == 5
    verdicts = {tab.inner_text(f"#games tr.game:nth-child({i}) td:first-child").rsplit("/", 1)[-1]:
                rows.nth(i - 1).get_attribute("data-verdict") for i in range(1, 6)}
    assert verdicts == {"g1-referee": "holds", "g2-hidden": "holds", "g3-two-player": "holds",
                        "g4-misread-table": "failed", "g5-no-reveal": "not audited"}
    colour = tab.eval_on_selector('tr.game[data-verdict="failed"] .badge', "e => getComputedStyle(e).backgroundColor")
    assert colour == "rgb(192, 57, 43)"
    assert tab.eval_on_selector('tr.game[data-verdict="holds"] .badge', "e => getComputedStyle(e).backgroundColor") == "rgb(30, 132, 73)"
    assert tab.inner_text("#status") == "2 game(s) do not hold (exit status 1)"
    assert all(url.startswith("file://") for url in requests)  # offline: the page fetches nothing


def test_the_findings_name_the_file_and_the_reason(page):
    tab, _, _ = page
    findings = tab.inner_text("#findings")
    assert "g4-misread-table/turn-0001.pbem" in findings and "the public record is not what the replay gives" in findings


def test_the_histograms_are_drawn_and_the_tests_listed(page):
    tab, _, base = page
    bars = tab.locator("svg.histogram").first.locator("rect.bar")
    assert bars.count() == 6
    heights = [bars.nth(i).bounding_box()["height"] for i in range(6)]
    counts = [int(bars.nth(i).get_attribute("data-count")) for i in range(6)]
    assert max(heights) > 20 and [h > 0 for h in heights] == [c > 0 for c in counts]
    tallest = counts.index(max(counts))
    assert heights[tallest] == max(heights)
    assert tab.locator("#tests tr.test").count() >= 5
    assert "Holm" in tab.inner_text("#dice")
    tab.screenshot(path=str(base / "event.png"), full_page=True)
    assert (base / "event.png").stat().st_size > 20_000

"""``pbem play`` without a browser: the app's calls, the token, saving, submitting, the lock file, Ctrl-C.

The browser tests (tests/test_play_browser.py) click; these hold the
promises a click cannot see: a wrong token or host drives nothing, a file
not the page's own is never overwritten without consent, Submit writes what
``pbem submit`` writes, a second ``pbem play`` names the first one's address.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette's notice that its test client will move to httpx2
    from starlette.testclient import TestClient

from pbem.protocol.keys import read_private
from pbem.web.app import build_app
from pbem.web.session import Sitting
from tests.games import run
from tests.play_game import new_game

TOKEN = "t0ken-for-the-tests"


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    base = tmp_path_factory.mktemp("leyte")
    return base, new_game(base)


@pytest.fixture
def client(game, tmp_path):
    base, turn = game
    sitting = Sitting.open(turn, read_private(base / "us.key", None), tmp_path / "orders.json")
    with TestClient(build_app(sitting, TOKEN), base_url="http://127.0.0.1") as c:
        yield c, sitting


def post(c, name, payload, token=TOKEN):
    return c.post(f"/{token}/api/{name}", json=payload)


def test_the_token_and_the_host_guard_every_call(client):
    c, _ = client
    assert c.get(f"/{TOKEN}/").status_code == 200
    assert c.get("/wrong-token/").status_code == 404
    assert post(c, "reach", {"unit": "us-7-cav"}, token="wrong").status_code == 404
    assert c.get(f"/{TOKEN}/", headers={"host": "evil.example:80"}).status_code == 400  # DNS rebinding
    form = c.post(f"/{TOKEN}/api/save", data={"document": "x"})  # a form another page could post
    assert form.status_code == 415


def test_the_page_carries_the_hooks(client):
    c, _ = client
    page = c.get(f"/{TOKEN}/").text
    for hook in ('id="save-orders"', 'id="submit-orders"', 'id="problems"', 'data-hex="2628"', 'data-unit="jp-1-9-bn"'):
        assert hook in page


def test_reach_path_and_problems_come_from_the_engine(client):
    c, _ = client
    reach = post(c, "reach", {"document": {"moves": [], "attacks": []}, "unit": "us-7-cav"}).json()
    assert reach["start"] is None and reach["hexes"]["2628"] == "2"  # a beach hex of area N costs 2 MP (12.21)
    move = post(c, "path", {"document": {"moves": []}, "unit": "us-7-cav", "to": "2827"}).json()["move"]
    assert move["unit"] == "us-7-cav" and move["path"][-1] == "2827" and move["enter"] in reach["hexes"]
    assert post(c, "path", {"document": {"moves": []}, "unit": "us-7-cav", "to": "0101"}).json()["move"] is None
    # the hex another unit of the orders ends in is not offered (5.31)
    taken = post(c, "reach", {"document": {"moves": [{"unit": "us-5-cav", "enter": "2628", "path": []}]}, "unit": "us-7-cav"}).json()
    assert "2628" not in taken["hexes"]
    bad = post(c, "check", {"document": {"moves": [], "attacks": [{"attackers": [], "gsp": 9, "defenders": ["jp-1-9-bn"]}]}}).json()
    rules = {p["rule"] for p in bad["analysis"]["problems"]}
    assert "9.1" in rules


def test_save_never_overwrites_a_file_it_did_not_write_without_consent(client, tmp_path):
    c, sitting = client
    document = {"moves": [{"unit": "us-7-cav", "enter": "2628", "path": []}], "attacks": []}
    sitting.orders_path.write_text('{"moves": [], "note": "my own draft"}\n')
    refused = post(c, "save", {"document": document})
    assert refused.status_code == 409 and "replace it?" in refused.json()["ask"]
    assert "my own draft" in sitting.orders_path.read_text()
    assert post(c, "save", {"document": document, "overwrite": True}).status_code == 200
    assert json.loads(sitting.orders_path.read_text()) == document
    assert post(c, "save", {"document": {"moves": []}}).status_code == 200  # its own file: no question
    loaded = post(c, "load", {}).json()
    assert loaded["document"] == {"moves": []}
    assert not list(tmp_path.glob("*.tmp*"))


def test_submit_signs_as_pbem_submit_does_and_shows_the_mail(game, tmp_path):
    base, turn = game
    folder = tmp_path / "game"
    folder.mkdir()
    for f in turn.parent.glob("turn-*.pbem"):
        (folder / f.name).write_bytes(f.read_bytes())
    sitting = Sitting.open(folder / turn.name, read_private(base / "us.key", None), None)
    assert sitting.orders_path == folder / "orders-0000-US.json"
    with TestClient(build_app(sitting, TOKEN), base_url="http://127.0.0.1") as c:
        wrong = post(c, "submit", {"document": {"moves": [], "attacks": [{"attackers": [], "gsp": 9, "defenders": ["jp-1-9-bn"]}]}})
        assert wrong.status_code == 422 and not list(folder.glob("orders-*.pbem"))
        document = {"moves": [{"unit": "us-7-cav", "enter": "2628", "path": []}], "attacks": []}
        done = post(c, "submit", {"document": document}).json()
        assert done["path"].endswith("orders-0000-US.pbem") and done["revision"] == 1
        assert done["mail"][0].startswith("Subject:") and any("pbem adjudicate" in line for line in done["mail"])
        again = post(c, "submit", {"document": {"moves": [], "attacks": []}})
        assert again.status_code == 409  # a different revision needs the player's word
        assert post(c, "submit", {"document": {"moves": [], "attacks": []}, "replace": True}).json()["revision"] == 2
    (folder / "orders.json").write_text(json.dumps(document))
    status, out, _ = run("validate", folder / "orders.json", "--turn", folder / turn.name, "--key", base / "us.key")
    assert status == 0, out


def test_a_second_play_names_the_first_and_ctrl_c_stops_it_cleanly(game):
    base, turn = game
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    first = subprocess.Popen([sys.executable, "-m", "pbem", "play", str(turn), "--key", str(base / "us.key"), "--no-browser"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        url = first.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:") and url.endswith("/")
        lock = turn.parent / f".{turn.name}.play"
        assert json.loads(lock.read_text())["url"] == url and (lock.stat().st_mode & 0o077) == 0
        status, _, err = run("play", turn, "--key", base / "us.key", "--no-browser")
        assert status == 2 and url in err
    finally:
        first.send_signal(signal.SIGINT)
        out, err = first.communicate(timeout=20)
    assert first.returncode == 0, err
    assert "stopped" in out and "Traceback" not in err
    assert not lock.exists()


def test_a_stale_lock_is_replaced(game, tmp_path):
    from pbem.web import lock

    base, turn = game
    path = lock.lock_path(turn)
    path.write_text(json.dumps({"pid": 2 ** 22 + 12345, "url": "http://127.0.0.1:9/x/"}))
    assert lock.running(turn) is None and not path.exists()
    path.write_text("not json")
    assert lock.running(turn) is None and not path.exists()


@pytest.mark.parametrize("ruleset", [{"edition": "dg-2009", "exclusive": "leyte"}, {"edition": "spi-1975", "exclusive": "leyte"},
                                     {"edition": "spi-1975"}])
def test_the_defense_choices_offered_are_those_validate_accepts(game, ruleset):
    """The page offers a defense key (facts' ``defense_choices``) if and only if the standing check accepts an entry of it
    (I1 for dg-2009, 13.13 for Ground Support as FPF under Leyte)."""
    from pbem.systems.spi.standing import open_choices, standing_problems
    from pbem.model.defense import Defense
    from pbem.model.ruleset import Ruleset
    from tests.play_game import planner_of

    base, turn = game
    planner = planner_of(turn, base / "us.key")
    rules = Ruleset(**ruleset)
    entries = {"fpf": [{"artillery": "us-13-art", "defender": "us-12-cav"}], "gsp_fpf": [{"defender": "us-12-cav", "points": 1}],
               "retreats": [{"unit": "us-12-cav", "path": ["2628"]}], "advances": [{"unit": "us-12-cav", "to": 1}]}
    offered = open_choices(rules)
    assert set(offered) == set(entries)
    for key, entry in entries.items():
        found = standing_problems(planner.board, rules, planner.state, "US", Defense(**{key: entry}))
        assert offered[key] == (not found), (key, found)
    assert offered["gsp_fpf"] == (ruleset == {"edition": "spi-1975"})


def test_a_reopened_page_says_its_orders_were_already_submitted(game, tmp_path):
    """Issue 38: a page opened again on a turn file already answered says so (revision, file, whom it went to)."""
    base, turn = game
    folder = tmp_path / "game"
    folder.mkdir()
    (folder / turn.name).write_bytes(turn.read_bytes())
    key = read_private(base / "us.key", None)
    first = Sitting.open(folder / turn.name, key, None)
    with TestClient(build_app(first, TOKEN), base_url="http://127.0.0.1") as c:
        assert '"submitted": null' in c.get(f"/{TOKEN}/").text
        post(c, "submit", {"document": {"moves": [], "attacks": []}})
    again = Sitting.open(folder / turn.name, key, None)
    with TestClient(build_app(again, TOKEN), base_url="http://127.0.0.1") as c:
        page = c.get(f"/{TOKEN}/").text
    facts = json.loads(page.split('id="pbem-play">')[1].split("</script>")[0])
    assert facts["submitted"]["revision"] == 1 and facts["submitted"]["file"] == "orders-0000-US.pbem"
    assert facts["submitted"]["to"].startswith("the referee") and "the judge" in facts["submitted"]["to"]  # both kinds of game
    assert "already submitted" in page  # the script's words, shown on load


def test_ctrl_c_between_the_address_and_uvicorns_start_asks_the_server_to_stop_and_is_not_lost():
    """Ctrl-C right after the address is printed once arrived while uvicorn was still importing as it started: Python
    dropped the KeyboardInterrupt there and the page never stopped.  From the address on, the signal asks the server
    to stop, whenever it comes; the handlers are put back after."""
    import uvicorn

    from pbem.web.serve import _stop_on_signal

    before = signal.getsignal(signal.SIGINT)
    server = uvicorn.Server(uvicorn.Config(lambda scope, receive, send: None, lifespan="off"))
    taken = _stop_on_signal(server)
    try:
        signal.raise_signal(signal.SIGINT)  # no KeyboardInterrupt: the server is asked to stop
        assert server.should_exit
    finally:
        for sig, handler in taken.items():
            signal.signal(sig, handler)
    assert signal.getsignal(signal.SIGINT) is before

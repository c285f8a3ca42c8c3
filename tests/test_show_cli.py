"""``pbem show`` and ``validate --explain`` as a player runs them, on a real game folder."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli import app

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = ROOT / "scenarios" / "test-skirmish.json"
LANDING = ('{"moves": [{"unit": "us-7cav", "enter": "1104", "path": []}, {"unit": "us-1-34", "enter": "1105", "path": []},'
           ' {"unit": "us-art-61", "enter": "1106", "path": []}]}')


def run(*args: str, expect: int = 0) -> str:
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exit_code == expect, result.output
    return result.output


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    base = tmp_path_factory.mktemp("show")
    for name in ("ref", "us", "jp"):
        run("keygen", name, "--dir", base, "--no-passphrase")
    run("new", SCENARIO, "--us", base / "us.pub", "--jp", base / "jp.pub", "--referee", base / "ref.pub",
        "--key", base / "ref.key", "--out", base / "game")
    orders = base / "landing.json"
    orders.write_text(LANDING)
    run("submit", orders, "--turn", base / "game" / "turn-0000.pbem", "--key", base / "us.key")
    run("adjudicate", base / "game" / "turn-0000.pbem", base / "game" / "orders-0000-US.pbem", "--key", base / "ref.key")
    return base


def test_show_prints_the_map_legend_and_units_in_plain_ascii(game):
    text = run("show", game / "game" / "turn-0001.pbem", "--key", game / "jp.key", "--plain")
    assert text.isascii()
    assert "Turn file 1, JP's view" in text and "N ^" in text
    assert "1104." in text and "C5-5" in text and "us-art-61      artillery  2-3-5/1-4    1106" in text
    assert "us-7cav moved" not in text and "us-7cav came in at 1104" in text


def test_show_around_a_hex_draws_only_its_neighbourhood(game):
    text = run("show", game / "game" / "turn-0001.pbem", "--key", game / "us.key", "--plain", "--around", "1104", "--radius", "1")
    map_part = text.split("\n\n")[0]
    assert "1104" in map_part and "1003" in map_part and "0101" not in map_part


def test_show_writes_the_svg_and_the_page(game, tmp_path):
    svg, page = tmp_path / "map.svg", tmp_path / "map.html"
    out = run("show", game / "game" / "turn-0001.pbem", "--key", game / "us.key", "--svg", svg, "--html", page, "--zoc")
    assert f"wrote {svg}" in out and f"wrote {page}" in out
    root = ET.parse(svg).getroot()
    assert root.tag.endswith("svg")
    assert "<script" in page.read_text() and "http://" not in page.read_text().replace("http://www.w3.org/2000/svg", "")
    run("show", game / "game" / "turn-0001.pbem", "--key", game / "us.key", "--svg", svg)  # a map may be redrawn
    assert not list(tmp_path.glob(".*.tmp"))


def test_show_names_a_bad_hex_and_exits_2(game):
    result = subprocess.run([sys.executable, "-m", "pbem", "show", str(game / "game" / "turn-0001.pbem"), "--key", str(game / "us.key"), "--around", "1399"],
                            capture_output=True, text=True)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "--around 1399 is not a hex of this 12x10 map" in result.stderr


def test_validate_explain_weighs_the_planned_attacks_on_the_players_own_view(game, tmp_path):
    orders = tmp_path / "jp.json"
    orders.write_text('{"moves": [{"unit": "jp-1-9", "path": ["1004"]}],'
                      ' "attacks": [{"attackers": ["jp-1-9"], "defenders": ["us-7cav", "us-1-34"]}]}')
    out = run("validate", orders, "--turn", game / "game" / "turn-0001.pbem", "--key", game / "jp.key", "--explain")
    assert "orders are valid" in out
    assert "attack 2 = jp-1-9 2" in out and "defense 7 = us-7cav 5 in 1104 + us-1-34 2 in 1105" in out
    assert "enemy's best FPF +3 = us-art-61 3" in out  # one battery, however many hexes are attacked (13.11)
    assert "without FPF: -5 -> column -6,5" in out and "with FPF:    -8 -> column -7" in out

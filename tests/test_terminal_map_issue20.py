"""The terminal map a player plans on (issue 20): it fits his terminal, --plain fits a mail, colours stay apart."""

from __future__ import annotations

import pytest
from rich.color import Color, ColorSystem

from pbem.render.scene import build_scene
from pbem.render.terminal import SIDE_STYLE, TERRAIN_STYLE, bands, fit, map_text, map_width, render_plain
from tests.bot_games import play_bot_game
from tests.games import run


@pytest.fixture(scope="module")
def leyte(tmp_path_factory):
    base = tmp_path_factory.mktemp("leyte")
    game = play_bot_game(base, "leyte-assault", player_turns=2, exits=False)
    return base, game / "turn-0002.pbem"


def _max_width(text: str) -> int:
    return max(len(line) for line in text.splitlines())


def test_plain_output_stays_within_76_columns_with_every_hex_in_one_part(leyte):
    base, turn = leyte
    status, out, _ = run("show", turn, "--key", base / "us.key", "--plain")
    assert status == 0 and _max_width(out) <= 76
    assert "Map, part 1 of" in out and "hex columns" in out
    from pbem.loading.turns import load_turn, scenario_of

    board = scenario_of(load_turn(turn)).board
    for h in ("0101", "2932", "1530", "2215"):
        assert out.count(h) >= 1
    numbers = [line for line in out.splitlines() if line[:4].strip().isdigit() or line.startswith("   ")]
    assert numbers


def test_the_terminal_map_fits_the_terminal_around_the_players_own_units(leyte, monkeypatch):
    base, turn = leyte
    for columns in (80, 120):
        monkeypatch.setenv("COLUMNS", str(columns))
        status, out, _ = run("show", turn, "--key", base / "us.key")
        assert status == 0
        drawn = out.split("N ^  (north is up)\n", 1)[1].split("\n\n", 1)[0]
        assert _max_width(drawn) <= columns
        assert "your units" in out and "--around HEX" in out and "--plain" in out and "--html" in out
        assert "I" in drawn or "C" in drawn  # American counters (upper case) are in the part drawn


def test_bands_and_fit_on_a_scene_keep_whole_cells():
    from tests.render_game import played_views

    board, views = played_views(1)
    scene = build_scene(views["US"], board)
    part, note = fit(scene, map_width(scene))
    assert part is scene and note is None
    small, note = fit(scene, 40)
    assert map_width(small) <= 40 and note and "your units" in note
    parts = bands(scene, 40)
    assert sorted(h for _, p in parts for h in p.shown) == sorted(scene.shown)
    assert all(map_width(p) <= 40 for _, p in parts)
    assert _max_width(render_plain(scene, 40)) <= 40
    assert map_text(parts[0][1]).plain.strip()


def test_terrain_and_side_colours_stay_distinct_in_256_and_in_16_colours():
    colours = [style.split()[-1] for style in list(TERRAIN_STYLE.values()) + list(SIDE_STYLE.values())]
    for system in (ColorSystem.EIGHT_BIT, ColorSystem.STANDARD):
        numbers = [Color.parse(c).downgrade(system).number for c in colours]
        assert len(set(numbers)) == len(numbers), f"{system}: {dict(zip(colours, numbers))}"

"""``pbem map check``: the shipped Leyte map passes; a damaged copy gets one line per problem and exit 2."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli import app

ROOT = Path(__file__).resolve().parent.parent
LEYTE = ROOT / "scenarios" / "leyte" / "map.json"


def check(*args: str):
    result = CliRunner().invoke(app, ["map", "check", *map(str, args)])
    return result.exit_code, result.output.strip().splitlines()


@pytest.fixture
def damaged(tmp_path):
    """A copy of the Leyte map to damage, in a folder of its own; returns (path, document, save)."""
    path = tmp_path / "map.json"
    document = json.loads(LEYTE.read_text(encoding="utf-8"))

    def save():
        path.write_text(json.dumps(document), encoding="utf-8")

    save()
    return path, document, save


def test_the_shipped_leyte_map_is_sound():
    code, lines = check(LEYTE)
    assert code == 0
    assert len(lines) == 1 and lines[0].startswith(f"{LEYTE}: ok (928 hexes")


def test_an_off_board_hex_is_named_with_its_field(damaged):
    path, document, save = damaged
    document["terrain"]["3001"] = "rough"
    document["sea"].append("0133")
    save()
    code, lines = check(path)
    assert code == 2
    assert lines == [
        f"{path}: terrain.3001: hex 3001 is off the 29x32 board",
        f"{path}: sea[{len(document['sea']) - 1}]: hex 0133 is off the 29x32 board",
    ]


def _river_across_two_hexes(document):
    document["rivers"].append(["1010", "1012"])
    return f"rivers[{len(document['rivers']) - 1}]: 1010 and 1012 are not adjacent, so they share no hexside"


def _gap_in_a_road(document):
    road = document["roads"][0]
    del road[3]
    return f"roads[0][3]: {road[2]} and {road[3]} are not adjacent, so the chain is broken there"


@pytest.mark.parametrize("damage", [_river_across_two_hexes, _gap_in_a_road], ids=["river", "road"])
def test_a_hexside_or_chain_between_hexes_that_do_not_touch(damaged, damage):
    path, document, save = damaged
    expected = damage(document)
    save()
    assert check(path) == (2, [f"{path}: {expected}"])


def test_a_set_up_hex_made_sea_is_reported_against_the_scenario(damaged):
    path, document, save = damaged
    scenario = path.parent / "assault.json"
    scenario.write_text(json.dumps({"id": "assault", "map": "map.json", "units": [
        {"id": "jp-3-9", "hex": "2626", "source": "16.12"},
        {"id": "us-7cav", "arrives": 1, "entry": "N", "source": "18.1"},
    ]}), encoding="utf-8")
    (path.parent / "other.json").write_text(json.dumps({"id": "other", "map": "elsewhere.json", "units": [{"hex": "2626"}]}))
    (path.parent / "notes.json").write_text("not json at all")
    document["sea"].append("2626")
    save()
    code, lines = check(path)
    assert code == 2
    assert lines == [f"{path}: {scenario}: units[0].hex: set-up hex of jp-3-9 (16.12): hex 2626 is an all-sea hex"]


def test_scenarios_are_looked_for_where_told(damaged, tmp_path):
    path, document, save = damaged
    elsewhere = tmp_path / "scenarios"
    elsewhere.mkdir()
    (elsewhere / "s.json").write_text(json.dumps({"map": "../map.json", "units": [{"id": "u", "hex": "0101"}]}))
    document["sea"].append("0101")
    document["areas"]["0001"].remove("0101")
    document["areas"]["0100"].remove("0101")
    save()
    assert check(path)[0] == 0  # not in the map's own folder
    code, lines = check(path, "--scenarios", elsewhere)
    assert code == 2 and lines == [f"{path}: {elsewhere / 's.json'}: units[0].hex: set-up hex of u: hex 0101 is an all-sea hex"]
    assert check(path, "--scenarios", tmp_path / "nowhere") == (2, [f"{path}: --scenarios: {tmp_path / 'nowhere'} is not a folder; give the folder holding the scenarios"])


def test_every_problem_is_listed_not_just_the_first(damaged):
    path, document, save = damaged
    document["terrain"]["0505"] = "jungle"
    document["prohibited"].append(["0101", "0303"])
    document["trails"].append(["0101", "0104"])
    document["beaches"].append("0104")
    document["exits"].append("2905")
    document["areas"]["N"].append("2529")
    document["places"]["Atlantis"] = "0205"
    save()
    code, lines = check(path)
    assert code == 2
    fields = [line.split(": ")[1] for line in lines]
    assert fields == [
        "terrain.0505", f"prohibited[{len(document['prohibited']) - 1}]",
        f"trails[{len(document['trails']) - 1}][1]", f"trails[{len(document['trails']) - 1}][1]",
        f"beaches[{len(document['beaches']) - 1}]", f"exits[{len(document['exits']) - 1}]",
        f"areas.N[{len(document['areas']['N']) - 1}]", "places.Atlantis",
    ]
    assert "terrain 'jungle' is not in the terrain key" in lines[0]
    assert lines[4].endswith("hex 0104 is an all-sea hex, but a beach (12.21) must be on land")


def test_schema_errors_are_every_one_with_its_path(damaged):
    path, document, save = damaged
    document["cols"] = "29"
    document["sea"][10] = 114
    document["sea"][2] = 104
    document["roads"][1] = ["2727"]
    document["colour"] = "green"
    save()
    code, lines = check(path)
    assert code == 2
    assert [line.split(": ")[1] for line in lines] == ["(top level)", "cols", "roads[1]", "sea[2]", "sea[10]"]


@pytest.mark.parametrize("text, expected", [
    ("{not json", "not valid JSON"),
    ("[1, 2]", "(top level): [1, 2] is not of type 'object'"),
])
def test_a_file_that_is_not_a_map_is_one_line(tmp_path, text, expected):
    path = tmp_path / "map.json"
    path.write_text(text, encoding="utf-8")
    code, lines = check(path)
    assert code == 2 and len(lines) == 1 and expected in lines[0] and lines[0].startswith(str(path))


def test_a_missing_file_as_a_user_runs_it(tmp_path):
    """End to end through the console entry point: one line, exit 2, no traceback."""
    missing = tmp_path / "nowhere.json"
    result = subprocess.run([sys.executable, "-m", "pbem", "map", "check", str(missing)], capture_output=True, text=True)
    assert result.returncode == 2
    assert result.stdout.strip() == f"{missing}: no such file"
    assert "Traceback" not in result.stderr

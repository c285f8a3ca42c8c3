"""The files of a game with hidden units and no referee against their schemas (issue 24; schemas/blind-*.schema.json).

The models in :mod:`pbem.model.blind` are the one source of the schemas
(tests/test_schemas.py keeps the committed files in step with them); every
file of a real game validates against its schema, read by plain jsonschema
as another program would; and a malformed file received — signed by its
writer, so that only its content is wrong — is refused with exit 2 naming
the file and the field, never a traceback.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pbem.protocol import blindfile
from tests.blind_games import begin, play_to_the_end, step
from tests.blind_games import resign as _resign
from tests.games import pbem

SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"


def _validator(name: str):
    from jsonschema import Draft202012Validator

    return Draft202012Validator(json.loads((SCHEMAS / name).read_text()))


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    players = begin(tmp_path_factory.mktemp("schemas"))
    play_to_the_end(players)
    jp = players["JP"]
    import re
    import shlex

    command = re.search(r"(pbem blind publish-secret [^;]+);", jp.status(code=1)).group(1)
    pbem(*shlex.split(command)[1:])
    return players


def test_every_file_of_a_played_game_validates_against_its_committed_schema(finished):
    jp = finished["JP"]
    kinds = {"genesis": _validator("blind-genesis.schema.json"), "publication": _validator("blind-publication.schema.json"),
             "answer": _validator("blind-answer.schema.json"), "secret": _validator("blind-secret.schema.json")}
    seen = set()
    for path in [*blindfile.numbered_files(jp.game), jp.game / blindfile.SECRET_NAME]:
        body = blindfile.read(path.read_text(), path.name).body
        kind = ("secret" if body["n"] == -1 else "genesis" if body["n"] == 0 else "answer" if body["n"] % 2 else "publication")
        errors = [e.message for e in kinds[kind].iter_errors(body)]
        assert not errors, (path.name, errors[:3])
        seen.add(kind)
        kinds_wrong = [k for k in kinds if k != kind and not list(kinds[k].iter_errors(body))]
        assert not kinds_wrong, (path.name, kinds_wrong)  # each schema says which file it is for
    assert seen == set(kinds)
    private = json.loads((jp.game / "blind-private-JP.json").read_text())
    assert not list(_validator("blind-private.schema.json").iter_errors(private))
    assert list(_validator("blind-private.schema.json").iter_errors({**private, "secret": 7}))


def _last(players, side: str) -> str:
    """Play until ``side`` has written a file (other than the genesis); its name."""
    while True:
        name = step(players)
        assert name is not None
        if name.endswith(f"-{side}.pbem"):
            return name


@pytest.mark.parametrize("side,change,field,words", [
    ("US", lambda body: body.pop("acks"), "(top level)", "'acks' is a required property"),
    ("JP", lambda body: body["publication"].update(seq=str(body["publication"]["seq"])), "publication.seq", "is not of type 'integer'"),
    ("US", lambda body: body.update(note="sent from my phone"), "(top level)", "('note' was unexpected)"),
    ("JP", lambda body: body["publication"]["before" if body["publication"]["before"] else "after"].append(
        {"marker": "0101", "index": 0, "size": 1, "piece": {}, "salt": "not base64!", "path": []}), "publication.", "does not match"),
], ids=["missing field", "wrong type", "extra field", "bad opening"])
def test_a_malformed_blind_file_is_refused_with_exit_2_naming_the_file_and_the_field(tmp_path, side, change, field, words):
    players = begin(tmp_path)
    name = _last(players, side)
    writer, reader = players[side], players["US" if side == "JP" else "JP"]
    _resign(reader.game / name, writer.key, change)  # signed by its writer: only the content is wrong
    for command in (("verify", reader.game), ("blind", "next", reader.game, "--key", reader.key, "--bot", "greedy"),
                    ("status", reader.game, "--key", reader.key), ("audit", reader.game)):
        said = pbem(*command, code=2)
        assert f"{reader.game / name}: {field}" in said and words in said, (command, said)
        assert "blind-" in said and "schema.json" in said, said


def test_a_damaged_private_file_is_refused_naming_it_and_the_field(tmp_path):
    players = begin(tmp_path)
    jp = players["JP"]
    step(players)  # the US answer: the Japanese player writes next
    private = jp.game / "blind-private-JP.json"
    doc = json.loads(private.read_text())
    private.write_text(json.dumps({**doc, "secret": 12345}))
    said = pbem("blind", "next", jp.game, "--key", jp.key, "--bot", "greedy", code=2)
    assert f"{private}: secret: 12345 is not of type 'string'" in said and "restore it from your backup" in said


def test_a_malformed_published_secret_is_refused_naming_the_field(finished, tmp_path):
    import shutil

    us = finished["US"]
    folder = tmp_path / "us"
    shutil.copytree(us.game, folder)
    finished["JP"].mail(blindfile.SECRET_NAME, type("To", (), {"game": folder})())
    _resign(folder / blindfile.SECRET_NAME, finished["JP"].key, lambda body: body["orders"].update(first={}))
    said = pbem("audit", folder, code=2)
    assert f"{folder / blindfile.SECRET_NAME}: orders" in said and "first" in said, said

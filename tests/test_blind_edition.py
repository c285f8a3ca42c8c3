"""Hidden units with no referee in either edition and with a Ground Support track of the players' own (I1, 11.0).

The Japanese player's genesis records the edition and the track, signed, as a
referee's genesis does; both players and the audit play by what it records.
A Japanese player who adjudicates by another edition than the one he
recorded is caught at the audit, which replays every step by the recorded
one.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pbem.bot.blind_demo import run_blind_demo
from pbem.game.modes.blind import files as blind_files, run as br
from pbem.protocol.passphrase import open_key
from pbem.protocol import blindfile
from tests.games import pbem

GREEDY = {"US": "greedy", "JP": "greedy"}


def _keys(base: Path) -> tuple[Path, Path, Path]:
    for name in ("us", "jp"):
        pbem("keygen", name, "--dir", base, "--no-passphrase")
    return base / "us.pub", base / "jp.pub", base / "jp.key"


def test_the_genesis_records_the_edition_and_the_game_is_played_and_audited_by_it(tmp_path):
    done = run_blind_demo("test-skirmish", tmp_path / "g", policies=GREEDY, seed=1, edition="spi-1975")
    assert not done.verify_findings and not done.audit_findings
    held = blind_files.load(done.folders["US"])
    assert held.messages[0].body["edition"] == "spi-1975"
    assert held.record.ruleset["edition"] == "spi-1975" and held.record.ruleset["exclusive"] == "leyte"
    assert "audited" in pbem("audit", done.folders["US"])


def test_a_game_adjudicated_by_another_edition_than_recorded_is_caught_at_the_audit(tmp_path, monkeypatch):
    true_ruleset_of = br.ruleset_of

    def dg_always(loaded, edition):  # a modified pbem: whatever the genesis records, it plays dg-2009's rules
        return true_ruleset_of(loaded, "dg-2009")

    for seed in range(1, 8):  # a game where the two editions part (dg-2009 decides for the non-phasing player)
        with monkeypatch.context() as m:
            m.setattr(br, "ruleset_of", dg_always)
            done = run_blind_demo("test-skirmish", tmp_path / str(seed), policies=GREEDY, seed=seed, edition="spi-1975")
        held = blind_files.load(done.folders["US"])
        assert held.messages[0].body["edition"] == "spi-1975"
        assert not blind_files.findings(held), "the American player cannot tell at once: the hidden side is not his"
        found = blind_files.audit_findings(held)
        if found:
            break
    else:
        pytest.fail("no game where the editions part")
    assert found[0].cheater == "JP" and found[0].when == br.AT_AUDIT, found
    said = pbem("audit", done.folders["US"], code=1)
    assert "AUDIT FAILED" in said and "JP" in said and f"step {found[0].seq}" in said


def test_pbem_new_records_the_edition_and_a_ground_support_track(tmp_path):
    us, jp, jp_key = _keys(tmp_path)
    track = [{"turn": t, "US": 0, "JP": 0, "source": "house rule: no ground support"} for t in range(1, 9)]
    gsp = tmp_path / "gsp.json"
    gsp.write_text(json.dumps(track))
    pbem("new", "leyte-assault", "--us", us, "--jp", jp, "--key", jp_key, "--out", tmp_path / "g",
         "--no-referee", "--option", "hidden-units", "--edition", "spi-1975", "--gsp", gsp)
    held = blind_files.load(tmp_path / "g")
    assert held.messages[0].body["edition"] == "spi-1975"
    assert [(g.turn, g.US, g.JP) for g in held.loaded.scenario.ground_support] == [(t, 0, 0) for t in range(1, 9)]
    us_folder = tmp_path / "us-game"
    us_folder.mkdir()
    shutil.copy(tmp_path / "g" / blindfile.file_name(0), us_folder)
    said = pbem("status", us_folder, "--key", tmp_path / "us.key")  # he sees what he is asked to play by
    assert "leyte-assault (spi-1975, its own Ground Support track)" in said
    said = pbem("blind", "next", us_folder, "--key", tmp_path / "us.key")
    assert "blind-0001-US.pbem" in said


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """A game with hidden units and no referee, played once for the tests below (they read its genesis and JP's key)."""
    base = tmp_path_factory.mktemp("demo") / "g"
    return run_blind_demo("test-skirmish", base, policies=GREEDY, seed=0), base


@pytest.mark.parametrize("edition", ["spi-1976", 3, None])
def test_a_genesis_naming_an_edition_pbem_does_not_play_is_refused_naming_the_field(tmp_path, demo, edition):
    done, base = demo
    folder = tmp_path / "copy"
    folder.mkdir()
    genesis = done.folders["US"] / blindfile.file_name(0)
    message = blindfile.read(genesis.read_text(), str(genesis))
    body = {k: v for k, v in message.body.items() if k not in ("format", "mode")} | {"edition": edition}
    jp = open_key(base / "jp.key", None)
    (folder / blindfile.file_name(0)).write_text(blindfile.write(jp, body))
    said = pbem("verify", folder, code=2)
    assert blindfile.file_name(0) in said and "edition" in said  # the file and the field (the schema's words, or pbem's:)
    assert edition is not None or ("dg-2009" in said and "spi-1975" in said)

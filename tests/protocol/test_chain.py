import base64

import pytest

from pbem.errors import VerificationFailed
from pbem.protocol import chain, dice, keys
from pbem.protocol.files import write_new


def texts(game):
    return [turn.text for turn in game.turns]


def test_a_good_game_verifies(played, tmp_path):
    for turn in played.turns:
        write_new(tmp_path / f"turn-{turn.seq}.txt", turn.text)
    write_new(tmp_path / "notes.txt", "not a turn file")
    (tmp_path / "picture.bin").write_bytes(b"\xff\xfe binary")
    write_new(tmp_path / "copy-of-1.txt", "> " + played.turns[1].text.replace("\n", "\n> "))  # quoted duplicate
    report = chain.verify_chain(tmp_path)
    assert report.ok, report.render()
    assert [t.seq for t in report.turns] == [0, 1, 2, 3]
    assert "no problems" in report.render()
    report.raise_if_bad()


def test_equivocation_reports_both_files(played, parties, resigner):
    rival = resigner(played.turns[2], parties.ref, lambda body: body["public"].update(to_move="JP"))
    report = chain.verify_chain(texts(played) + [rival])
    equivocations = [f for f in report.findings if "equivocation" in f.problem]
    assert len(equivocations) == 2 and {f.seq for f in equivocations} == {2}
    assert {f.file for f in equivocations} == {"turn text 3", "turn text 5"}
    assert all(played.turns[2].digest in f.problem for f in equivocations)
    assert not report.ok


def test_missing_turn_is_a_gap(played):
    report = chain.verify_chain([played.turns[0].text, played.turns[1].text, played.turns[3].text])
    assert any("seq 2 is missing" in f.problem for f in report.findings)
    assert report.first_bad == "turn text 3"


def test_broken_hash_chain(played, parties, resigner):
    relinked = resigner(played.turns[2], parties.ref, lambda body: body.update(prev="sha256:" + "0" * 64))
    report = chain.verify_chain([played.turns[0].text, played.turns[1].text, relinked])
    assert any("broken hash chain" in f.problem for f in report.findings)


def test_wrong_seed_is_caught(played, parties, resigner):
    other_seed = base64.b64encode(dice.new_seed()).decode()

    def swap_seed(body):
        body["dice"]["revealed_seed"] = other_seed
        seed, salt = base64.b64decode(other_seed), base64.b64decode(body["dice"]["salt"])
        values = dice.recompute(seed, salt, [r["purpose"] for r in body["dice"]["rolls"]])
        for roll, value in zip(body["dice"]["rolls"], values):
            roll["value"] = value  # rolls consistent with the new seed: only the commitment betrays it

    report = chain.verify_chain(texts(played)[:2] + [resigner(played.turns[2], parties.ref, swap_seed)])
    problems = [f for f in report.findings if f.seq == 2]
    assert len(problems) == 1 and "does not match the commitment" in problems[0].problem
    assert report.first_bad == "turn text 3"


def test_wrong_roll_is_caught(played, parties, resigner):
    def change_roll(body):
        roll = body["dice"]["rolls"][1]
        roll["value"] = roll["value"] % 6 + 1

    report = chain.verify_chain(texts(played)[:2] + [resigner(played.turns[2], parties.ref, change_roll)])
    assert [f.problem for f in report.findings if "roll 2" in f.problem]
    with pytest.raises(VerificationFailed) as caught:
        report.raise_if_bad()
    assert caught.value.file == "turn text 3"


def test_replayed_orders_in_the_chain(played, parties, resigner):
    def replay(body):
        body["orders"] = played.turns[1].orders_header
        body["dice"]["salt"] = played.turns[1].body["dice"]["salt"]

    report = chain.verify_chain(texts(played)[:2] + [resigner(played.turns[2], parties.ref, replay)])
    problems = " ".join(f.problem for f in report.findings)
    assert "same orders" in problems and "same dice salt" in problems


def test_forged_and_unreadable_files_are_named(played, parties, resigner):
    forged = resigner(played.turns[2], parties.us, lambda body: None)
    damaged = played.turns[3].text.replace("A", "B", 1)
    report = chain.verify_chain(texts(played)[:2] + [forged, damaged])
    by_file = {f.file: f.problem for f in report.findings}
    assert "not by" in by_file["turn text 3"]
    assert "unreadable" in by_file["turn text 4"]
    assert report.first_bad == "turn text 4"  # unreadable files come first: their seq is unknown


def test_pinned_referee(played):
    report = chain.verify_chain(texts(played), referee=keys.generate("umpire").public)
    assert len(report.findings) == len(played.turns)
    assert all("as referee" in f.problem for f in report.findings)


def test_files_from_another_game(played, new_game):
    other = new_game()
    other.play(1)
    report = chain.verify_chain(texts(played)[:1] + texts(other)[1:])
    problems = " ".join(f.problem for f in report.findings)
    assert "belongs to game" in problems and "broken hash chain" in problems


def test_damaged_file_in_a_folder_is_named(played, tmp_path):
    for turn in played.turns:
        write_new(tmp_path / f"turn-{turn.seq}.txt", turn.text)
    path = tmp_path / "turn-2.txt"
    data = bytearray(path.read_bytes())
    data[200] = 0xFF  # not UTF-8 any more
    path.write_bytes(bytes(data))
    report = chain.verify_chain(tmp_path)
    assert report.first_bad == str(path) and "unreadable" in report.findings[0].problem

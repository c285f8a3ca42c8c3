"""A wrong passphrase at the prompt is asked again, up to three tries, never sent back to the shell (issue 20).

Exiting on the first wrong passphrase with "type the passphrase again" made
the player type it again into his shell, where it lands in the history.
"""

from __future__ import annotations

import getpass
import io
import sys

import pytest

from pbem.protocol.passphrase import TRIES
from tests.games import cheaper_key, run

GOOD = "correct horse battery"


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def protected(tmp_path, monkeypatch):
    monkeypatch.setenv("PBEM_PASSPHRASE", GOOD)
    assert run("keygen", "alice", "--dir", tmp_path)[0] == 0
    cheaper_key(tmp_path / "alice.key", GOOD)  # each try derives at a test's cost; the prompting is the same
    monkeypatch.delenv("PBEM_PASSPHRASE")
    monkeypatch.setattr(sys, "stdin", _Terminal())
    return tmp_path / "alice.key"


def _typed(monkeypatch, answers: list[str]) -> list[str]:
    asked: list[str] = []

    def prompt(text: str = "") -> str:
        asked.append(text)
        return answers.pop(0)

    monkeypatch.setattr(getpass, "getpass", prompt)
    return asked


def test_a_wrong_passphrase_is_asked_again_saying_how_many_tries_are_left(protected, monkeypatch):
    asked = _typed(monkeypatch, ["wrong one", "wrong two", GOOD])
    _status, out, err = run("status", protected.parent, "--key", protected)
    assert len(asked) == 3
    assert f"wrong passphrase: {TRIES - 1} tries left" in err and f"wrong passphrase: {TRIES - 2} try left" in err
    assert "no game here" in out  # the key opened: status went on to read the (empty) folder


def test_three_wrong_passphrases_stop_without_sending_the_player_back_to_type_it(protected, monkeypatch):
    asked = _typed(monkeypatch, ["one", "two", "three", "never asked"])
    status, _out, err = run("status", protected.parent, "--key", protected)
    assert status == 2 and len(asked) == TRIES
    assert f"wrong passphrase {TRIES} times" in err and "type the passphrase again" not in err
    assert "run the command again" in err


def test_a_wrong_passphrase_from_the_environment_names_the_variable(protected, monkeypatch):
    monkeypatch.setenv("PBEM_PASSPHRASE_ALICE", "not it at all")
    asked = _typed(monkeypatch, [])
    status, _out, err = run("status", protected.parent, "--key", protected)
    assert status == 2 and not asked
    assert "PBEM_PASSPHRASE_ALICE" in err and "type the passphrase again" not in err

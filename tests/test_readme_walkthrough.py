"""The README's "Playing by e-mail" walkthrough, followed literally by a script, plays a Game-Turn with real moves.

Issue 20: followed literally, the walkthrough once signed and submitted the
untouched orders template — a player-turn in which nobody moved.  Here every
command of steps 1 to 4 runs as printed (step 1 for each of the three
people; steps 3 and 4 again for the Japanese player, as step 5 says, with
his key and the next turn file), then the "anyone, at any time" checks.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

from tests.games import cheaper_key, run

ROOT = Path(__file__).resolve().parent.parent


def _blocks() -> dict[str, list[str]]:
    """The ``sh`` blocks of the walkthrough by the step that introduces them, each a list of commands."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Playing by e-mail", 1)[1].split("\n## ", 1)[0]
    found: dict[str, list[str]] = {}
    for chunk in re.split(r"\n(?=\*\*)", section):
        header = re.match(r"\*\*(\d\.|Anyone, at any time,)", chunk)
        block = re.search(r"```sh\n(.*?)```", chunk, flags=re.S)
        if header and block:
            found[header.group(1)] = [line.split("  #")[0].strip() for line in block.group(1).splitlines() if line.strip()]
    return found


def _run(line: str, cwd: Path) -> str:
    """The command as printed, through pbem's own entry point in this process (the process itself, its
    launcher and its encodings, are ``test_installed_package.py``'s and ``test_platforms.py``'s)."""
    words = shlex.split(line)
    assert words[0] == "pbem", line
    status, out, err = run(*words[1:], cwd=cwd)
    assert "Traceback" not in err, err
    assert status == 0, f"{line} -> {status}\n{out}\n{err}"
    return out


def test_the_walkthrough_followed_literally_plays_a_game_turn_that_verifies(tmp_path, monkeypatch):
    blocks = _blocks()
    assert {"1.", "2.", "3.", "4.", "Anyone, at any time,"} <= set(blocks)
    passphrase = "a passphrase for the walkthrough"
    monkeypatch.setenv("PBEM_PASSPHRASE", passphrase)
    [keygen] = blocks["1."]
    for name in ("alice", "bob", "ref"):  # "Everyone makes an identity"
        _run(keygen.replace("alice", name), tmp_path)
        cheaper_key(tmp_path / f"{name}.key", passphrase)  # the same passphrase, opened in milliseconds by the steps after
    for line in blocks["2."]:
        _run(line, tmp_path)
    for seq, (player, side) in enumerate([("alice", "US"), ("bob", "JP")]):
        def turn(line: str) -> str:  # the same step for this player and this turn file
            line = re.sub(r"\b(\d{4})\b", lambda m: f"{int(m.group(1)) + seq:04d}", line)
            return line.replace("alice", player).replace("-US", f"-{side}")

        for line in blocks["3."] + blocks["4."]:
            _run(turn(line), tmp_path)
        record = json.loads(_run(f"pbem view game/turn-{seq + 1:04d}.pbem --key ref.key --json", tmp_path))
        moved = [e for e in record["last"]["events"] if e["type"] in ("moved", "entered")]
        assert record["last"]["valid"] and moved, f"{side}'s player-turn moved nobody"
    for line in blocks["Anyone, at any time,"]:
        _run(line, tmp_path)
    assert (tmp_path / "game" / "turn-0002.pbem").exists()

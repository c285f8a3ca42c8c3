"""Issue 19, item 9: pbem's canonical JSON is RFC 8785 (JCS) restricted to what pbem writes.

Every signed or sealed document kind of a real game is compared byte for
byte with an independent implementation (the ``rfc8785`` package), and
anything outside the common subset (a fraction other than a half, an
integer JCS would write as a float, a key whose order differs between UTF-16 and code points) is
refused on reading with an error naming it, and never written.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import rfc8785
from hypothesis import example, given, strategies as st

from pbem.errors import BadInput
from pbem.protocol.canonical import MAX_SAFE_INTEGER, NotCanonical, canonical_bytes, parse_canonical

subset_values = st.recursive(
    st.none() | st.booleans() | st.integers(-MAX_SAFE_INTEGER, MAX_SAFE_INTEGER)
    | st.integers(-(2**51), 2**51 - 1).map(lambda n: n + 0.5) | st.text(st.characters(codec="utf-8")),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(st.characters(max_codepoint=0xFFFF, codec="utf-8"), max_size=8), children, max_size=4),
    max_leaves=20,
)


@given(subset_values)
def test_canonical_json_is_rfc_8785_on_the_whole_subset(value):
    assert canonical_bytes(value) == rfc8785.dumps(value)


def _heads(folder: Path):
    """(file, what, JSON bytes) of every armoured file's canonical JSON part in ``folder``."""
    from pbem.protocol.armour import dearmour

    for path in sorted(folder.iterdir()):
        text = path.read_text()
        kind = next((k for k in ("TURN", "ORDERS", "REVEAL") if f"BEGIN PBEM {k}" in text), None)
        if kind is None:
            continue
        _, _, payload = dearmour(text, kind, str(path))
        yield path.name, kind, payload.partition(b"\n")[0]


def test_every_signed_and_sealed_document_of_a_game_is_what_rfc_8785_writes(tmp_path):
    from pbem.loading.turns import load_turn
    from pbem.game.adjudication import adjudicate_orders
    from pbem.game.modes.referee.reveal import referee_reveal, reveal_text
    from pbem.protocol.files import write_new
    from pbem.protocol.ordersfile import build_orders_for_turn, open_orders_for_turn
    from pbem.protocol.turnfile import open_referee_state, open_view
    from tests.games import LANDING, small_game

    ids = small_game(tmp_path)
    folder = tmp_path / "game"
    genesis = load_turn(folder / "turn-0000.pbem")
    sent = build_orders_for_turn(ids["us"], genesis, "US", LANDING)
    write_new(folder / "orders-0000-US.pbem", sent.text)
    done = adjudicate_orders(genesis, sent.text, "orders", ids["ref"])
    write_new(folder / "turn-0001.pbem", done.turn.text)
    write_new(folder / "reveal.pbem", reveal_text(referee_reveal(folder, ids["ref"]), ids["ref"]))
    kinds = set()
    for name, kind, head in _heads(folder):
        kinds.add(kind)
        assert rfc8785.dumps(json.loads(head)) == head, name
    assert kinds == {"TURN", "ORDERS", "REVEAL"}
    sealed = [open_orders_for_turn(sent.text, genesis, ids["ref"], source="o").orders]
    for path in sorted(folder.glob("turn-*.pbem")):
        turn = load_turn(path)
        sealed += [open_view(turn, "US", ids["us"]), open_view(turn, "JP", ids["jp"]), open_referee_state(turn, ids["ref"]).state]
    for document in sealed:
        assert canonical_bytes(document) == rfc8785.dumps(document)


def test_a_two_player_game_file_is_what_rfc_8785_writes(tmp_path):
    from tests.games import run

    for name in ("us", "jp"):
        assert run("keygen", name, "--dir", tmp_path, "--no-passphrase")[0] == 0
    status, out, err = run("new", "test-skirmish", "--us", tmp_path / "us.pub", "--jp", tmp_path / "jp.pub",
                           "--no-referee", "--key", tmp_path / "jp.key", "--out", tmp_path / "g")
    assert status == 0, err
    heads = list(_heads(tmp_path / "g"))
    assert heads
    for name, _kind, head in heads:
        assert rfc8785.dumps(json.loads(head)) == head, name


@pytest.mark.parametrize("data, words", [
    (b'{"a":1.25}', "1.25"),
    (b'{"a":1.0}', "1.0"),
    (b'{"a":1e3}', "1e3"),
    (b'[9007199254740992]', "9007199254740992"),
    (b'[-9007199254740992]', "9007199254740992"),
    ('{"\U0001F600":1,"\uFB01":2}'.encode(), "U+1F600"),
])
def test_reading_refuses_what_lies_outside_the_common_subset(data, words):
    with pytest.raises(BadInput) as caught:
        parse_canonical(data, source="x.pbem")
    assert caught.value.file == "x.pbem" and words in caught.value.message and "RFC 8785" in caught.value.message


@pytest.mark.parametrize("bad", [{"a": 1.25}, [1.0], [2**53], {"\U0001F600": 1}])
def test_writing_refuses_what_lies_outside_the_common_subset(bad):
    with pytest.raises(NotCanonical):
        canonical_bytes(bad)


def test_a_reveal_file_holding_a_float_is_bad_input_naming_it(tmp_path):
    from pbem.protocol.armour import armour
    from tests.games import run, small_game

    small_game(tmp_path)
    record = b'{"by":"referee","format":"pbem-reveal-1","game":"00","turns":[{"seq":0.25}]}'
    (tmp_path / "reveal.pbem").write_text(armour("REVEAL", record, {"Game": "00"}))
    status, _out, err = run("audit", tmp_path / "game", "--reveal", tmp_path / "reveal.pbem")
    assert status == 2 and "reveal.pbem" in err and "RFC 8785" in err and "Traceback" not in err


_digit_strings = st.sampled_from(["sha256:", ":", ",", "[", "-", "x"]).flatmap(
    lambda head: st.integers(10**15, 10**20).map(lambda n: f"{head}{n}"))  # a long run of digits inside a string
_wide_values = st.recursive(
    st.integers(-(2**60), 2**60) | _digit_strings | st.booleans(),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(_digit_strings | st.text(st.characters(max_codepoint=0xFFFF, codec="utf-8"), max_size=2), children, max_size=3),
    max_leaves=10,
)


def _too_large(value) -> bool:
    if isinstance(value, dict):
        return any(_too_large(v) for v in value.values())
    if isinstance(value, list):
        return any(_too_large(v) for v in value)
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_SAFE_INTEGER


@given(_wide_values)
@example([0, 2**60])
@example({"a": "sha256:12345678901234567", "b": [True, -(2**53)]})
@example(["sha256:12345678901234567", 2**53 - 1])
def test_an_integer_too_large_is_refused_wherever_it_stands_and_digits_inside_strings_are_not(value):
    """The quick scan for a too-large integer (16 digits where a number starts) misses none and refuses no string."""
    written = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    if _too_large(value):
        with pytest.raises(NotCanonical):
            canonical_bytes(value)
        with pytest.raises(BadInput):
            parse_canonical(written, source="x.pbem")
    else:
        assert canonical_bytes(value) == written and parse_canonical(written, source="x.pbem") == value


_astral_texts = st.text(st.sampled_from(["a", "é", "\uffff", "\U0001F600", "\U0010FFFF"]), max_size=3)
_astral_values = st.recursive(
    st.integers(-9, 9) | _astral_texts,
    lambda children: st.lists(children, max_size=3) | st.dictionaries(_astral_texts, children, max_size=3),
    max_leaves=10,
)


def _wide_key(value) -> bool:
    if isinstance(value, dict):
        return any(any(ord(ch) > 0xFFFF for ch in key) or _wide_key(v) for key, v in value.items())
    return isinstance(value, list) and any(_wide_key(v) for v in value)


@given(_astral_values)
@example(["\U0001F600", {"a": {"\U0001F600": 1}}])
def test_a_character_beyond_u_ffff_is_refused_in_a_key_and_written_in_a_text(value):
    if _wide_key(value):
        with pytest.raises(NotCanonical, match="beyond U\\+FFFF"):
            canonical_bytes(value)
    else:
        assert canonical_bytes(value) == json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()

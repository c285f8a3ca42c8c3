import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbem.errors import BadInput
from pbem.protocol.canonical import (
    NotCanonical, b64d, b64e, canonical_bytes, digest, is_digest, parse_canonical, sha256_hex,
)

json_values = st.recursive(  # the subset pbem writes (RFC 8785 without floats: tests/protocol/test_jcs.py)
    st.none() | st.booleans() | st.integers(-(2**53 - 1), 2**53 - 1) | st.text(),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(st.characters(max_codepoint=0xFFFF, codec="utf-8"), max_size=8), children, max_size=4),
    max_leaves=20,
)


def test_known_bytes():
    assert canonical_bytes({"b": 1, "a": [True, None, "é\n"]}) == '{"a":[true,null,"é\\n"],"b":1}'.encode()


def test_key_order_does_not_matter():
    assert canonical_bytes({"x": 1, "y": {"b": 2, "a": 1}}) == canonical_bytes({"y": {"a": 1, "b": 2}, "x": 1})


@given(json_values)
def test_round_trip_and_stability(value):
    data = canonical_bytes(value)
    assert parse_canonical(data) == value
    assert canonical_bytes(json.loads(data)) == data
    assert digest(value) == "sha256:" + sha256_hex(data)
    assert is_digest(digest(value))


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), {1: "x"}, {"a": {(1, 2): 3}}, {1, 2}, b"bytes"])
def test_rejects_what_json_cannot_carry(bad):
    with pytest.raises(NotCanonical):
        canonical_bytes(bad)


@pytest.mark.parametrize(
    "data",
    [b'{"a": 1}', b'{"b":1,"a":2}', b'{"a":1,"a":1}', b"NaN", b'{"a":NaN}', b"\xff", b'"\\ud800"', b"", b"[1,]"],
)
def test_parse_refuses_non_canonical(data):
    with pytest.raises(BadInput) as caught:
        parse_canonical(data, source="x.txt")
    assert caught.value.file == "x.txt"


@pytest.mark.parametrize("data, words", [
    (b'{"a":1,"a":1}', "key 'a' appears twice"),
    (b'{"a":NaN}', "NaN is not allowed"),
    (b'"\\ud800"', "cannot be written as canonical JSON"),
    (b'{"a": 1}', "not in canonical JSON form"),
    (b"\xff", "not valid JSON"),
])
def test_parse_names_what_is_not_canonical(data, words):
    """The quick reading of canonical bytes leaves every refusal to the checking road, with its own words."""
    with pytest.raises(BadInput) as caught:
        parse_canonical(data, source="x.txt")
    assert words in caught.value.message


@given(st.binary(max_size=64))
def test_b64_round_trip(data):
    assert b64d(b64e(data)) == data


@pytest.mark.parametrize("bad", ["QR==", "QQ", "Q Q==", "!!!!", "QQ==\n", 5, None, "é"])
def test_b64_is_strict(bad):
    with pytest.raises(BadInput) as caught:
        b64d(bad, source="f", field="dice.salt")
    assert caught.value.field == "dice.salt"

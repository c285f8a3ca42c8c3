import copy

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbem.errors import BadInput, VerificationFailed
from pbem.protocol import keys, signing
from pbem.protocol.canonical import canonical_bytes, parse_canonical


@pytest.fixture(scope="module")
def signer():
    return keys.generate("umpire")


def test_sign_and_verify(signer):
    envelope = signing.sign(signer, {"x": [1, 2]}, "turn")
    assert set(envelope) == {"body", "signer", "sig"}
    assert envelope["signer"] == signer.fingerprint
    assert signing.verify(envelope, signer.public, "turn") == {"x": [1, 2]}


def test_altered_body_fails(signer):
    envelope = signing.sign(signer, {"x": [1, 2]}, "turn")
    envelope["body"]["x"][1] = 3
    with pytest.raises(VerificationFailed) as caught:
        signing.verify(envelope, signer.public, "turn", source="t.txt")
    assert caught.value.exit_code == 1 and caught.value.file == "t.txt"


def test_other_context_fails(signer):
    envelope = signing.sign(signer, {"x": 1}, "orders")
    with pytest.raises(VerificationFailed):
        signing.verify(envelope, signer.public, "turn")


def test_other_key_fails(signer):
    impostor = keys.generate("umpire")
    envelope = signing.sign(impostor, {"x": 1}, "turn")
    with pytest.raises(VerificationFailed, match="not by"):
        signing.verify(envelope, signer.public, "turn")
    envelope["signer"] = signer.fingerprint  # lying about the signer does not help
    with pytest.raises(VerificationFailed, match="does not match"):
        signing.verify(envelope, signer.public, "turn")


@pytest.mark.parametrize(
    "mangle",
    [lambda e: e.pop("sig"), lambda e: e.update(extra=1), lambda e: e.update(sig="%%%"), lambda e: e.update(sig="QQ==")],
)
def test_malformed_envelope_is_bad_input(signer, mangle):
    envelope = copy.deepcopy(signing.sign(signer, {"x": 1}, "turn"))
    mangle(envelope)
    with pytest.raises(BadInput):
        signing.verify(envelope, signer.public, "turn")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53) + 1, 2**53 - 1) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(st.characters(max_codepoint=0xFFFF, exclude_categories=("Cs",)), max_size=6), inner, max_size=4),
    max_leaves=20,
)


@given(body=json_values)
def test_the_body_cut_from_the_envelope_bytes_is_the_body_written_out(body, signer):
    """Issue 26: a signature is checked over the body's bytes as read, which must be the bytes writing it gives."""
    envelope = signing.sign(signer, body, "turn")
    data = canonical_bytes(envelope)
    assert signing.body_bytes(data, parse_canonical(data)) == canonical_bytes(body)
    assert signing.verify(parse_canonical(data), signer.public, "turn", body_bytes=signing.body_bytes(data, envelope)) == body


def test_bytes_that_are_not_the_envelope_written_out_give_nothing_to_cut(signer):
    envelope = signing.sign(signer, {"a": 1}, "turn")
    data = canonical_bytes(envelope)
    assert signing.body_bytes(data, {**envelope, "extra": 1}) is None
    assert signing.body_bytes(data, {**envelope, "sig": "other"}) is None
    assert signing.body_bytes(b"[]", envelope) is None
    assert signing.body_bytes(data, [envelope]) is None


def test_a_changed_byte_of_the_body_as_read_fails_the_signature(signer):
    envelope = signing.sign(signer, {"a": 1}, "turn")
    with pytest.raises(VerificationFailed):
        signing.verify(envelope, signer.public, "turn", body_bytes=b'{"a":2}')

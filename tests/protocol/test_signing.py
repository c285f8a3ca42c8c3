import copy

import pytest

from pbem.errors import BadInput, VerificationFailed
from pbem.protocol import keys, signing


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

import os
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.errors import BadInput
from pbem.protocol import keys, sealing


@pytest.fixture(scope="module")
def us():
    return keys.generate("alice")


@pytest.fixture(scope="module")
def jp():
    return keys.generate("bob")


INFO = sealing.seal_info("view", {"game": "g", "seq": 1, "role": "US"})


def test_round_trip(us):
    sealed = sealing.seal(b"hidden units", us.public, INFO)
    assert sealing.open_sealed(sealed, us, INFO) == b"hidden units"


def test_buckets():
    assert [sealing.bucket_size(n) for n in (0, 1020, 1021, 2044, 2045, 5000)] == [1024, 1024, 2048, 2048, 4096, 8192]


@settings(max_examples=25)
@given(st.integers(0, 1020), st.integers(0, 1020))
def test_sizes_within_a_bucket_look_alike(us, a, b):
    assert len(sealing.seal(b"x" * a, us.public, INFO)) == len(sealing.seal(b"y" * b, us.public, INFO)) == 32 + 1024 + 16


def test_min_bucket_makes_items_alike(us):
    small = sealing.seal(b"x", us.public, INFO, min_bucket=4096)
    big = sealing.seal(os.urandom(3000), us.public, INFO)  # random bytes do not compress
    assert len(small) == len(big) == sealing.sealed_length(4096)
    assert sealing.open_sealed(small, us, INFO) == b"x"


def test_other_key_cannot_open(us, jp):
    sealed = sealing.seal(b"US secrets", us.public, INFO)
    with pytest.raises(BadInput) as caught:
        sealing.open_sealed(sealed, jp, INFO, what="the US view", sealed_to="US alice", source="turn-1.txt")
    message = caught.value.message
    assert "sealed to US alice" in message and "bob" in message and caught.value.file == "turn-1.txt"


def test_other_context_cannot_open(us):
    sealed = sealing.seal(b"US secrets", us.public, INFO)
    other = sealing.seal_info("view", {"game": "g", "seq": 2, "role": "US"})
    with pytest.raises(BadInput):
        sealing.open_sealed(sealed, us, other)


@pytest.mark.parametrize("mangle", [lambda c: c[:-1], lambda c: c[:40], lambda c: c[:100] + bytes([c[100] ^ 1]) + c[101:]])
def test_damage_cannot_open(us, mangle):
    with pytest.raises(BadInput):
        sealing.open_sealed(mangle(sealing.seal(b"data", us.public, INFO)), us, INFO)


def test_bad_padding_is_refused(us):
    padded = sealing.pad(b"abc")
    assert sealing.unpad(padded) == b"abc"
    assert sealing.unpad(padded[:-1] + b"\x01") is None
    assert sealing.unpad(b"\xff\xff\xff\xff" + padded[4:]) is None
    raw = sealing.SUITE.encrypt(padded[:-1] + b"\x01", us.public.seal_key, info=INFO)
    with pytest.raises(BadInput, match="padding"):
        sealing.open_sealed(raw, us, INFO)


def test_repetitive_content_is_compressed_before_padding(us):
    view = b'{"unit": "us-7cav", "hex": "0504"}' * 200  # 7 KB of JSON-like text
    assert len(sealing.seal(view, us.public, INFO)) == sealing.sealed_length(1024)
    assert sealing.open_sealed(sealing.seal(view, us.public, INFO), us, INFO) == view


def test_a_compression_bomb_is_refused(us):
    import zlib

    bomb = zlib.compress(b"\0" * (sealing.LARGEST_BUCKET + 1), 9)
    raw = sealing.SUITE.encrypt(sealing.pad(bomb), us.public.seal_key, info=INFO)
    with pytest.raises(BadInput):
        sealing.open_sealed(raw, us, INFO)

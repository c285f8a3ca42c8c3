import hashlib
import hmac

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbem.protocol import dice


def reference_rolls(seed: bytes, salt: bytes, count: int) -> list[int]:
    """The derivation exactly as the dice module's docstring states it."""
    values, counter = [], 0
    while len(values) < count:
        block = hmac.new(seed, b"pbem-v1/dice-stream\x00" + salt + counter.to_bytes(8, "big"), hashlib.sha256).digest()
        counter += 1
        for byte in block:
            if byte < 252 and len(values) < count:
                values.append(byte % 6 + 1)
    return values


def test_commitment():
    seed = dice.new_seed()
    assert len(seed) == 32
    commitment = dice.commit(seed)
    expected = "sha256:" + hashlib.sha256(b"pbem-v1/dice-commit\x00" + seed).hexdigest()
    assert commitment == expected
    assert dice.check_commitment(seed, commitment)
    assert not dice.check_commitment(dice.new_seed(), commitment)
    assert not dice.check_commitment(seed[:31], commitment)


@given(st.binary(min_size=32, max_size=32), st.binary(max_size=64), st.integers(1, 200))
def test_matches_the_documented_derivation(seed, salt, count):
    assert dice.recompute(seed, salt, ["p"] * count) == reference_rolls(seed, salt, count)


def test_deterministic_and_recorded():
    seed, salt = b"\x01" * 32, b"\x02" * 32
    stream = dice.DiceStream(seed, salt)
    values = [stream.roll(f"attack {i}") for i in range(10)]
    assert values == dice.recompute(seed, salt, [f"attack {i}" for i in range(10)])
    assert stream.rolls == [{"n": i + 1, "purpose": f"attack {i}", "value": v} for i, v in enumerate(values)]
    assert dice.recompute(seed, b"\x03" * 32, ["x"] * 10) != values
    assert isinstance(stream, dice.DiceSource)


def test_rejection_sampling_skips_high_bytes():
    # find a block containing a byte >= 252 and check it was skipped
    seed = b"\x07" * 32
    block = hmac.new(seed, b"pbem-v1/dice-stream\x00" + b"" + (0).to_bytes(8, "big"), hashlib.sha256).digest()
    accepted = [b % 6 + 1 for b in block if b < 252]
    assert dice.recompute(seed, b"", ["x"] * len(accepted)) == accepted


def test_roughly_uniform():
    values = dice.recompute(dice.new_seed(), dice.new_salt(), ["x"] * 60_000)
    assert set(values) == {1, 2, 3, 4, 5, 6}
    expected = len(values) / 6
    chi_square = sum((values.count(face) - expected) ** 2 / expected for face in range(1, 7))
    assert chi_square < 30  # 5 degrees of freedom: p < 2e-5 for a fair die


def test_needs_a_purpose_and_a_proper_seed():
    with pytest.raises(ValueError):
        dice.DiceStream(b"short", b"")
    with pytest.raises(ValueError):
        dice.DiceStream(b"\x00" * 32, b"").roll("")

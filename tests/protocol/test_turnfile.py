import base64

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.errors import BadInput, VerificationFailed
from pbem.protocol import dice, keys, sealing, turnfile
from pbem.protocol.armour import armour
from pbem.protocol.files import write_new


def test_genesis_reads_and_self_verifies(played, parties):
    genesis = turnfile.read_turn(played.turns[0].text)
    assert genesis.seq == 0 and genesis.prev is None and genesis.orders is None
    assert genesis.identities["referee"] == parties.ref.public
    assert genesis.dice.revealed_seed is None and genesis.dice.rolls == ()
    assert genesis.headers == {"Game": played.game, "Sequence": "0"}
    assert turnfile.turn_digest(genesis) == genesis.digest == turnfile.turn_digest(genesis.payload)


def test_later_turn_needs_the_referee(played, parties):
    with pytest.raises(BadInput, match="referee"):
        turnfile.read_turn(played.turns[2].text)
    turn = turnfile.read_turn(played.turns[2].text, parties.ref.public)
    assert turn.prev == played.turns[1].digest
    assert turn.orders == played.orders[1].digest


def test_wrong_referee_fails(played):
    with pytest.raises(VerificationFailed):
        turnfile.read_turn(played.turns[1].text, keys.generate("umpire").public)


def test_forged_by_someone_else(played, parties, resigner):
    forged = resigner(played.turns[1], parties.us, lambda body: body["public"].update(to_move="US"))
    with pytest.raises(VerificationFailed):
        turnfile.read_turn(forged, parties.ref.public)


def test_read_from_path(tmp_path, played, parties):
    path = tmp_path / "turn-1.txt"
    write_new(path, played.turns[1].text)
    turn = turnfile.read_turn(path, parties.ref.public)
    assert turn.source == str(path) and turn.digest == played.turns[1].digest


def test_each_side_opens_only_its_own_view(played, parties):
    turn = played.turns[1]
    assert turnfile.open_view(turn, "US", parties.us) == {"units": ["US-1"], "seq": 1}
    assert turnfile.open_view(turn, "JP", parties.jp) == {"units": ["JP-1", "JP-2"]}
    with pytest.raises(BadInput) as caught:
        turnfile.open_view(turn, "US", parties.jp)
    assert "sealed to US" in caught.value.message and "bob" in caught.value.message
    # even without the friendly pre-check, the JP key cannot open the US view
    with pytest.raises(BadInput):
        sealing.open_sealed(turn.views["US"], parties.jp, turnfile.view_info(turn.game, turn.seq, "US"))
    with pytest.raises(BadInput):
        turnfile.open_view(turn, "US", parties.ref)


def test_views_look_alike(played):
    for turn in played.turns:
        assert len(turn.views["US"]) == len(turn.views["JP"])


def test_view_pasted_from_another_turn_does_not_open(played, parties, resigner):
    pasted = resigner(played.turns[2], parties.ref, lambda body: None, {"views.US": played.turns[1].views["US"]})
    turn = turnfile.read_turn(pasted, parties.ref.public)  # validly signed by a careless referee …
    with pytest.raises(VerificationFailed):
        turnfile.open_view(turn, "US", parties.us)  # … but the view is bound to turn 1


def test_referee_state_and_commitments(played, parties):
    turn = played.turns[2]
    secret = turnfile.open_referee_state(turn, parties.ref)
    assert secret.state == {"turn": 2}
    assert turnfile.check_state_commitment(secret.nonce, secret.state, turn.state_commitment)
    assert not turnfile.check_state_commitment(secret.nonce, {"turn": 3}, turn.state_commitment)
    assert played.turns[3].dice.revealed_seed == secret.next_seed
    with pytest.raises(BadInput):
        turnfile.open_referee_state(turn, parties.us)


def test_header_edited_with_fresh_checksum(played, parties):
    turn = played.turns[1]
    relabelled = armour("TURN", turn.payload, {"Game": turn.game, "Sequence": "7"})
    with pytest.raises(BadInput, match="header says Sequence: 7"):
        turnfile.read_turn(relabelled, parties.ref.public)


def flipped_texts(text: str, mask: int):
    data = text.encode()
    for position in range(len(data)):
        flipped = bytearray(data)
        flipped[position] ^= mask
        yield position, bytes(flipped)


def read_bytes_as_turn(data: bytes, referee):
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise BadInput("not UTF-8")
    return turnfile.read_turn(text, referee)


def test_every_byte_of_the_file_matters(played, parties):
    """Flip each byte of a whole armoured turn file: never accepted."""
    for position, data in flipped_texts(played.turns[1].text, 0x01):
        with pytest.raises((BadInput, VerificationFailed)):
            read_bytes_as_turn(data, parties.ref.public)


def test_every_byte_of_the_payload_matters(played, parties):
    """A forger who re-armours (fixing the checksum) still cannot change a byte."""
    turn = played.turns[1]
    for position in range(len(turn.payload)):
        payload = bytearray(turn.payload)
        payload[position] ^= 0x01
        text = armour("TURN", bytes(payload), turn.headers)
        with pytest.raises((BadInput, VerificationFailed)):
            turnfile.read_turn(text, parties.ref.public)


@settings(max_examples=200, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_payload_byte_replacement_is_caught(played, parties, data):
    payload = played.turns[1].payload
    position = data.draw(st.integers(0, len(payload) - 1), label="position")
    replacement = data.draw(st.integers(0, 255).filter(lambda b: b != payload[position]), label="byte")
    changed = payload[:position] + bytes([replacement]) + payload[position + 1 :]
    with pytest.raises((BadInput, VerificationFailed)):
        turnfile.read_turn(armour("TURN", changed, played.turns[1].headers), parties.ref.public)


@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_replacement_byte_is_caught_or_changes_nothing(played, parties, data):
    text = played.turns[1].text.encode()
    position = data.draw(st.integers(0, len(text) - 1), label="position")
    replacement = data.draw(st.integers(0, 255).filter(lambda b: b != text[position]), label="byte")
    changed = text[:position] + bytes([replacement]) + text[position + 1 :]
    try:
        turn = read_bytes_as_turn(changed, parties.ref.public)
    except (BadInput, VerificationFailed):
        return
    # accepted only when mail-style whitespace changed: the signed content is identical
    assert turn.payload == played.turns[1].payload and turn.headers == played.turns[1].headers


@pytest.mark.parametrize(
    "mutate, words",
    [
        (lambda b: b.update(seq=-1), "at least 0"),
        (lambda b: b.update(format="pbem-turn-9"), "format"),
        (lambda b: b.update(prev=None), "only the genesis"),
        (lambda b: b["dice"].update(revealed_seed="AAAA"), "32 bytes"),
        (lambda b: b["dice"]["rolls"][0].update(value=7), "1 to 6"),
        (lambda b: b["dice"]["rolls"][0].update(n=5), "numbered"),
        (lambda b: b["identities"].update(JP=b["identities"]["US"]), "share a key"),
        (lambda b: b.update(extra=1), "unknown field"),
        (lambda b: b.pop("views"), "missing field"),
        (lambda b: b["identities"].update(US="pbem-id-1 x y z"), "damaged"),
    ],
)
def test_malformed_signed_content_is_bad_input(played, parties, resigner, mutate, words):
    text = resigner(played.turns[1], parties.ref, mutate)
    with pytest.raises(BadInput) as caught:
        turnfile.parse_turn(text, "turn-1.txt")
    assert words in caught.value.render() and caught.value.file == "turn-1.txt"


def test_build_refuses_inconsistent_arguments(played, parties):
    last = played.turns[-1]
    with pytest.raises(ValueError):
        turnfile.build_turn(
            parties.us, game=played.game, seq=0, scenario={"id": "s", "hash": "sha256:" + "0" * 64}, ruleset={},
            identities=parties.identities, public={}, views={"US": {}, "JP": {}}, referee_state={},
            next_seed=b"\x00" * 32,
        )
    with pytest.raises(ValueError):
        turnfile.build_turn(
            parties.ref, game=played.game, seq=last.seq + 2, scenario={"id": "s", "hash": "sha256:" + "0" * 64},
            ruleset={}, identities=parties.identities, public={}, views={"US": {}, "JP": {}}, referee_state={},
            next_seed=b"\x00" * 32, prev=last, orders="sha256:" + "0" * 64, dice_used=None,
        )


def test_write_new_refuses_to_overwrite(tmp_path, played):
    path = tmp_path / "turn-0.txt"
    write_new(path, played.turns[0].text)
    with pytest.raises(BadInput) as caught:
        write_new(path, played.turns[1].text)
    assert caught.value.file == str(path)
    assert path.read_text() == played.turns[0].text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["turn-0.txt"]
    with pytest.raises(BadInput, match="does not exist"):
        write_new(tmp_path / "missing" / "t.txt", "x")


def test_sealed_plaintexts_are_the_canonical_forms(parties, monkeypatch):
    """build_turn writes each view and the state out once and joins the pieces (issue 26): the sealed plaintexts
    must be exactly the canonical JSON of what they hold, keys in order, and the commitments those of the parts."""
    import json

    from pbem.protocol.canonical import canonical_bytes

    packed = []
    monkeypatch.setattr(turnfile, "compress", lambda data: packed.append(data) or sealing.compress(data))
    views = {"US": {"units": ["US-1"], "note": "é \u2028 \"q\""}, "JP": {"z": {"nonce": 1}, "a": [1.5, None, True]}}
    state = {"turn": 3, "hidden": ["JP-1"], "ω": {"b": 2, "a": 1}}
    turn = turnfile.build_turn(parties.ref, game=turnfile.new_game_id(), seq=0, scenario={"id": "x", "hash": "sha256:" + "ab" * 32},
                               ruleset={"edition": "test", "options": []}, identities=parties.identities,
                               public={"to_move": "US"}, views=views, referee_state=state, next_seed=dice.new_seed())
    assert len(packed) == 3  # each part compressed once
    for plaintext in packed:
        document = json.loads(plaintext)
        assert plaintext == canonical_bytes(document)
    us, jp, referee = (json.loads(p) for p in packed)
    assert (us["view"], jp["view"], referee["state"]) == (views["US"], views["JP"], state)
    assert set(referee) == {"format", "nonce", "state", "next_seed", "view_nonces"}
    for side, opened in (("US", us), ("JP", jp)):
        nonce = base64.b64decode(opened["nonce"])
        assert turnfile.check_view_commitment(nonce, views[side], turn.view_commitments[side])
        assert base64.b64decode(referee["view_nonces"][side]) == nonce
    assert turnfile.check_state_commitment(base64.b64decode(referee["nonce"]), state, turn.state_commitment)

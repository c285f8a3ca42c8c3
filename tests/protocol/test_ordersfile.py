import pytest

from pbem.errors import BadInput, VerificationFailed
from pbem.protocol import ordersfile, sealing
from pbem.protocol.armour import armour, dearmour
from pbem.protocol.canonical import b64e, canonical_bytes, digest


def test_round_trip(new_game, parties):
    game = new_game()
    genesis = game.start()
    built = ordersfile.build_orders_for_turn(parties.us, genesis, "US", {"moves": ["0101-0102"]}, salt=b"\x05" * 32)
    opened = ordersfile.open_orders_for_turn(built.text, genesis, parties.ref, expected_side="US")
    assert opened.orders == {"moves": ["0101-0102"]}
    assert opened.side == "US" and opened.seq == 0 and opened.turn == genesis.digest and opened.game == genesis.game
    assert opened.salt == b"\x05" * 32
    assert opened.digest == built.digest == digest(opened.envelope)
    kind, headers, _ = dearmour(built.text, "ORDERS", "o")
    assert headers == {"Game": genesis.game, "Answers": "0", "Side": "US"}


def test_orders_are_unreadable_without_the_referee_key(new_game, parties):
    game = new_game()
    genesis = game.start()
    built = ordersfile.build_orders_for_turn(parties.us, genesis, "US", {"secret": "plan"})
    assert "plan" not in built.text
    with pytest.raises(BadInput):
        ordersfile.open_orders_for_turn(built.text, genesis, parties.jp)


def test_wrong_game_is_refused(new_game, parties):
    game_a, game_b = new_game(), new_game()
    turn_a, turn_b = game_a.start(), game_b.start()
    built = ordersfile.build_orders_for_turn(parties.us, turn_a, "US", {})
    with pytest.raises(BadInput, match="another game|not this game"):
        ordersfile.open_orders_for_turn(built.text, turn_b, parties.ref)


def test_replayed_orders_are_refused(new_game, parties):
    game = new_game()
    game.start()
    old = game.write_orders()
    game.adjudicate(old.text)
    game.adjudicate(game.write_orders().text)
    with pytest.raises(BadInput) as caught:
        ordersfile.open_orders_for_turn(old.text, game.turns[-1], parties.ref)
    assert "old orders" in caught.value.message and caught.value.hint


def test_orders_for_another_turn_file_with_the_same_number(new_game, parties, resigner):
    game = new_game()
    game.start()
    game.adjudicate(game.write_orders().text)
    turn_one = game.turns[1]
    rival = resigner(turn_one, parties.ref, lambda body: body["public"].update(note="other"))
    from pbem.protocol.turnfile import read_turn

    rival_turn = read_turn(rival, parties.ref.public)
    built = ordersfile.build_orders_for_turn(parties.jp, rival_turn, "JP", {})
    with pytest.raises(BadInput, match="different turn file"):
        ordersfile.open_orders_for_turn(built.text, turn_one, parties.ref)


def test_orders_for_a_future_turn(new_game, parties):
    game = new_game()
    genesis = game.start()
    built = ordersfile.build_orders(
        parties.us, game=genesis.game, seq=5, turn_digest="sha256:" + "1" * 64, side="US", orders={},
        referee=parties.ref.public,
    )
    with pytest.raises(BadInput, match="does not exist yet"):
        ordersfile.open_orders_for_turn(built.text, genesis, parties.ref)


def test_old_signed_orders_resealed_under_new_labels(new_game, parties):
    """Someone re-seals an old signed envelope with the current turn's outer labels."""
    game = new_game()
    game.start()
    old = game.write_orders()
    game.adjudicate(old.text)
    current = game.turns[-1]
    answers = {"seq": current.seq, "turn": current.digest}
    side = old.envelope["body"]["side"]
    sealed = sealing.seal(canonical_bytes(old.envelope), parties.ref.public,
                          ordersfile.orders_info(current.game, answers, side))
    outer = {"format": "pbem-orders-1", "game": current.game, "answers": answers, "side": side, "sealed": b64e(sealed)}
    text = armour("ORDERS", canonical_bytes(outer), {})
    with pytest.raises(BadInput) as caught:
        ordersfile.open_orders_for_turn(text, current, parties.ref)
    assert "signed orders inside" in caught.value.message and "old orders" in caught.value.message


def test_orders_signed_with_the_wrong_key(new_game, parties):
    game = new_game()
    genesis = game.start()
    # the US player tries to pass orders off as the Japanese player's
    built = ordersfile.build_orders(
        parties.us, game=genesis.game, seq=0, turn_digest=genesis.digest, side="JP", orders={},
        referee=parties.ref.public,
    )
    with pytest.raises(VerificationFailed):
        ordersfile.open_orders_for_turn(built.text, genesis, parties.ref)
    with pytest.raises(BadInput, match="not the US key"):
        ordersfile.build_orders_for_turn(parties.jp, genesis, "US", {})


def test_out_of_turn_side_is_refused(new_game, parties):
    game = new_game()
    genesis = game.start()
    built = ordersfile.build_orders_for_turn(parties.jp, genesis, "JP", {})
    with pytest.raises(BadInput, match="US's turn"):
        ordersfile.open_orders_for_turn(built.text, genesis, parties.ref, expected_side="US")


def test_every_byte_of_an_orders_file_matters(new_game, parties):
    game = new_game()
    genesis = game.start()
    built = ordersfile.build_orders_for_turn(parties.us, genesis, "US", {"m": 1})
    data = built.text.encode()
    for position in range(len(data)):
        flipped = bytearray(data)
        flipped[position] ^= 0x01
        with pytest.raises((BadInput, VerificationFailed)):
            ordersfile.open_orders_for_turn(flipped.decode("utf-8"), genesis, parties.ref)
    _, headers, payload = dearmour(built.text, "ORDERS", "o")
    for position in range(len(payload)):
        changed = bytearray(payload)
        changed[position] ^= 0x01
        with pytest.raises((BadInput, VerificationFailed)):
            ordersfile.open_orders_for_turn(armour("ORDERS", bytes(changed), headers), genesis, parties.ref)


def test_player_checks_the_referee_used_their_orders(new_game, parties):
    game = new_game()
    game.start()
    mine = game.write_orders()
    turn = game.adjudicate(mine.text)
    assert ordersfile.adjudication_problem(turn, mine.digest, mine.salt) is None
    other = game.write_orders()
    assert "not yours" in ordersfile.adjudication_problem(turn, other.digest, other.salt)
    assert "another salt" in ordersfile.adjudication_problem(turn, mine.digest, b"\x00" * 32)

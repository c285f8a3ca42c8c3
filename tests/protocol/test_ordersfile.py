import pytest

from pbem.errors import BadInput, VerificationFailed
from pbem.protocol import ordersfile, parts, sealing
from pbem.protocol.armour import armour, dearmour
from pbem.protocol.canonical import b64e, canonical_bytes, digest


def test_round_trip(new_game, parties):
    game = new_game()
    genesis = game.start()
    built = ordersfile.build_orders_for_turn(parties.us, genesis, "US", {"moves": ["0101-0102"]})
    opened = ordersfile.open_orders_for_turn(built.text, genesis, parties.ref, expected_side="US")
    assert opened.orders == {"moves": ["0101-0102"]}
    assert opened.side == "US" and opened.seq == 0 and opened.turn == genesis.digest and opened.game == genesis.game
    assert opened.salt == built.salt and opened.revision == 1
    assert opened.digest == built.digest == digest(opened.envelope)
    assert "0101-0102" not in str(opened.envelope)  # the signed header commits to the orders without showing them
    kind, headers, _ = dearmour(built.text, "ORDERS", "o")
    assert headers == {"Game": genesis.game, "Answers": "0", "Side": "US", "Revision": "1"}


def test_a_resend_is_the_same_orders_and_every_revision_of_a_player_turn_has_its_salt(new_game, parties):
    game = new_game()
    genesis = game.start()
    first = ordersfile.build_orders_for_turn(parties.us, genesis, "US", {"moves": [1]})
    again = ordersfile.build_orders_for_turn(parties.us, genesis, "US", {"moves": [1]})
    assert first.text != again.text  # sealed afresh
    assert (again.digest, again.salt) == (first.digest, first.salt)
    changed = ordersfile.build_orders_for_turn(parties.us, genesis, "US", {"moves": [2]})
    assert changed.salt == first.salt and changed.digest != first.digest  # same revision: equivocation, visible
    second = ordersfile.build_orders_for_turn(parties.us, genesis, "US", {"moves": [2]}, revision=2)
    # Issue 37: the salt is the player-turn's, so a new revision rolls the same dice (a referee cannot re-roll by
    # asking for changed orders); the nonce, which blinds the commitment to other orders, is the revision's.
    assert second.salt == first.salt and second.header.revision == 2 and second.nonce != first.nonce
    assert ordersfile.build_orders_for_turn(parties.jp, genesis, "JP", {"moves": [1]}).salt != first.salt


def test_headers_edited_to_lie_about_the_content_are_refused(new_game, parties):
    game = new_game()
    genesis = game.start()
    built = ordersfile.build_orders_for_turn(parties.us, genesis, "US", {"moves": [1]})
    _, _, payload = dearmour(built.text, "ORDERS", "o")
    lying = armour("ORDERS", payload, {"Game": genesis.game, "Answers": "0", "Side": "JP", "Revision": "1"})
    with pytest.raises(BadInput) as caught:
        ordersfile.open_orders_for_turn(lying, genesis, parties.ref)
    assert "header says Side: JP" in caught.value.message


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
    content = {"format": ordersfile.SEALED_FORMAT, "header": old.envelope, "nonce": b64e(old.nonce), "orders": old.orders}
    sealed = sealing.seal(canonical_bytes(content), parties.ref.public,
                          ordersfile.orders_info(current.game, answers, side, 1), compress=False)
    outer = {"format": ordersfile.FORMAT, "game": current.game, "answers": answers, "side": side, "revision": 1,
             "sealed": parts.descriptor(sealed)}
    text = armour("ORDERS", parts.join(outer, [sealed]), {})
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


def test_the_next_turn_file_publishes_the_signed_header_not_the_orders(new_game, parties):
    game = new_game()
    game.start()
    mine = game.write_orders(orders={"moves": ["secret-plan"]})
    turn = game.adjudicate(mine.text)
    assert turn.orders == mine.digest and turn.orders_header == mine.envelope and turn.dice.salt == mine.salt
    assert "secret-plan" not in str(turn.orders_header)  # (the fake game of conftest shows orders in public; pbem does not)

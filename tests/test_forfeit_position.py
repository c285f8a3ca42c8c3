"""A forfeit choice (I26, spi-1975) is a side's own secret, like its standing defense: the position digest leaves it out.

Each view shows only its writer's forfeit choice (``views._own_standing``),
so a digest that counted it would differ from the other player's view: his
checks (``view``, ``status --key``, ``verify --replay-mine``) would call an
honest referee a liar as soon as one player named the enemy unit he would
remove.
"""

from __future__ import annotations

from pbem.game.adjudication import adjudicate_orders
from pbem.loading.turns import load_turn
from pbem.game.position import shown_position
from pbem.game.modes.referee.start import start_game
from pbem.protocol.files import write_new
from pbem.protocol.ordersfile import build_orders_for_turn
from tests.games import LANDING, SKIRMISH, pbem, write_parties


def _forfeit_named(tmp_path):
    """A spi-1975 game: the American lands, then the Japanese player names the American unit he would remove."""
    ids = write_parties(tmp_path)
    folder = tmp_path / "game"
    folder.mkdir()
    genesis = start_game(str(SKIRMISH), ids["ref"], ids["us"].public, ids["jp"].public, edition="spi-1975")
    write_new(folder / "turn-0000.pbem", genesis.text)
    sent = build_orders_for_turn(ids["us"], genesis, "US", LANDING)
    done = adjudicate_orders(load_turn(folder / "turn-0000.pbem"), sent.text, "orders", ids["ref"])
    write_new(folder / "turn-0001.pbem", done.turn.text)
    first = load_turn(folder / "turn-0001.pbem")
    sent = build_orders_for_turn(ids["jp"], first, "JP", {"forfeit": "us-7cav"})
    done = adjudicate_orders(first, sent.text, "orders", ids["ref"])
    assert done.step.state.forfeit == {"JP": "us-7cav"}
    write_new(folder / "turn-0002.pbem", done.turn.text)
    return folder, done.step


def test_both_players_views_match_the_public_record_after_a_forfeit_choice(tmp_path):
    folder, _ = _forfeit_named(tmp_path)
    for side in ("us", "jp"):
        pbem("view", folder / "turn-0002.pbem", "--key", tmp_path / f"{side}.key")
        said = pbem("status", folder, "--key", tmp_path / f"{side}.key")  # his view replayed and checked
        assert "does not match" not in said and "lying" not in said
    assert "verified" in pbem("verify", folder)


def test_the_digest_leaves_out_every_side_s_own_choices_and_nothing_else(tmp_path):
    _, step = _forfeit_named(tmp_path)
    shown = {side: shown_position(step.views[side]["state"]) for side in ("US", "JP")}
    assert shown["US"] == shown["JP"]
    assert "forfeit" not in shown["US"] and "standing" not in shown["US"]
    assert shown["US"]["locations"] == step.views["JP"]["state"]["locations"]  # the position itself stays in

"""Marker commitments for hidden units with no referee (pbem/protocol/commitment.py, docs/PROTOCOL.md)."""

from __future__ import annotations

import hashlib

import pytest

from pbem.errors import BadInput
from pbem.protocol import commitment as c
from pbem.protocol.keys import generate

SECRET = bytes(range(32))
GAME = "0" * 32


def pieces(n: int) -> dict[str, dict]:
    return {f"{10 + i:02d}{20 + i:02d}": ({"id": f"jp-{i}", "kind": "infantry", "attack": 2, "defense": 3, "move": 4}
                                         if i % 3 else dict(c.DUMMY)) for i in range(n)}


# RFC 6962 Merkle tree heads of the Certificate Transparency test inputs (certificate-transparency-go, merkle tests).
CT_INPUTS = [b"", b"\x00", b"\x10", b"\x20\x21", b"\x30\x31", b"\x40\x41\x42\x43",
             b"\x50\x51\x52\x53\x54\x55\x56\x57", bytes(range(0x60, 0x70))]
CT_ROOTS = {
    1: "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    2: "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    3: "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    4: "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    5: "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    6: "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    7: "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    8: "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
}


@pytest.mark.parametrize("size", sorted(CT_ROOTS))
def test_the_tree_is_rfc_6962s(size):
    leaves = [c.leaf_hash(d) for d in CT_INPUTS[:size]]
    assert c.tree_hash(leaves).hex() == CT_ROOTS[size]
    for i in range(size):  # every RFC 6962 audit path leads back to the head
        assert c.root_from_path(i, size, leaves[i], c.audit_path(i, leaves)).hex() == CT_ROOTS[size]


def test_the_empty_tree_is_the_hash_of_nothing():
    assert c.commit(SECRET, game=GAME, seq=1, pieces={}).root == "sha256:" + hashlib.sha256(b"").hexdigest()


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8, 13, 17])
def test_every_opening_verifies_against_its_root_and_its_place(n):
    tree = c.commit(SECRET, game=GAME, seq=4, pieces=pieces(n))
    for marker in tree.markers:
        opening = tree.opening(marker)
        assert c.verify_opening(tree.root, opening, tree.markers)
        assert c.verify_opening(tree.root, c.Opening.from_json(opening.as_json()), tree.markers)
        assert c.secret_matches(SECRET, opening, game=GAME, seq=4)


def _changed(opening: c.Opening, **update) -> c.Opening:
    return c.Opening(**{**opening.__dict__, **update})


def test_an_opening_that_does_not_match_its_commitment_is_refused():
    tree = c.commit(SECRET, game=GAME, seq=4, pieces=pieces(6))
    real = tree.opening(tree.markers[1])
    other = tree.markers[2]
    cheats = {
        "another unit": _changed(real, piece={**real.piece, "id": "jp-99"}),
        "stronger": _changed(real, piece={**real.piece, "defense": 9}),
        "a dummy instead": _changed(real, piece=dict(c.DUMMY)),
        "another salt": _changed(real, salt=bytes(32)),
        "another marker's leaf": _changed(real, marker=other),
        "another place": _changed(real, index=2),
        "a shorter path": _changed(real, path=real.path[:-1]),
        "another tree size": _changed(real, size=7),
        "a path of text": _changed(real, path=tuple(p.hex() for p in real.path)),
        "a piece outside canonical JSON": _changed(real, piece={**real.piece, "defense": 1.25}),
    }
    for what, cheat in cheats.items():
        assert not c.verify_opening(tree.root, cheat, tree.markers), what
    assert not c.verify_opening(c.commit(SECRET, game=GAME, seq=5, pieces=pieces(6)).root, real, tree.markers)


def test_a_leaf_cannot_be_passed_off_for_another_markers():
    tree = c.commit(SECRET, game=GAME, seq=1, pieces=pieces(4))
    opening = tree.opening(tree.markers[0])
    moved = _changed(opening, marker=tree.markers[3])
    assert not c.verify_opening(tree.root, moved, tree.markers)


def test_salts_are_256_bits_fresh_for_every_step_marker_and_game():
    salts = {c.marker_salt(SECRET, game=g, seq=s, marker=m)
             for g in (GAME, "1" * 32) for s in (1, 2, 3) for m in ("0101", "0102")}
    assert len(salts) == 12 and {len(s) for s in salts} == {32}
    assert c.marker_salt(SECRET, game=GAME, seq=1, marker="0101") == c.marker_salt(bytes(SECRET), game=GAME, seq=1, marker="0101")
    assert c.marker_salt(c.new_secret(), game=GAME, seq=1, marker="0101") != c.marker_salt(SECRET, game=GAME, seq=1, marker="0101")


def test_an_unchanged_position_gives_a_new_root_and_new_leaves_every_step():
    same = pieces(5)
    first, second = (c.commit(SECRET, game=GAME, seq=s, pieces=same) for s in (6, 7))
    assert first.root != second.root
    assert not set(first.hashes) & set(second.hashes)


def test_the_secret_reopens_everything():
    tree = c.commit(SECRET, game=GAME, seq=9, pieces=pieces(7))
    again = c.commit(SECRET, game=GAME, seq=9, pieces=tree.pieces)
    assert again.root == tree.root and again.hashes == tree.hashes
    assert c.commit(c.new_secret(), game=GAME, seq=9, pieces=tree.pieces).root != tree.root


def test_a_malformed_opening_is_bad_input_naming_the_file():
    with pytest.raises(BadInput, match="malformed") as caught:
        c.Opening.from_json({"marker": "0101", "index": 0}, source="turn-0003.pbem")
    assert "turn-0003.pbem" in caught.value.render()
    with pytest.raises(ValueError):
        c.marker_salt(b"short", game=GAME, seq=1, marker="0101")


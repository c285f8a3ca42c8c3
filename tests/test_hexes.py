"""Hex geometry (cases.md, Map): neighbours, symmetry, distance against hand-worked hexes."""

from hypothesis import given, strategies as st

from pbem.engine import hexes

ids = st.builds(lambda c, r: hexes.hex_id(c, r), st.integers(1, 40), st.integers(1, 40))


def test_neighbours_of_an_even_column_hex_match_the_spec():
    assert set(hexes.neighbours("0405")) == {"0404", "0406", "0305", "0505", "0306", "0506"}


def test_neighbours_of_an_odd_column_hex_match_the_spec():
    assert set(hexes.neighbours("0505")) == {"0504", "0506", "0404", "0604", "0405", "0605"}


def test_corner_hex_has_only_the_neighbours_on_a_board():
    # 0101 is odd: 0102 below, 0201 to the right; row 0 and column 0 do not exist.
    assert set(hexes.neighbours("0101")) == {"0102", "0201"}


@given(ids)
def test_neighbours_are_symmetric_and_at_distance_one(h):
    for n in hexes.neighbours(h):
        assert h in hexes.neighbours(n)
        assert hexes.distance(h, n) == 1


@given(ids, ids, ids)
def test_distance_is_a_metric(a, b, c):
    assert hexes.distance(a, a) == 0
    assert hexes.distance(a, b) == hexes.distance(b, a)
    assert hexes.distance(a, c) <= hexes.distance(a, b) + hexes.distance(b, c)


def test_hand_worked_distances():
    # Same column: rows apart.
    assert hexes.distance("0505", "0508") == 3
    # 0101 -> 0201 -> 0301: along the top edge.
    assert hexes.distance("0101", "0301") == 2
    # 0303 to 0707: four column steps gain at most two rows (to 0705), then two more.
    assert hexes.distance("0303", "0707") == 6
    # The ranges of the public FPF case: 0709 and 0309 are both three from 0507.
    assert hexes.distance("0709", "0507") == 3
    assert hexes.distance("0309", "0507") == 3


def test_axial_round_trip():
    for c in range(1, 12):
        for r in range(1, 12):
            assert hexes.from_axial(*hexes.to_axial(c, r)) == (c, r)


def test_hex_ids_are_checked():
    assert hexes.is_hex_id("0101")
    assert not hexes.is_hex_id("0001")
    assert not hexes.is_hex_id("101")
    assert not hexes.is_hex_id(101)


@given(ids, st.integers(0, 6), st.frozensets(ids, min_size=1, max_size=4))
def test_the_hexes_within_a_radius_are_those_at_most_that_distance(h, radius, centres):
    every = {hexes.hex_id(c, r) for c in range(1, 51) for r in range(1, 51)}
    assert {x for x in every if hexes.distance(h, x) <= radius} == hexes.within(h, radius) & every
    assert all(hexes.distance(h, x) <= radius for x in hexes.within(h, radius))
    assert {x for x in every if min(hexes.distance(c, x) for c in centres) <= radius} \
        == hexes.within_any(centres, radius) & every


def test_the_hexes_within_two_are_the_neighbours_and_theirs_on_every_hex_of_the_numbering():
    for h in (hexes.hex_id(c, r) for c in range(1, 100) for r in range(1, 100)):
        ring = {m for n in hexes.neighbours(h) for m in hexes.neighbours(n)} | set(hexes.neighbours(h))
        assert hexes.within_two(h) == tuple(sorted(ring - {h})), h

"""The Integrated CRT (7.61) held as data, with the left alignment of I2."""

import pytest

from pbem.engine import crt


@pytest.mark.parametrize(
    "line, differential, label, position",
    [
        ("clear", 5, "+4,5", 8),  # I2: the Clear line's +4,5 is the 9th column
        ("river", 5, "+4,5", 7),  # the 8th on the River line
        ("broken", 5, "+4,5", 6),  # the 7th on the Broken/Town line
        ("rough", 5, "+4,5", 5),  # the 6th on the Rough line
        ("clear", -6, "-6,5", 1),
        ("river", -3, "-4,3", 1),
        ("broken", 0, "0", 3),
        ("rough", -1, "-1", 1),
    ],
)
def test_columns_are_left_aligned(line, differential, label, position):
    col = crt.column(line, differential)
    assert (col.label, col.position) == (label, position)


def test_differentials_beyond_a_line_use_its_end_columns():
    assert crt.column("clear", -12).label == "-7"
    assert crt.column("rough", -5).label == "-2"
    assert crt.column("rough", 15).label == "+10"
    assert crt.column("river", 11).label == "+10"


def test_results_read_from_the_printed_table():
    # Die 1 under the Clear +4,5 column is D2; under the Rough +4,5 column, D1.
    assert crt.result(crt.column("clear", 4), 1) == "D2"
    assert crt.result(crt.column("rough", 4), 1) == "D1"
    # The first column of every line: die 6 is Ae.
    assert crt.result(crt.column("rough", -9), 6) == "Ae"
    assert crt.result(crt.column("clear", -9), 5) == "A3"
    # The last column of the Rough line (+10) is the table's 9th: die 6 gives the blank.
    assert crt.result(crt.column("rough", 10), 6) == "-"
    assert crt.result(crt.column("clear", 10), 1) == "De"


def test_every_column_has_six_entries_from_the_result_set():
    for line in crt.LINES:
        for differential in range(-10, 13):
            entries = crt.results_under(crt.column(line, differential))
            assert len(entries) == 6 and set(entries) <= set(crt.RESULTS)


def test_a_die_outside_one_to_six_is_refused():
    with pytest.raises(ValueError):
        crt.result(crt.column("clear", 0), 7)

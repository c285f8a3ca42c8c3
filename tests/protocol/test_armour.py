import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbem.errors import BadInput
from pbem.protocol.armour import LINE_LENGTH, armour, dearmour

HEADERS = {"Game": "4f3a9c2e11ab07d2", "Sequence": "3"}


def block(payload=bytes(range(256)) * 2, kind="TURN", headers=HEADERS):
    return armour(kind, payload, headers)


def test_layout():
    text = block()
    lines = text.splitlines()
    assert lines[0] == "-----BEGIN PBEM TURN-----"
    assert lines[1:4] == ["Game: 4f3a9c2e11ab07d2", "Sequence: 3", ""]
    assert lines[-1] == "-----END PBEM TURN-----"
    assert all(len(line) <= LINE_LENGTH for line in lines)
    assert text.isascii()


@given(st.binary(min_size=1, max_size=2000))
def test_round_trip(payload):
    assert dearmour(armour("ORDERS", payload, {"Side": "US"}), "ORDERS", "m") == ("ORDERS", {"Side": "US"}, payload)


def transforms():
    def crlf(t): return t.replace("\n", "\r\n")
    def quoted(t): return "".join("> " + line for line in t.splitlines(True))
    def quoted_twice(t): return "".join(">> " + line for line in t.splitlines(True)).replace(">> \n", ">>\n")
    def forum(t): return "Hi all, here is my turn:\n\n" + t + "\nCheers,\nBob\n-- \nsent from my phone\n"
    def trailing(t): return "".join(line.rstrip("\n") + "  \t\n" for line in t.splitlines(True))
    def rewrapped(t):
        lines = t.splitlines()
        start = lines.index("") + 1
        data = "".join(lines[start:-2])
        return "\n".join(lines[:start] + [data[i:i + 64] for i in range(0, len(data), 64)] + lines[-2:]) + "\n"
    def all_of_it(t): return forum(crlf(trailing(quoted(t))))
    def byte_order_mark(t): return "\ufeff" + t
    def non_breaking_spaces(t): return "".join("\u00a0" + line.replace("\n", "\u00a0\n") for line in quoted(t).splitlines(True))
    def zero_width(t): return t.replace("\n", "\u200b\n")
    def blank_line_dropped(t): return t.replace("Sequence: 3\n\n", "Sequence: 3\n")
    def blank_lines_doubled(t): return t.replace("\n", "\n\n")
    def stray_space_before_begin(t): return " " + t
    def only_begin_quoted(t): return "> " + t
    def quote_rewrapped(t):  # a client re-wraps "> " lines at 72 columns; the continuations lose the quote
        out = []
        for line in quoted(t).splitlines():
            out += [line[:72]] + ([line[72:]] if len(line) > 72 else [])
        return "\n".join(out) + "\n"
    def reflowed(t):  # a client re-flows the quoted paragraph from the empty line to the END line
        head, data = t.split("\n\n", 1)
        return head + "\n\n" + " ".join(data.split("\n")).strip() + "\n"
    return [reflowed, crlf, quoted, quoted_twice, forum, trailing, rewrapped, all_of_it, byte_order_mark, non_breaking_spaces,
            zero_width, blank_line_dropped, blank_lines_doubled, stray_space_before_begin, only_begin_quoted, quote_rewrapped]


@pytest.mark.parametrize("transform", transforms(), ids=lambda f: f.__name__)
def test_tolerates_what_mail_does(transform):
    payload = bytes(range(256)) * 3
    assert dearmour(transform(block(payload)), "TURN", "mail") == ("TURN", HEADERS, payload)


def test_picks_the_wanted_kind_among_several():
    text = block(b"turn") + "\n" + block(b"orders", kind="ORDERS")
    assert dearmour(text, "ORDERS", "m")[2] == b"orders"


def replace_line(text, index, new):
    lines = text.split("\n")
    lines[index] = new
    return "\n".join(lines)


@pytest.mark.parametrize(
    "damage, words",
    [
        (lambda t: "no armour here", "no -----BEGIN PBEM TURN"),
        (lambda t: t.replace("-----END PBEM TURN-----", ""), "cut off"),
        (lambda t: t[: len(t) // 2], "cut off"),
        (lambda t: t + t, "2 PBEM TURN blocks"),
        (lambda t: t.replace("TURN", "ORDERS"), "not a PBEM TURN"),
        (lambda t: replace_line(t, 5, "AAAA" + t.split("\n")[5][4:]), "checksum"),
        (lambda t: replace_line(t, 5, "A*A" + t.split("\n")[5][3:]), "not a base64 line"),
        (lambda t: replace_line(t, 5, t.split("\n")[5][:-1] + "-"), "line 6: is not a base64 line"),
        (lambda t: replace_line(t, 5, "A=A" + t.split("\n")[5][3:]), "the base64 text is damaged"),
        (lambda t: replace_line(t, 5, "A*A" + t.split("\n")[5][3:]).replace("\n=", "\n#"), "line 6: is not a base64 line"),
        (lambda t: t.replace("Sequence: 3", "Sequence: 4"), "checksum"),
        (lambda t: t.replace("Sequence: 3\n", "Sequence 3\n"), "damaged in transit"),
        (lambda t: t.replace("Game: ", "Game:"), "header"),
        (lambda t: "\n".join(line for line in t.split("\n") if not line.startswith("=")), "checksum line"),
        (lambda t: t.replace("\nSequence", "\n>> Sequence"), "quoted more deeply"),
    ],
)
def test_damage_is_bad_input_naming_the_source(damage, words):
    with pytest.raises(BadInput) as caught:
        dearmour(damage(block()), "TURN", "turn-3.txt")
    assert caught.value.file == "turn-3.txt"
    assert words in caught.value.message
    assert caught.value.exit_code == 2
    assert caught.value.hint


def test_padding_bits_cannot_be_changed():
    text = armour("TURN", b"A", {})  # base64 "QQ==": the low bits of the 2nd char are padding
    assert "\nQQ==\n" in text
    with pytest.raises(BadInput):
        dearmour(text.replace("\nQQ==\n", "\nQR==\n"), "TURN", "t")


def test_every_single_bit_flip_is_caught_or_harmless():
    """Flipping any bit anywhere either fails, or (only for whitespace mail
    itself may rewrite, like the final newline) yields the very same content."""
    text = block(bytes(range(40)))
    original = dearmour(text, "TURN", "t")
    data = text.encode()
    harmless = []
    for position in range(len(data)):
        for bit in range(8):
            flipped = bytearray(data)
            flipped[position] ^= 1 << bit
            try:
                result = dearmour(flipped.decode("utf-8"), "TURN", "t")
            except (BadInput, UnicodeDecodeError):
                continue
            assert result == original, (position, bit)
            harmless.append((position, chr(flipped[position])))
    # only line ends may become other whitespace
    assert all(data[p] in b"\n" and c in " \t\r\n" for p, c in harmless)


@pytest.mark.parametrize("kind", ["turn", "TURN-1", "", "A  B"])
def test_bad_kind_is_a_programming_error(kind):
    with pytest.raises(ValueError):
        armour(kind, b"x", {})


@pytest.mark.parametrize("headers", [{"Bad Key": "x"}, {"Game": " padded"}, {"Game": "é"}, {"Game": "a\nb"}, {"Game": ""}])
def test_bad_header_is_a_programming_error(headers):
    with pytest.raises(ValueError):
        armour("TURN", b"x", headers)


def test_a_block_read_again_is_not_read_twice_and_a_refusal_names_each_source(monkeypatch):
    """``verify`` refuses damage first, then checks the chain: the second reading of a file costs nothing."""
    from pbem.protocol import armour as module

    reads = []
    real = module._dearmour
    monkeypatch.setattr(module, "_dearmour", lambda *args: reads.append(args[2]) or real(*args))
    text = block(b"read twice")
    first = dearmour(text, "TURN", "a.pbem")
    first[1]["Game"] = "changed by a caller"
    assert dearmour(str(text), "TURN", "b.pbem") == ("TURN", HEADERS, b"read twice")
    assert reads == ["a.pbem"]
    damaged = text.replace("Sequence: 3", "Sequence: 4")
    for source in ("c.pbem", "d.pbem"):
        with pytest.raises(BadInput) as caught:
            dearmour(damaged, "TURN", source)
        assert caught.value.file == source
    assert reads == ["a.pbem", "c.pbem", "d.pbem"]


def _by_lines_or_refusal(text, kind):
    from pbem.protocol.armour import _by_lines

    try:
        return _by_lines(text, kind, "t")
    except BadInput:
        return "refused"


@given(st.binary(min_size=1, max_size=400), st.sampled_from([{}, HEADERS, {"Side": "US"}]),
       st.sampled_from(["", "Hi,\n\n", "text\n"]), st.sampled_from(["", "\n", "Bob\n", "\n-- \nsig\n"]))
def test_a_block_as_pbem_wrote_it_is_read_as_the_line_reader_reads_it(payload, headers, before, after):
    """The quick reader (issue 26) takes a block exactly as :func:`armour` wrote it, with text around it, and gives
    what the line-by-line reader gives."""
    from pbem.protocol.armour import _as_written

    text = before + armour("TURN", payload, headers) + after
    assert _as_written(text, "TURN") == _by_lines_or_refusal(text, "TURN") == ("TURN", headers, payload)
    assert _as_written(text.rstrip("\n"), "TURN") == ("TURN", headers, payload)


@pytest.mark.parametrize("transform", transforms(), ids=lambda f: f.__name__)
def test_the_quick_reader_leaves_what_mail_did_to_the_line_reader(transform):
    from pbem.protocol.armour import _as_written

    text = transform(block(bytes(range(256)) * 3))
    assert _as_written(text, "TURN") in (None, ("TURN", HEADERS, bytes(range(256)) * 3))


def test_the_quick_reader_takes_no_changed_character_the_line_reader_refuses():
    """Every byte of a block changed to each character that matters: the quick reader either declines or agrees
    with the line-by-line reader, which names the damage."""
    from pbem.protocol.armour import _as_written

    text = "Hi\n" + block(bytes(range(100)), headers={"Game": "ab", "Sequence": "3"}) + "Bob\n"
    for position in range(len(text)):
        for char in "A=+/\n :>-\r xQ":
            changed = text[:position] + char + text[position + 1:]
            quick = _as_written(changed, "TURN")
            assert quick is None or quick == _by_lines_or_refusal(changed, "TURN"), (position, char)
        dropped = text[:position] + text[position + 1:]
        quick = _as_written(dropped, "TURN")
        assert quick is None or quick == _by_lines_or_refusal(dropped, "TURN"), position
    assert _as_written(text, "ORDERS") is None
    assert _as_written(text + text, "TURN") is None

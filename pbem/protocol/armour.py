"""ASCII armour: binary payloads as text that survives mail clients and forums.

Layout (every line ends with LF when written)::

    -----BEGIN PBEM TURN-----
    Game: 4f3a9c2e11ab07d2
    Sequence: 3

    eyJib2R5Ijp7ImRpY2UiOnsibmV4dF9jb21taXRtZW50Ijoic2hhMjU2OjE5YjQ…
    …
    =q0X2mS1c
    -----END PBEM TURN-----

* ``KIND`` is upper-case letters, digits and single spaces (``TURN``,
  ``ORDERS``).
* Header lines ``Key: Value`` (key ``[A-Za-z][A-Za-z0-9-]*``, one space after
  the colon, value printable ASCII without leading or trailing spaces), then
  exactly one empty line.  There may be no headers; the empty line stays.
* The payload in standard base64 with ``=`` padding, in lines of at most 76
  characters.
* A checksum line: ``=`` followed by the base64 of the first 6 bytes of
  SHA-256 over ``"pbem-armour-v1\\n" + KIND + "\\n" + "Key: Value\\n"… + "\\n"``
  (ASCII) followed by the payload bytes.

**Headers are for humans only.**  They are never trusted: everything that
matters is inside the signed (or sealed) payload, and readers that care (the
turn file reader does) check that the headers agree with it.  The checksum is
not a security feature either — anyone can recompute it.  It exists so that a
file damaged in transit is reported as damaged (exit 2, "ask for it again")
rather than as a forgery, and so that no byte of the block, headers included,
can change unnoticed.

Reading is tolerant of what mail and forums do without changing the content,
and of nothing else:

* CRLF or CR line ends; spaces and tabs at the end of lines;
* a UTF-8 byte-order mark, non-breaking and other Unicode spaces, zero-width
  spaces and joiners (none can be part of a block, which is ASCII);
* text before and after the block (a forum post, a signature);
* stray spaces before the BEGIN line or any other line;
* a quote prefix made of ``>`` and ``|`` with any spacing (``> ``, ``>> ``,
  ``> > ``, ``|``), as deep as on the BEGIN line or less on any line of the
  block — a client that re-wraps quoted text leaves continuation lines with
  less quoting or none (no line of a block can begin with ``>`` or ``|``);
* base64 lines re-wrapped to other lengths, or reflowed into one paragraph
  (lines joined with spaces, the END line pulled up to the last one);
* the empty line after the headers doubled or dropped, and empty lines among
  the base64 lines (no header can look like base64: base64 has no colon).

Everything else — a changed character, a missing line, a truncated block, two
blocks of the kind wanted — is :class:`~pbem.errors.BadInput` naming the
source and saying the block was **damaged in transit** (exit 2: ask for a
fresh copy), never that anyone cheated: the checksum cannot tell a forgery
from line noise, and the signature inside is what catches forgeries.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re

from pbem.errors import BadInput

LINE_LENGTH = 76

_KIND_RE = re.compile(r"[A-Z0-9]+(?: [A-Z0-9]+)*")
_HEADER_KEY_RE = re.compile(r"[A-Za-z][A-Za-z0-9-]*")
_HEADER_VALUE_RE = re.compile(r"[!-~](?:[ -~]*[!-~])?")
_HEADER_LINE_RE = re.compile(r"([A-Za-z][A-Za-z0-9-]*): ([!-~](?:[ -~]*[!-~])?)")
_BEGIN_RE = re.compile(r"-----BEGIN PBEM (?P<kind>[A-Z0-9]+(?: [A-Z0-9]+)*)-----")
_B64_LINE_RE = re.compile(r"[A-Za-z0-9+/=]+")
_CHECKSUM_RE = re.compile(r"=([A-Za-z0-9+/]{8})")

_RESEND = "ask the sender for a fresh copy, sent as an attachment or pasted whole"


def _checksum(kind: str, headers: dict[str, str], payload: bytes) -> str:
    text = "pbem-armour-v1\n" + kind + "\n"
    text += "".join(f"{key}: {value}\n" for key, value in headers.items()) + "\n"
    digest = hashlib.sha256(text.encode("ascii") + payload).digest()
    return base64.b64encode(digest[:6]).decode("ascii")


def armour(kind: str, payload: bytes, headers: dict[str, str] | None = None) -> str:
    """Wrap ``payload`` as a ``-----BEGIN PBEM KIND-----`` text block.

    Raises :class:`ValueError` for a kind or header the format cannot carry —
    that is a programming error, not a user's.
    """
    headers = dict(headers or {})
    if not _KIND_RE.fullmatch(kind):
        raise ValueError(f"armour kind {kind!r} must be upper-case letters, digits, single spaces")
    for key, value in headers.items():
        if not _HEADER_KEY_RE.fullmatch(key):
            raise ValueError(f"armour header key {key!r} is not allowed")
        if not isinstance(value, str) or not _HEADER_VALUE_RE.fullmatch(value):
            raise ValueError(f"armour header {key}: value {value!r} is not printable ASCII")
    if not payload:
        raise ValueError("armour payload is empty")
    encoded = base64.b64encode(payload).decode("ascii")
    lines = [f"-----BEGIN PBEM {kind}-----"]
    lines += [f"{key}: {value}" for key, value in headers.items()]
    lines.append("")
    lines += [encoded[i : i + LINE_LENGTH] for i in range(0, len(encoded), LINE_LENGTH)]
    lines.append("=" + _checksum(kind, headers, payload))
    lines.append(f"-----END PBEM {kind}-----")
    return "\n".join(lines) + "\n"


#: Characters mail clients and forums insert that can never be part of an armoured block.
_INVISIBLE = dict.fromkeys(map(ord, "\ufeff\u200b\u200c\u200d\u2060"), None)
_SPACES = dict.fromkeys(map(ord, "\u00a0\u2007\u202f\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2008\u2009\u200a\u3000"), " ")
_QUOTE_RE = re.compile(r"[ \t]*((?:[>|][ \t]*)*)")
_DONE_TO_A_LINE_RE = re.compile(r"\n[>| \t]")  # a line quoted or indented: read line by line


def unquoted(line: str) -> tuple[int, str]:
    """``(quote depth, the rest)`` of a line: the ``>``/``|`` marks and spaces before its content."""
    if not line or line[0] not in " \t>|":  # most lines: nothing before the content (a large file has thousands)
        return 0, line
    prefix = _QUOTE_RE.match(line).group(0)
    return sum(ch in ">|" for ch in prefix), line[len(prefix):]


def mail_lines(text: str) -> list[str]:
    """The lines of ``text`` with what mail adds and changes nothing taken out (see the module doc)."""
    if not text.isascii():  # the characters both tables change are none of them ASCII
        text = text.translate(_INVISIBLE).translate(_SPACES)
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return [line.rstrip(" \t") for line in lines]


#: Blocks read lately, by text and kind: ``verify`` reads each turn file once to refuse damage
#: before it checks anything, then again to check the chain.  A refusal is never kept (it names
#: its source); what a block holds does not depend on the source.
_READ: dict[tuple[str, str | None], tuple[str, dict[str, str], bytes]] = {}
_READ_KEPT = 256


def dearmour(
    text: str, expected_kind: str | None = None, source: str = "input"
) -> tuple[str, dict[str, str], bytes]:
    """Find the one armoured block in ``text``: ``(kind, headers, payload)``.

    With ``expected_kind`` only blocks of that kind count (a mail may carry
    several kinds).  Any damage is :class:`BadInput` naming ``source``.
    """
    found = _READ.get((text, expected_kind))
    if found is None:
        found = _dearmour(text, expected_kind, source)
        if len(_READ) >= _READ_KEPT:
            del _READ[next(iter(_READ))]
        _READ[(text, expected_kind)] = found
    kind, headers, payload = found
    return kind, dict(headers), payload


def _as_written(text: str, expected_kind: str | None) -> tuple[str, dict[str, str], bytes] | None:
    """The block of ``text`` when it stands there exactly as :func:`armour` writes it, else None.

    What pbem wrote and no mail client touched is most of what is read (a long ``verify``
    reads a hundred 37 KiB turn files), and the line-by-line reader below spends more on
    it than decoding it costs.  Here the one block is found by searching the text, and
    kept only if every line is the line :func:`armour` writes for what was read: the
    BEGIN line, each header, the one empty line, the payload's standard base64 (the
    re-encoded payload must be the text) in lines of 76 characters, the checksum and the
    END line alone on its line; so the answer is the one the line-by-line reader gives.
    Anything else (no block, two, another kind, a quoted, re-wrapped or damaged block,
    non-ASCII or CR in the text) is left to that reader, which names the problem.
    """
    if not text.isascii() or "\r" in text or text.count("-----BEGIN") != 1:
        return None
    start = text.find("-----BEGIN PBEM ")
    head_end = text.find("\n", start)
    if start < 0 or (start and text[start - 1] != "\n") or head_end < 0:
        return None
    match = _BEGIN_RE.fullmatch(text, start, head_end)
    if not match or (expected_kind is not None and match.group("kind") != expected_kind):
        return None
    kind = match.group("kind")
    end_line = f"-----END PBEM {kind}-----"
    end = text.find("\n" + end_line, head_end)
    stop = end + 1 + len(end_line)
    if end < 0 or (stop < len(text) and text[stop] != "\n"):
        return None
    block = text[head_end + 1 : end]
    if block.startswith("\n"):
        header_lines, body = [], block[1:]
    else:
        header_text, blank, body = block.partition("\n\n")
        if not blank:
            return None
        header_lines = header_text.split("\n")
    headers: dict[str, str] = {}
    for line in header_lines:
        header = _HEADER_LINE_RE.fullmatch(line)
        if not header or header.group(1) in headers:
            return None
        headers[header.group(1)] = header.group(2)
    lines, _, checksum_line = body.rpartition("\n")
    # Lines of LINE_LENGTH characters, the last one shorter or as long, none empty.
    breaks = lines[LINE_LENGTH :: LINE_LENGTH + 1]
    if not lines or lines.endswith("\n") or lines.count("\n") != len(breaks) or breaks.strip("\n"):
        return None
    encoded = lines.replace("\n", "")
    try:
        payload = binascii.a2b_base64(encoded, strict_mode=True)
    except (binascii.Error, ValueError):
        return None
    if not payload or binascii.b2a_base64(payload, newline=False) != encoded.encode("ascii"):
        return None
    if checksum_line != "=" + _checksum(kind, headers, payload):
        return None
    return kind, headers, payload


def _dearmour(text: str, expected_kind: str | None, source: str) -> tuple[str, dict[str, str], bytes]:
    found = _as_written(text, expected_kind)
    return found if found is not None else _by_lines(text, expected_kind, source)


def _by_lines(text: str, expected_kind: str | None, source: str) -> tuple[str, dict[str, str], bytes]:
    """Read the block line by line, undoing what mail did to it and naming any damage."""
    lines = mail_lines(text)
    starts = []
    for index in [index for index, line in enumerate(lines) if "-----BEGIN" in line]:
        depth, content = unquoted(lines[index])
        match = _BEGIN_RE.fullmatch(content)
        if match:
            starts.append((index, depth, match.group("kind")))
    wanted = [s for s in starts if expected_kind is None or s[2] == expected_kind]
    label = f"PBEM {expected_kind}" if expected_kind else "PBEM"
    if not wanted:
        if starts:
            found = ", ".join(sorted({f"PBEM {s[2]}" for s in starts}))
            raise BadInput(
                f"holds a {found} block, not a {label} block",
                file=source,
                hint="check you gave the right file",
            )
        raise BadInput(
            f"no -----BEGIN {label}----- block found",
            file=source,
            hint="give the file or mail text that contains the whole block, BEGIN to END lines",
        )
    if len(wanted) > 1:
        raise BadInput(
            f"holds {len(wanted)} {label} blocks; pbem reads one at a time",
            file=source,
            hint="save each block in its own file",
        )
    start, depth, kind = wanted[0]
    return kind, *_read_block(lines, start, depth, kind, source)


def _plain_body(lines: list[str], start: int, end_line: str) -> list[tuple[int, str]] | None:
    """The block's lines as they are, when nothing was done to them: no quoting, no indent, the END line alone.

    ``None`` for any other block, which :func:`_body` reads line by line (it names what is wrong).
    """
    try:
        stop = lines.index(end_line, start + 1)
    except ValueError:
        return None
    block = lines[start + 1 : stop]
    text = "\n" + "\n".join(block)
    if end_line in text or _DONE_TO_A_LINE_RE.search(text):
        return None
    return list(enumerate(block, start + 1))


def _body(lines: list[str], start: int, depth: int, end_line: str, fail) -> list[tuple[int, str]]:
    """The block's lines from BEGIN to END, each unquoted to the BEGIN line's depth."""
    body: list[tuple[int, str]] = []
    for index in range(start + 1, len(lines)):
        quoted, content = unquoted(lines[index])
        if quoted > depth:
            raise fail(f"quoted more deeply ({quoted} '>') than the BEGIN line ({depth})", index)
        if content.endswith(end_line):  # a reflowed paragraph may have pulled the END line up
            if content != end_line:
                body.append((index, content[: -len(end_line)].rstrip(" \t")))
            break
        body.append((index, content))
    else:
        raise fail(f"no {end_line} line: the block is cut off")
    return body


def _read_block(
    lines: list[str], start: int, depth: int, kind: str, source: str
) -> tuple[dict[str, str], bytes]:
    def fail(message: str, line_no: int | None = None) -> BadInput:
        where = f"line {line_no + 1}: " if line_no is not None else ""
        return BadInput(f"PBEM {kind} block damaged in transit: {where}{message}", file=source, hint=_RESEND)

    end_line = f"-----END PBEM {kind}-----"
    body = _plain_body(lines, start, end_line)
    if body is None:
        body = _body(lines, start, depth, end_line, fail)
    body = [(index, content) for index, content in body if content != ""]
    headers: dict[str, str] = {}
    position = 0
    while position < len(body) and ":" in body[position][1]:
        index, content = body[position]
        match = _HEADER_LINE_RE.fullmatch(content)
        if not match:
            raise fail("expected a 'Key: Value' header line", index)
        key, value = match.groups()
        if key in headers:
            raise fail(f"header {key} appears twice", index)
        headers[key] = value
        position += 1

    # A reflowed paragraph joins lines with spaces; base64 has none, so each word is a line of its own.
    data_lines = body[position:]
    flat = "\n".join([content for _, content in data_lines])
    if " " in flat or "\t" in flat:
        data_lines = [(index, word) for index, content in data_lines
                      for word in (re.split(r"[ \t]+", content) if " " in content or "\t" in content else (content,)) if word]
    if len(data_lines) < 2:
        raise fail("no payload")
    *payload_lines, (checksum_index, checksum_line) = data_lines
    encoded = "".join([content for _, content in payload_lines])
    try:
        payload = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        payload = None
    if payload is None:
        # Text that decodes holds only base64 characters, so only a block that does not
        # is looked at line by line, to name the first line that is not base64.
        for index, content in payload_lines:
            if not _B64_LINE_RE.fullmatch(content):
                raise fail("is not a base64 line", index)
    checksum = _CHECKSUM_RE.fullmatch(checksum_line)
    if not checksum:
        raise fail("expected the checksum line '=XXXXXXXX' before the END line", checksum_index)
    if payload is None:
        raise fail("the base64 text is damaged")
    if not payload or base64.b64encode(payload).decode("ascii") != encoded:
        raise fail("the base64 text is damaged")
    if _checksum(kind, headers, payload) != checksum.group(1):
        raise fail("checksum mismatch: a character of the block was changed")
    return headers, payload

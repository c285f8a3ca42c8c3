"""Standard output and error set up so that nothing pbem prints can crash it, on any console.

pbem prints arrows, dashes, box and map glyphs and the names in the files it
reads.  Where the output goes decides how:

* a file or a pipe (``pbem view … > view.txt``, a mail being written) gets
  UTF-8 whatever the locale says (``PYTHONIOENCODING=cp1252``, ``LC_ALL=C``),
  so the text survives whole;
* a console that writes UTF-8 (every Windows console since Python 3.6, every
  modern Linux and macOS terminal) gets it as it is;
* a console with a legacy code page (cp1252, cp437, …) keeps its code page —
  UTF-8 bytes would show as ``â†'`` — and what it cannot show degrades to a
  plain stand-in: ``→`` becomes ``->``, ``━`` ``=``, an accented letter its
  bare letter, anything else ``?``.

A lone surrogate from a damaged file is written escaped (``\\udcff``) in either case.
"""

from __future__ import annotations

import codecs
import unicodedata

#: The name of the error handler that degrades what a legacy console cannot show.
PLAIN = "pbem-plain"

#: Stand-ins for the glyphs pbem prints itself; anything else falls to its bare letter or ``?``.
_STAND_INS = {
    "→": "->", "←": "<-", "↑": "^", "↓": "v", "⇒": "=>", "↔": "<->",
    "—": "-", "–": "-", "‒": "-", "−": "-", "…": "...", "·": ".", "•": "*", "×": "x",
    "‘": "'", "’": "'", "“": '"', "”": '"', "≥": ">=", "≤": "<=", "≠": "!=", "±": "+/-", "½": "1/2",
    "━": "=", "─": "-", "═": "=", "│": "|", "┃": "|", "║": "|",
    "┌": "+", "┐": "+", "└": "+", "┘": "+", "├": "+", "┤": "+", "┬": "+", "┴": "+", "┼": "+",
    "╭": "+", "╮": "+", "╰": "+", "╯": "+",
    "█": "#", "▓": "#", "▒": "%", "░": ".", "▪": "*", "■": "#", "□": "o", "●": "*", "○": "o",
    "✓": "v", "✔": "v", "✗": "x", "✘": "x", "⚠": "!", "★": "*", "☆": "*",
    "⬡": "o", "⬢": "*", "◆": "*", "◇": "o", "▲": "^", "▼": "v", "►": ">", "◄": "<",
}


def stand_in(char: str) -> str:
    """An ASCII stand-in for ``char``: from the table, else its letter without accents, else ``?``."""
    if char in _STAND_INS:
        return _STAND_INS[char]
    if 0xD800 <= ord(char) <= 0xDFFF:  # a lone surrogate: damaged input, shown escaped
        return f"\\u{ord(char):04x}"
    bare = "".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c))
    return bare if bare and bare.isascii() and bare.isprintable() else "?"


def _plain(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    return "".join(stand_in(c) for c in error.object[error.start : error.end]), error.end


codecs.register_error(PLAIN, _plain)


def is_utf(encoding: str | None) -> bool:
    """True for UTF-8 and its spellings (``utf-8``, ``UTF8``, ``utf_8``)."""
    if not encoding:
        return False
    try:
        return codecs.lookup(encoding).name in ("utf-8", "utf-8-sig")
    except LookupError:
        return False


def prepare(stream) -> None:
    """Set ``stream`` (sys.stdout or sys.stderr) up as the module doc says; leave a stream that is not ours alone."""
    try:
        console = stream.isatty()
    except (AttributeError, ValueError, OSError):
        console = False
    try:
        if console and not is_utf(getattr(stream, "encoding", None)):
            stream.reconfigure(errors=PLAIN)
        else:
            stream.reconfigure(encoding="utf-8", errors="backslashreplace")
    except (AttributeError, ValueError, OSError, LookupError):
        pass  # not a text stream of our own (a test harness's buffer)

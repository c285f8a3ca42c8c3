"""The errors pbem reports to its users, and the exit status each one means.

Every failure a user can cause is one of these, never a traceback: the CLI
catches :class:`PbemError`, prints :meth:`PbemError.render` and exits with
:attr:`PbemError.exit_code`.  Bad input (a malformed file, an illegal order, a
wrong key) exits 2; a check that ran and found something wrong (a bad
signature, a broken hash chain, a roll that does not recompute) exits 1.
"""

from __future__ import annotations

import unicodedata

#: Unicode categories a reader cannot see or that break a line: controls,
#: format characters (zero-width space, joiners, direction marks),
#: surrogates, private use, unassigned, and separators other than the space.
_INVISIBLE = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp", "Zs"})


def visible(text: str) -> str:
    """``text`` with every invisible or line-breaking character written as ``\\u200b``.

    An id that differs from the right one by a zero-width space or a
    non-breaking space looks identical on screen; shown escaped, the
    difference is plain.  Plain spaces stay spaces.
    """
    if text.isascii() and text.isprintable():
        return text
    return "".join(_escaped(ch) if ch != " " and unicodedata.category(ch) in _INVISIBLE else ch for ch in text)


def _escaped(ch: str) -> str:
    return f"\\u{ord(ch):04x}" if ord(ch) <= 0xFFFF else f"\\U{ord(ch):08x}"


class PbemError(Exception):
    """Base of every error meant for a user.

    ``file`` names the file at fault, ``field`` the field or unit inside it,
    ``rule`` the rule case broken (``"5.14"``) when there is one, and ``hint``
    says what to do about it.
    """

    exit_code = 2

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        field: str | None = None,
        rule: str | None = None,
        hint: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.field = field
        self.rule = rule
        self.hint = hint

    def render(self) -> str:
        """One line a user can act on: where, what, which rule, what to do."""
        where = ": ".join(part for part in (self.file, self.field) if part)
        text = f"{where}: {self.message}" if where else self.message
        if self.rule:
            text += f" (rule {self.rule})"
        if self.hint:
            text += f" — {self.hint}"
        return visible(text)


class BadInput(PbemError):
    """A file, argument or order that cannot be accepted (exit status 2)."""

    exit_code = 2


class VerificationFailed(PbemError):
    """A check ran and did not hold: signature, hash chain, dice (exit status 1)."""

    exit_code = 1

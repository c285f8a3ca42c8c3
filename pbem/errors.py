"""The errors pbem reports to its users, and the exit status each one means.

Every failure a user can cause is one of these, never a traceback: the CLI
catches :class:`PbemError`, prints :meth:`PbemError.render` and exits with
:attr:`PbemError.exit_code`.  Bad input (a malformed file, an illegal order, a
wrong key) exits 2; a check that ran and found something wrong (a bad
signature, a broken hash chain, a roll that does not recompute) exits 1.
"""

from __future__ import annotations


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
        return text


class BadInput(PbemError):
    """A file, argument or order that cannot be accepted (exit status 2)."""

    exit_code = 2


class VerificationFailed(PbemError):
    """A check ran and did not hold: signature, hash chain, dice (exit status 1)."""

    exit_code = 1

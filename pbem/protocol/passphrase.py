"""Getting a key file's passphrase from the user without ever echoing or storing it.

For each key, the first of these that is set:

1. ``PBEM_PASSPHRASE_<NAME>``, where NAME is the key file's name without
   ``.key``, upper-cased, every other character than a letter or digit
   written ``_`` (``ref.key`` → ``PBEM_PASSPHRASE_REF``, ``us-2.key`` →
   ``PBEM_PASSPHRASE_US_2``) — so a command given two keys
   (``audit --key ref.key --key alice.key``) opens each with its own;
2. the environment variable named by ``--passphrase-env``;
3. ``PBEM_PASSPHRASE``;
4. a hidden prompt, when a terminal is attached.

A script without a terminal must say where the passphrase is.  ``keygen``
reads the same places (``--no-passphrase`` overrides them all) and refuses a
new passphrase shorter than :data:`MIN_LENGTH` characters.
"""

from __future__ import annotations

import getpass
import os
import re
import sys
from pathlib import Path

from pbem.errors import BadInput

DEFAULT_ENV = "PBEM_PASSPHRASE"

#: The shortest passphrase a new key file accepts (README, docs/PROTOCOL.md).
MIN_LENGTH = 8

#: How many times the prompt asks for a key's passphrase before giving up, as a login prompt does.
TRIES = 3


def key_env(name: str) -> str:
    """The environment variable holding the passphrase of the key called ``name`` (``ref`` or ``ref.key``)."""
    stem = name[: -len(".key")] if name.endswith(".key") else name
    return f"{DEFAULT_ENV}_{re.sub(r'[^A-Za-z0-9]', '_', stem).upper()}"


def _from_env(var: str) -> bytes:
    value = os.environ.get(var)
    if value is None:
        raise BadInput(f"the environment variable {var} is not set", hint=f"export {var}=... holding the passphrase, or leave out --passphrase-env to be asked")
    if not value:
        raise BadInput(f"the environment variable {var} is empty", hint="a passphrase cannot be empty; use --no-passphrase for an unprotected key")
    return value.encode("utf-8")


def _from_environment(key_name: str, env: str | None) -> bytes | None:
    """The passphrase the environment gives for ``key_name`` (see the module doc), or None."""
    if os.environ.get(key_env(key_name)) is not None:
        return _from_env(key_env(key_name))
    if env:
        return _from_env(env)
    if os.environ.get(DEFAULT_ENV):
        return _from_env(DEFAULT_ENV)
    return None


def for_reading(key_path: Path, env: str | None) -> bytes | None:
    """The passphrase that opens ``key_path``, or None when it has none."""
    from pbem.protocol.keys import passphrase_needed

    if not passphrase_needed(key_path):
        return None
    given = _from_environment(Path(key_path).name, env)
    if given is not None:
        return given
    if sys.stdin.isatty():
        return getpass.getpass(f"Passphrase for {key_path}: ").encode("utf-8")
    raise BadInput(
        "this key file is protected by a passphrase and no terminal is attached to ask for it",
        file=str(key_path),
        hint=f"set {key_env(Path(key_path).name)} or {DEFAULT_ENV}, or give --passphrase-env VAR naming an environment variable that holds it",
    )


def for_new_key(env: str | None, none: bool, name: str = "") -> bytes | None:
    """The passphrase to protect the new key ``name``: from the environment, none at all, or asked twice."""
    if env and none:
        raise BadInput("give either --passphrase-env or --no-passphrase, not both")
    if none:
        return None
    given = _from_environment(name, env)
    if given is None:
        if not sys.stdin.isatty():
            raise BadInput(
                "no terminal is attached to ask for a passphrase",
                hint=f"set {DEFAULT_ENV} (or {key_env(name)}), give --passphrase-env VAR, or --no-passphrase",
            )
        first = getpass.getpass("Passphrase for the new key: ")
        if first and len(first) >= MIN_LENGTH and getpass.getpass("The same passphrase again: ") != first:
            raise BadInput("the two passphrases differ; nothing was written")
        given = first.encode("utf-8")
    if not given:
        raise BadInput("a passphrase cannot be empty", hint="use --no-passphrase for an unprotected key")
    if len(given.decode("utf-8")) < MIN_LENGTH:
        raise BadInput(
            f"the passphrase is {len(given.decode('utf-8'))} character(s) long; a new key needs at least {MIN_LENGTH}",
            hint="choose a longer passphrase (a few words are easy to remember), or --no-passphrase",
        )
    return given


def _wrong(exc: BadInput) -> bool:
    return exc.message.startswith("wrong passphrase")


def open_key(key_path: Path, env: str | None):
    """The private identity in ``key_path``.

    A wrong passphrase typed at the prompt is asked for again, up to
    :data:`TRIES` times, each time saying how many tries are left: sent back
    to the shell, a player would type it there, into his shell's history.
    """
    from pbem.protocol.keys import passphrase_needed, read_private

    if not passphrase_needed(key_path):
        return read_private(key_path, None)
    given = _from_environment(Path(key_path).name, env)
    if given is not None or not sys.stdin.isatty():
        try:
            return read_private(key_path, for_reading(key_path, env) if given is None else given)
        except BadInput as exc:
            if not _wrong(exc):
                raise
            var = key_env(Path(key_path).name) if os.environ.get(key_env(Path(key_path).name)) is not None else env or DEFAULT_ENV
            raise BadInput(
                f"wrong passphrase in the environment variable {var} (or the key file is damaged)",
                file=str(key_path),
                hint=f"set {var} to this key's passphrase (checking its keyboard layout), or unset it to be asked",
            ) from None
    for attempt in range(1, TRIES + 1):
        typed = getpass.getpass(f"Passphrase for {key_path}: ").encode("utf-8")
        try:
            return read_private(key_path, typed)
        except BadInput as exc:
            if not _wrong(exc):
                raise
            left = TRIES - attempt
            if left:
                print(f"wrong passphrase: {left} {'try' if left == 1 else 'tries'} left (check Caps Lock and the keyboard layout)", file=sys.stderr)
    raise BadInput(
        f"wrong passphrase {TRIES} times (or the key file is damaged); pbem has stopped asking",
        file=str(key_path),
        hint="run the command again when you have the passphrase (check Caps Lock and the keyboard layout)",
    )

"""Getting a key file's passphrase from the user without ever echoing or storing it.

In order: the environment variable named by ``--passphrase-env``, else
``PBEM_PASSPHRASE`` when set, else a hidden prompt when a terminal is
attached.  A script without a terminal must say where the passphrase is.
"""

from __future__ import annotations

import getpass
import os
import sys
from pathlib import Path

from pbem.errors import BadInput

DEFAULT_ENV = "PBEM_PASSPHRASE"


def _from_env(var: str) -> bytes:
    value = os.environ.get(var)
    if value is None:
        raise BadInput(f"the environment variable {var} is not set", hint=f"export {var}=... holding the passphrase, or leave out --passphrase-env to be asked")
    if not value:
        raise BadInput(f"the environment variable {var} is empty", hint="a passphrase cannot be empty; use --no-passphrase for an unprotected key")
    return value.encode("utf-8")


def for_reading(key_path: Path, env: str | None) -> bytes | None:
    """The passphrase that opens ``key_path``, or None when it has none."""
    from pbem.protocol.keys import passphrase_needed

    if not passphrase_needed(key_path):
        return None
    if env:
        return _from_env(env)
    if os.environ.get(DEFAULT_ENV):
        return _from_env(DEFAULT_ENV)
    if sys.stdin.isatty():
        return getpass.getpass(f"Passphrase for {key_path}: ").encode("utf-8")
    raise BadInput(
        "this key file is protected by a passphrase and no terminal is attached to ask for it",
        file=str(key_path),
        hint=f"set {DEFAULT_ENV}, or give --passphrase-env VAR naming an environment variable that holds it",
    )


def for_new_key(env: str | None, none: bool) -> bytes | None:
    """The passphrase to protect a new key: from ``env``, none at all, or asked twice."""
    if env and none:
        raise BadInput("give either --passphrase-env or --no-passphrase, not both")
    if none:
        return None
    if env:
        return _from_env(env)
    if not sys.stdin.isatty():
        raise BadInput(
            "no terminal is attached to ask for a passphrase",
            hint="give --passphrase-env VAR naming an environment variable that holds it, or --no-passphrase",
        )
    first = getpass.getpass("Passphrase for the new key: ")
    if not first:
        raise BadInput("a passphrase cannot be empty", hint="use --no-passphrase for an unprotected key")
    if getpass.getpass("The same passphrase again: ") != first:
        raise BadInput("the two passphrases differ; nothing was written")
    return first.encode("utf-8")


def open_key(key_path: Path, env: str | None):
    """The private identity in ``key_path``."""
    from pbem.protocol.keys import read_private

    return read_private(key_path, for_reading(key_path, env))

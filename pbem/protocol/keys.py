"""Identities: who signs and who can open what.

Each party (US player, Japanese player, referee) has one identity made of two
key pairs: an Ed25519 key that signs and an X25519 key that sealed data is
encrypted to (HPKE, see :mod:`pbem.protocol.sealing`).  Two keys because one
key should do one job.

Public identity line
--------------------
A public identity is one line a player can paste into an e-mail::

    pbem-id-1 alice <sign> <enc>

``pbem-id-1`` is the format tag; the name is 1–64 characters from
``[A-Za-z0-9._-]`` (a label for humans — keys, not names, are what is
checked); ``<sign>`` is the 32-byte raw Ed25519 public key and ``<enc>`` the
32-byte raw X25519 public key, each in unpadded URL-safe base64 (43
characters).  Fields are separated by single spaces.  A ``NAME.pub`` file holds
that line and a newline; when reading, other lines (mail text, ``#`` comments)
and quote prefixes are ignored, but exactly one identity line must be present.

Fingerprint: the first 16 lower-case hex digits of
``SHA-256("pbem-v1/fingerprint\\0" || sign || enc)`` — for display and for the
``signer`` field of envelopes; verification always compares full keys.

Private key file (``NAME.key``)
-------------------------------
A JSON object (pretty-printed, sorted keys), mode 0600::

    {"format": "pbem-private-key-1",
     "name": "alice",
     "public": "pbem-id-1 alice …",
     "protection": "scrypt+fernet",
     "kdf": {"name": "scrypt", "salt": "<b64, 16 bytes>", "n": 131072, "r": 8, "p": 1},
     "keys_sealed": "<Fernet token>"}

``keys_sealed`` is the Fernet token (``cryptography.fernet``: AES-128-CBC +
HMAC-SHA256, authenticated) of the canonical JSON ``{"enc": PEM, "sign": PEM}``
— the two private keys as unencrypted PKCS#8 PEM — under the Fernet key
``urlsafe_b64encode(scrypt(passphrase, salt, n, r, p, length=32))``.  This is
the library's documented recipe for passphrase encryption ("Using passwords
with Fernet"), with scrypt as the key-derivation function.  Why not PKCS#8
``BestAvailableEncryption`` per key: in cryptography 50 it uses PBKDF2 with
only 2048 iterations and no way to raise it, and the formats with a tunable
work factor (OpenSSH, PKCS#12) cannot hold an X25519 key.

Without a passphrase (``--no-passphrase``) the file has
``"protection": "none"`` and ``"keys": {"enc": PEM, "sign": PEM}`` instead of
``kdf``/``keys_sealed`` — readable by ``openssl pkey``.

Private key material appears in that file and nowhere else: the public file,
the ``repr`` of :class:`PrivateIdentity` and every error message carry only
names, public keys and fingerprints.
"""

from __future__ import annotations

import base64
import binascii
import functools
import hashlib
import json
import os
import re
import secrets
from dataclasses import dataclass
from pathlib import Path

from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives.asymmetric import ed25519, x25519

from pbem.errors import BadInput
from pbem.protocol import fields
from pbem.protocol.canonical import b64e, canonical_bytes, parse_canonical
from pbem.protocol.files import read_text, write_new

ID_TAG = "pbem-id-1"
KEY_FILE_FORMAT = "pbem-private-key-1"
NAME_RE = re.compile(r"[A-Za-z0-9._-]{1,64}")

#: scrypt cost used for new key files: 2**17 iterations, 128 MiB, ~0.3 s.
DEFAULT_SCRYPT_N = 2**17
SCRYPT_R = 8
SCRYPT_P = 1
_SCRYPT_N_RANGE = (2**10, 2**22)
#: What a key file may demand before its passphrase is tried: scrypt takes 128·n·r bytes and n·r·p of work.
#: pbem writes 128 MiB and 2**20; a key file asking for 16 GiB is refused, not run into a MemoryError.
MAX_SCRYPT_MEMORY = 1024 * 2**20
MAX_SCRYPT_WORK = 8 * DEFAULT_SCRYPT_N * SCRYPT_R

_FINGERPRINT_DOMAIN = b"pbem-v1/fingerprint\x00"


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64url(text: str) -> bytes | None:
    """Strict unpadded URL-safe base64 of 32 bytes, or None."""
    if len(text) != 43 or not re.fullmatch(r"[A-Za-z0-9_-]+", text):
        return None
    try:
        data = base64.urlsafe_b64decode(text + "=")
    except (binascii.Error, ValueError):
        return None
    return data if _b64url(data) == text else None


@dataclass(frozen=True, repr=False)
class PublicIdentity:
    """A party's name and public keys; safe to publish, print and paste."""

    name: str
    sign_public: bytes
    enc_public: bytes

    @property
    def fingerprint(self) -> str:
        """16 hex digits naming this identity's keys, for people to compare."""
        data = _FINGERPRINT_DOMAIN + self.sign_public + self.enc_public
        return hashlib.sha256(data).hexdigest()[:16]

    def line(self) -> str:
        """The one-line form ``pbem-id-1 NAME SIGN ENC``."""
        return f"{ID_TAG} {self.name} {_b64url(self.sign_public)} {_b64url(self.enc_public)}"

    def __str__(self) -> str:
        return self.line()

    def __repr__(self) -> str:
        return f"PublicIdentity(name={self.name!r}, fingerprint={self.fingerprint!r})"

    def describe(self) -> str:
        """``alice (fingerprint 4f3a9c2e11ab07d2)`` — for messages."""
        return f"{self.name} (fingerprint {self.fingerprint})"

    def same_keys(self, other: "PublicIdentity") -> bool:
        """True when both identities hold the same two public keys."""
        return self.sign_public == other.sign_public and self.enc_public == other.enc_public

    @property
    def verify_key(self) -> ed25519.Ed25519PublicKey:
        """The Ed25519 key that checks this party's signatures."""
        return ed25519.Ed25519PublicKey.from_public_bytes(self.sign_public)

    @property
    def seal_key(self) -> x25519.X25519PublicKey:
        """The X25519 key data is sealed to for this party (made by the library's compiled core, see :func:`_x25519`)."""
        return _x25519().from_public_bytes(self.enc_public)

    @classmethod
    def from_line(cls, line: str, *, source: str | None = None, field: str | None = None) -> "PublicIdentity":
        """Parse ``pbem-id-1 NAME SIGN ENC``; anything else is :class:`BadInput`."""
        known = _READ_LINES.get(line) if isinstance(line, str) and cls is PublicIdentity else None
        if known is not None:
            return known
        hint = "copy the whole line starting with 'pbem-id-1' from the player's .pub file"
        parts = line.strip().split(" ") if isinstance(line, str) else []
        if len(parts) != 4 or parts[0] != ID_TAG:
            raise BadInput(
                f"not a public identity line ('{ID_TAG} NAME SIGNKEY ENCKEY')",
                file=source, field=field, hint=hint,
            )
        _, name, sign_text, enc_text = parts
        if not NAME_RE.fullmatch(name):
            raise BadInput(f"identity name {name!r} is not allowed", file=source, field=field, hint=hint)
        sign_public = _unb64url(sign_text)
        enc_public = _unb64url(enc_text)
        if sign_public is None or enc_public is None:
            raise BadInput("a public key in the identity line was damaged in transit (cut short or changed)", file=source, field=field, hint=hint)
        identity = cls(name, sign_public, enc_public)
        if not _usable(sign_public, enc_public):
            raise BadInput("the identity line holds an unusable key", file=source, field=field, hint=hint)
        if cls is PublicIdentity and len(_READ_LINES) < 1024:
            _READ_LINES[line] = identity
        return identity


#: Identity lines read before, each with its identity (immutable): every turn file of a game carries the same three.
_READ_LINES: dict[str, PublicIdentity] = {}


#: The private key an identity's X25519 point is tried with.  Any key serves: clamping makes
#: every scalar a multiple of 8, so a low-order point gives the all-zero secret the library
#: refuses whatever the key.  A fixed one spares a command that holds no key the set-up of
#: OpenSSL's random generator (about 1 ms of CPU), which generating one would cost.
_PROBE = bytes(range(1, 33))


@functools.lru_cache(maxsize=1)
def _x25519():
    """The X25519 key functions of the library's compiled core, which its ``X25519PublicKey.from_public_bytes`` and
    ``X25519PrivateKey.from_private_bytes`` call after asking the OpenSSL backend object whether X25519 is
    supported: loading that object (its ciphers, RSA, EC, DH) costs a command that only checks identities more
    than the check (docs/performance.md).  An unsupported X25519 raises ``UnsupportedAlgorithm`` here too.
    Where a later release moves them, the public classes are used."""
    try:
        from cryptography.hazmat.bindings._rust import openssl as rust_openssl

        core = rust_openssl.x25519
        if callable(core.from_public_bytes) and callable(core.from_private_bytes):
            return core
    except (ImportError, AttributeError):
        pass
    return _PublicX25519


class _PublicX25519:
    from_public_bytes = staticmethod(lambda data: x25519.X25519PublicKey.from_public_bytes(data))
    from_private_bytes = staticmethod(lambda data: x25519.X25519PrivateKey.from_private_bytes(data))


@functools.lru_cache(maxsize=256)
def _usable(sign_public: bytes, enc_public: bytes) -> bool:
    """Refuse keys the library rejects (e.g. a low-order X25519 point).
    Cached: the same few identities are read again with every file."""
    try:
        ed25519.Ed25519PublicKey.from_public_bytes(sign_public)
        _x25519().from_private_bytes(_PROBE).exchange(_x25519().from_public_bytes(enc_public))
    except (ValueError, UnsupportedAlgorithm):
        return False
    return True


class PrivateIdentity:
    """A party's name and private keys.  Its ``repr`` shows no key material."""

    __slots__ = ("_name", "_signing_key", "_encryption_key", "_public")

    def __init__(
        self,
        name: str,
        signing_key: ed25519.Ed25519PrivateKey,
        encryption_key: x25519.X25519PrivateKey,
    ) -> None:
        if not NAME_RE.fullmatch(name):
            raise BadInput(
                f"identity name {name!r} is not allowed",
                hint="use 1-64 letters, digits, '.', '_' or '-'",
            )
        self._name = name
        self._signing_key = signing_key
        self._encryption_key = encryption_key
        self._public = PublicIdentity(
            name,
            signing_key.public_key().public_bytes_raw(),
            encryption_key.public_key().public_bytes_raw(),
        )

    @property
    def name(self) -> str:
        return self._name

    @property
    def public(self) -> PublicIdentity:
        """The publishable half."""
        return self._public

    @property
    def fingerprint(self) -> str:
        return self._public.fingerprint

    @property
    def signing_key(self) -> ed25519.Ed25519PrivateKey:
        """For :mod:`pbem.protocol.signing` only."""
        return self._signing_key

    @property
    def encryption_key(self) -> x25519.X25519PrivateKey:
        """For :mod:`pbem.protocol.sealing` only."""
        return self._encryption_key

    def __repr__(self) -> str:
        return f"PrivateIdentity(name={self._name!r}, fingerprint={self.fingerprint!r})"

    __str__ = __repr__

    def __reduce__(self):  # pragma: no cover - guard, not behaviour
        raise TypeError("a PrivateIdentity is not serialised except by keys.write_private")


def generate(name: str) -> PrivateIdentity:
    """A new identity with fresh Ed25519 and X25519 keys."""
    return PrivateIdentity(name, ed25519.Ed25519PrivateKey.generate(), x25519.X25519PrivateKey.generate())


# ---------------------------------------------------------------- key files


# serialization (PEM), Fernet and scrypt are imported where a private key file is written or
# read: commands that only check signed files (verify, audit) never load them.


def _pem(key: ed25519.Ed25519PrivateKey | x25519.X25519PrivateKey) -> str:
    from cryptography.hazmat.primitives import serialization

    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode("ascii")


def _fernet_key(passphrase: bytes, salt: bytes, n: int, r: int, p: int) -> bytes:
    from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

    derived = Scrypt(salt=salt, length=32, n=n, r=r, p=p).derive(passphrase)
    return base64.urlsafe_b64encode(derived)


def private_file_text(identity: PrivateIdentity, passphrase: bytes | None, *, scrypt_n: int = DEFAULT_SCRYPT_N) -> str:
    """The text of a ``NAME.key`` file (see the module docstring)."""
    keys = {"enc": _pem(identity.encryption_key), "sign": _pem(identity.signing_key)}
    document: dict = {
        "format": KEY_FILE_FORMAT,
        "name": identity.name,
        "public": identity.public.line(),
    }
    if passphrase is None:
        document["protection"] = "none"
        document["keys"] = keys
    else:
        if not isinstance(passphrase, bytes) or not passphrase:
            raise BadInput(
                "the passphrase is empty",
                hint="type a passphrase, or choose --no-passphrase to store the key unencrypted",
            )
        if not (_SCRYPT_N_RANGE[0] <= scrypt_n <= _SCRYPT_N_RANGE[1]) or scrypt_n & (scrypt_n - 1) \
                or 128 * scrypt_n * SCRYPT_R > MAX_SCRYPT_MEMORY or scrypt_n * SCRYPT_R * SCRYPT_P > MAX_SCRYPT_WORK:
            raise ValueError(f"scrypt n={scrypt_n} must be a power of two in {_SCRYPT_N_RANGE}")
        from cryptography.fernet import Fernet

        salt = secrets.token_bytes(16)
        fernet = Fernet(_fernet_key(passphrase, salt, scrypt_n, SCRYPT_R, SCRYPT_P))
        document["protection"] = "scrypt+fernet"
        document["kdf"] = {"name": "scrypt", "salt": b64e(salt), "n": scrypt_n, "r": SCRYPT_R, "p": SCRYPT_P}
        document["keys_sealed"] = fernet.encrypt(canonical_bytes(keys)).decode("ascii")
    return json.dumps(document, indent=2, sort_keys=True) + "\n"


def write_private(
    path: str | os.PathLike[str],
    identity: PrivateIdentity,
    passphrase: bytes | None,
    *,
    scrypt_n: int = DEFAULT_SCRYPT_N,
) -> Path:
    """Write ``NAME.key`` (mode 0600, atomically, never over an existing file).

    ``passphrase=None`` stores the keys unencrypted (``--no-passphrase``).
    ``scrypt_n`` is the work factor; lower it only in tests.
    """
    return write_new(path, private_file_text(identity, passphrase, scrypt_n=scrypt_n), mode=0o600)


def write_public(path: str | os.PathLike[str], identity: PrivateIdentity | PublicIdentity) -> Path:
    """Write ``NAME.pub``: the identity line and a newline."""
    public = identity.public if isinstance(identity, PrivateIdentity) else identity
    return write_new(path, public.line() + "\n", mode=0o644)


def _load_key_document(path: str | os.PathLike[str]) -> tuple[dict, fields.Where]:
    name = str(path)
    text = read_text(path, what="key file")
    where = fields.Where(name)
    try:
        document = json.loads(text)
    except (ValueError, RecursionError):
        raise where.fail(
            "is not a pbem key file (not JSON)",
            hint="give the NAME.key file made by 'pbem keygen'",
        ) from None
    fields.obj(document, where)
    if document.get("format") != KEY_FILE_FORMAT:
        raise where.fail(
            f"is not a pbem key file (format is not {KEY_FILE_FORMAT!r})",
            hint="give the NAME.key file made by 'pbem keygen'",
        )
    return document, where


def passphrase_needed(path: str | os.PathLike[str]) -> bool:
    """True when the key file at ``path`` is protected by a passphrase."""
    document, where = _load_key_document(path)
    protection = document.get("protection")
    if protection not in ("none", "scrypt+fernet"):
        raise where.at("protection").fail(f"unknown protection {protection!r}")
    return protection != "none"


def read_private(path: str | os.PathLike[str], passphrase: bytes | None) -> PrivateIdentity:
    """Load ``NAME.key``; a wrong passphrase or damaged file is :class:`BadInput`."""
    document, where = _load_key_document(path)
    protection = document.get("protection")
    if protection == "none":
        fields.obj(document, where, {"format", "name", "public", "protection", "keys"})
        keys = document["keys"]
    elif protection == "scrypt+fernet":
        fields.obj(document, where, {"format", "name", "public", "protection", "kdf", "keys_sealed"})
        keys = _unseal_keys(document, where, passphrase)
    else:
        raise where.at("protection").fail(f"unknown protection {protection!r}")

    fields.obj(keys, where.at("keys"), {"enc", "sign"})
    signing_key = _load_pem(keys["sign"], ed25519.Ed25519PrivateKey, where.at("keys.sign"))
    encryption_key = _load_pem(keys["enc"], x25519.X25519PrivateKey, where.at("keys.enc"))
    name = fields.string(document["name"], where.at("name"))
    identity = PrivateIdentity(name, signing_key, encryption_key)
    recorded = PublicIdentity.from_line(
        fields.string(document["public"], where.at("public")), source=where.source, field="public"
    )
    if not recorded.same_keys(identity.public) or recorded.name != name:
        raise where.fail(
            "the private keys do not match the public identity recorded in the file",
            hint="the key file is damaged; restore it from your backup",
        )
    return identity


def _unseal_keys(document: dict, where: fields.Where, passphrase: bytes | None) -> dict:
    if passphrase is None:
        raise where.fail(
            "this key file is protected by a passphrase and none was given",
            hint="enter the passphrase you chose at 'pbem keygen'",
        )
    kdf_where = where.at("kdf")
    kdf = fields.obj(document["kdf"], kdf_where, {"name", "salt", "n", "r", "p"})
    if kdf["name"] != "scrypt":
        raise kdf_where.at("name").fail(f"unknown key derivation {kdf['name']!r}")
    salt = fields.b64(kdf["salt"], kdf_where.at("salt"))
    n = fields.integer(kdf["n"], kdf_where.at("n"))
    r = fields.integer(kdf["r"], kdf_where.at("r"))
    p = fields.integer(kdf["p"], kdf_where.at("p"))
    if not (_SCRYPT_N_RANGE[0] <= n <= _SCRYPT_N_RANGE[1]) or n & (n - 1) or not (1 <= r <= 32) or not (1 <= p <= 16):
        raise kdf_where.fail("scrypt parameters out of range", hint="the key file is damaged; restore it from your backup")
    memory, work = 128 * n * r, n * r * p
    if memory > MAX_SCRYPT_MEMORY or work > MAX_SCRYPT_WORK:
        raise kdf_where.fail(
            f"scrypt parameters n={n}, r={r}, p={p} would take {memory // 2**20} MiB of memory and {work // (DEFAULT_SCRYPT_N * SCRYPT_R)} "
            f"times the work of a key pbem writes; pbem allows at most {MAX_SCRYPT_MEMORY // 2**20} MiB and "
            f"{MAX_SCRYPT_WORK // (DEFAULT_SCRYPT_N * SCRYPT_R)} times",
            hint="this is not a key file pbem wrote (or it was altered); use your own key file from 'pbem keygen'",
        )
    token = fields.string(document["keys_sealed"], where.at("keys_sealed"))
    from cryptography.fernet import Fernet, InvalidToken

    try:
        plaintext = Fernet(_fernet_key(passphrase, salt, n, r, p)).decrypt(token.encode("ascii"))
    except (InvalidToken, UnicodeEncodeError, ValueError):
        raise BadInput(
            "wrong passphrase (or the key file is damaged)",
            file=where.source,
            hint="type the passphrase again, checking Caps Lock and keyboard layout",
        ) from None
    return parse_canonical(plaintext, source=where.source, what="the decrypted keys")


@functools.lru_cache(maxsize=1)
def _pem_loader():
    """``serialization.load_pem_private_key``, which is the library's compiled ``keys.load_pem_private_key`` under
    another name, taken from the compiled core: importing the ``serialization`` package also loads its SSH
    formats, bcrypt and legacy ciphers, which cost every command that opens a key more than reading it."""
    try:
        from cryptography.hazmat.bindings._rust import openssl as rust_openssl

        if callable(rust_openssl.keys.load_pem_private_key):
            return rust_openssl.keys.load_pem_private_key
    except (ImportError, AttributeError):
        pass
    from cryptography.hazmat.primitives import serialization

    return serialization.load_pem_private_key


def _load_pem(value, key_type, where: fields.Where):
    text = fields.string(value, where)
    try:
        key = _pem_loader()(text.encode("ascii"), password=None)
    except (ValueError, TypeError, UnicodeEncodeError, UnsupportedAlgorithm):
        raise where.fail("the private key is damaged", hint="restore the key file from your backup") from None
    if not isinstance(key, key_type):
        raise where.fail("holds the wrong kind of key", hint="restore the key file from your backup")
    return key


def read_public(path_or_line: str | os.PathLike[str]) -> PublicIdentity:
    """A public identity from a ``pbem-id-1 …`` line, or from a file holding one.

    What mail does to the line is undone first: quote prefixes, non-breaking
    spaces, a byte-order mark, and a wrap at 72 columns that put the keys (or
    part of one) on the next lines.
    """
    if isinstance(path_or_line, str) and _identity_lines(path_or_line):
        return PublicIdentity.from_line(_identity_lines(path_or_line)[0], source="identity line")
    name = str(path_or_line)
    candidates = _identity_lines(read_text(path_or_line, what="public identity file"))
    if not candidates:
        raise BadInput(
            f"no '{ID_TAG} …' identity line found",
            file=name,
            hint="give the NAME.pub file, or paste the identity line itself",
        )
    if len(set(candidates)) > 1:
        raise BadInput(
            f"holds {len(set(candidates))} different identity lines",
            file=name,
            hint="keep only the one you mean",
        )
    return PublicIdentity.from_line(candidates[0], source=name)


def _identity_lines(text: str) -> list[str]:
    """Every identity line in ``text``, each rejoined from the lines a mail client wrapped it into."""
    from pbem.protocol.armour import mail_lines, unquoted

    lines = [unquoted(line)[1].strip() for line in mail_lines(text)]
    found = []
    for index, line in enumerate(lines):
        if not line.startswith(ID_TAG + " "):
            continue
        tokens = line.split()
        following = index + 1
        while len("".join(tokens[2:])) < 86 and following < len(lines) and lines[following] and not lines[following].startswith(ID_TAG):
            tokens += lines[following].split()
            following += 1
        keys = "".join(tokens[2:])
        if len(tokens) >= 3 and len(keys) == 86 and " " not in keys:
            found.append(f"{tokens[0]} {tokens[1]} {keys[:43]} {keys[43:]}")
        else:
            found.append(" ".join(tokens))  # from_line says what is wrong with it
    return found

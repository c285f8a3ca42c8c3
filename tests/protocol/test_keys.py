import base64
import os
import stat

import pytest

from cryptography.hazmat.primitives import serialization

from pbem.errors import BadInput
from pbem.protocol import keys

FAST = 2**10  # scrypt work factor for tests only; the default stays keys.DEFAULT_SCRYPT_N


@pytest.fixture(scope="module")
def alice():
    return keys.generate("alice")


def secret_forms(identity):
    """Every likely spelling of the private key material."""
    raw = [
        identity.signing_key.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw,
                                           serialization.NoEncryption()),
        identity.encryption_key.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw,
                                              serialization.NoEncryption()),
    ]
    forms = []
    for key in raw:
        forms += [key.hex(), base64.b64encode(key).decode(), base64.urlsafe_b64encode(key).decode().rstrip("=")]
    for key in (identity.signing_key, identity.encryption_key):
        pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption()).decode()
        forms.append(pem.splitlines()[1])
    return raw, forms


def test_default_work_factor_is_not_weakened():
    assert keys.DEFAULT_SCRYPT_N >= 2**17


def test_identity_line_round_trip(alice):
    line = alice.public.line()
    assert line.startswith("pbem-id-1 alice ") and "\n" not in line and len(line.split(" ")) == 4
    parsed = keys.read_public(line)
    assert parsed == alice.public
    assert len(parsed.fingerprint) == 16 and int(parsed.fingerprint, 16) >= 0
    assert keys.read_public("> " + line) == alice.public


@pytest.mark.parametrize(
    "line",
    ["pbem-id-1 alice", "pbem-id-2 alice A B", "pbem-id-1 al ice AAAA BBBB", "pbem-id-1 alice " + "A" * 43 + " " + "A" * 42,
     "pbem-id-1 alice " + "A" * 43 + " " + "A" * 43],  # the last: an all-zero (low-order) X25519 key
)
def test_bad_identity_lines(line):
    with pytest.raises(BadInput):
        keys.PublicIdentity.from_line(line, source="bob.pub")


def test_private_file_with_passphrase(tmp_path, alice):
    path = tmp_path / "alice.key"
    keys.write_private(path, alice, b"correct horse", scrypt_n=FAST)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert keys.passphrase_needed(path)
    loaded = keys.read_private(path, b"correct horse")
    assert loaded.public == alice.public
    raw, forms = secret_forms(alice)
    text = path.read_text()
    assert not any(form in text for form in forms)


def test_private_file_without_passphrase(tmp_path, alice):
    path = tmp_path / "alice.key"
    keys.write_private(path, alice, None)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert not keys.passphrase_needed(path)
    assert keys.read_private(path, None).public == alice.public


def test_wrong_or_missing_passphrase_is_bad_input(tmp_path, alice):
    path = tmp_path / "alice.key"
    keys.write_private(path, alice, b"right", scrypt_n=FAST)
    with pytest.raises(BadInput) as caught:
        keys.read_private(path, b"wrong")
    assert "wrong passphrase" in caught.value.message and caught.value.file == str(path) and caught.value.hint
    with pytest.raises(BadInput) as caught:
        keys.read_private(path, None)
    assert "passphrase" in caught.value.message


def test_empty_passphrase_refused(tmp_path, alice):
    with pytest.raises(BadInput):
        keys.write_private(tmp_path / "a.key", alice, b"", scrypt_n=FAST)


def test_never_overwrites(tmp_path, alice):
    path = tmp_path / "alice.key"
    path.write_text("precious")
    with pytest.raises(BadInput) as caught:
        keys.write_private(path, alice, None)
    assert caught.value.file == str(path)
    assert path.read_text() == "precious"
    assert os.listdir(tmp_path) == ["alice.key"]  # no temporary file left behind


@pytest.mark.parametrize(
    "damage",
    [
        lambda t: t[: len(t) // 2],
        lambda t: "not json",
        lambda t: t.replace('"keys_sealed": "gAAAA', '"keys_sealed": "gAAAB'),
        lambda t: t.replace('"n": 1024', '"n": 1000'),
        lambda t: t.replace("pbem-private-key-1", "something-else"),
        lambda t: t.replace('"protection": "scrypt+fernet"', '"protection": "rot13"'),
    ],
)
def test_damaged_private_file_is_bad_input(tmp_path, alice, damage):
    path = tmp_path / "alice.key"
    keys.write_private(path, alice, b"pw", scrypt_n=FAST)
    path.write_text(damage(path.read_text()))
    with pytest.raises(BadInput) as caught:
        keys.read_private(path, b"pw")
    assert caught.value.file == str(path)


def test_mismatched_public_line_is_detected(tmp_path, alice):
    path = tmp_path / "alice.key"
    keys.write_private(path, alice, None)
    other = keys.generate("alice").public.line()
    path.write_text(path.read_text().replace(alice.public.line(), other))
    with pytest.raises(BadInput, match="do not match"):
        keys.read_private(path, None)


def test_missing_key_file(tmp_path):
    with pytest.raises(BadInput) as caught:
        keys.read_private(tmp_path / "nobody.key", b"x")
    assert "no such" in caught.value.message


def test_public_file_holds_no_secret(tmp_path, alice):
    path = tmp_path / "alice.pub"
    keys.write_public(path, alice)
    data = path.read_bytes()
    raw, forms = secret_forms(alice)
    assert not any(key in data for key in raw)
    assert not any(form.encode() in data for form in forms)
    assert keys.read_public(path) == alice.public
    assert data == (alice.public.line() + "\n").encode()


def test_public_file_found_inside_a_mail(tmp_path, alice):
    path = tmp_path / "mail.txt"
    path.write_text(f"Hi,\nmy key:\n> {alice.public.line()}\nBob\n")
    assert keys.read_public(path) == alice.public


def test_repr_shows_no_key_material(alice):
    raw, forms = secret_forms(alice)
    for text in (repr(alice), str(alice), repr(alice.public), str([alice])):
        assert not any(form in text for form in forms)
        assert not any(repr(key)[2:-1] in text for key in raw)
    assert alice.fingerprint in repr(alice)


def _wrapped_at(line: str, width: int, prefix: str = "") -> str:
    return "\n".join(prefix + line[i:i + width] for i in range(0, len(line), width)) + "\n"


@pytest.mark.parametrize("mangle", [
    lambda line: _wrapped_at(line, 72),                      # hard wrap inside a key
    lambda line: _wrapped_at(line, 72, "> "),                # quoted, then wrapped
    lambda line: line.replace(" ", "\n", 3).replace("\n", " ", 1) + "\n",  # flowed wrap at the spaces
    lambda line: "\ufeff" + line.replace(" ", "\u00a0") + "\n",  # byte-order mark, non-breaking spaces
    lambda line: "Hi ref,\n\n  > > " + line + "  \n\n-- \nBob\n",
], ids=["hard-wrap", "quoted-wrap", "flowed-wrap", "bom-nbsp", "quoted-in-mail"])
def test_public_file_survives_what_mail_does_to_it(tmp_path, alice, mangle):
    path = tmp_path / "alice.pub"
    path.write_text(mangle(alice.public.line()), encoding="utf-8")
    assert keys.read_public(path) == alice.public


def test_a_public_line_cut_short_is_refused(tmp_path, alice):
    path = tmp_path / "alice.pub"
    path.write_text(alice.public.line()[:-5] + "\n\nmore text\n")
    with pytest.raises(BadInput):
        keys.read_public(path)


#: Points of small order on Curve25519 (order 1, 2, 4 and 8, and a non-canonical one): no secret can be agreed with them.
LOW_ORDER = ["0000000000000000000000000000000000000000000000000000000000000000",
             "0100000000000000000000000000000000000000000000000000000000000000",
             "e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800",
             "5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157",
             "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"]


@pytest.mark.parametrize("point", LOW_ORDER)
def test_an_identity_with_a_low_order_encryption_key_is_refused_without_making_a_key(point, alice, monkeypatch):
    """Checking an identity is done with a fixed probe key: a command that holds no key never sets up the random generator."""
    from base64 import urlsafe_b64encode

    from cryptography.hazmat.primitives.asymmetric import x25519

    def no_new_key():
        raise AssertionError("an X25519 key was generated to check an identity")

    monkeypatch.setattr(x25519.X25519PrivateKey, "generate", no_new_key)
    keys._usable.cache_clear()
    name, sign = alice.public.line().split(" ")[1:3]
    bad = urlsafe_b64encode(bytes.fromhex(point)).decode().rstrip("=")
    with pytest.raises(BadInput, match="unusable key"):
        keys.PublicIdentity.from_line(f"pbem-id-1 {name} {sign} {bad}", source="bob.pub")
    assert keys.read_public(alice.public.line()) == alice.public


@pytest.mark.parametrize("point", LOW_ORDER + ["good"])
def test_the_compiled_x25519_functions_judge_a_point_as_the_public_classes_do(point, alice):
    """``keys._x25519`` (the library's compiled core, issue 26) and the public classes refuse and accept the same points."""
    from cryptography.hazmat.primitives.asymmetric import x25519

    raw = alice.public.enc_public if point == "good" else bytes.fromhex(point)
    probe = bytes(range(1, 33))

    def verdict(private, public):
        try:
            return private(probe).exchange(public(raw))
        except ValueError:
            return "refused"

    core = keys._x25519()
    assert core is not keys._PublicX25519  # the fast path is there in the cryptography pbem requires
    assert verdict(core.from_private_bytes, core.from_public_bytes) == verdict(
        x25519.X25519PrivateKey.from_private_bytes, x25519.X25519PublicKey.from_public_bytes)
    assert (verdict(core.from_private_bytes, core.from_public_bytes) == "refused") == (point != "good")


def test_checking_an_identity_loads_no_openssl_backend_object(alice):
    import subprocess
    import sys

    code = ("import sys; from pbem.protocol.keys import read_public; "
            f"read_public({alice.public.line()!r}); print('cryptography.hazmat.backends.openssl.backend' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip() == "False"


def test_a_key_file_is_read_with_the_librarys_own_pem_loader():
    """``keys._pem_loader`` is the very function ``serialization.load_pem_private_key`` names (issue 26)."""
    from cryptography.hazmat.primitives import serialization

    assert keys._pem_loader() is serialization.load_pem_private_key


def test_opening_a_key_loads_no_ssh_or_legacy_cipher_module(tmp_path, alice):
    import subprocess
    import sys

    path = tmp_path / "alice.key"
    keys.write_private(path, alice, None)
    code = (f"import sys; from pbem.protocol.keys import read_private; read_private({str(path)!r}, None); "
            "print(sorted(m for m in sys.modules if m.endswith('serialization.ssh') or m == 'bcrypt' or 'decrepit' in m))")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip() == "[]"

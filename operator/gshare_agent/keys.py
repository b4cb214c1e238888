"""The cluster's callback key, read and used without `cryptography` (~10 MiB resident once
imported, a third of the agent's budget) when it is an Ed25519 key in PKCS#8 PEM (what
`openssl genpkey -algorithm ed25519` and the chart's instructions make): its DER is a fixed
16-byte prefix and the 32-byte seed (RFC 8410, section 7), and it signs through the OpenSSL
libcrypto that the standard library's `ssl` has loaded anyway (`EVP_DigestSign`, one-shot
Ed25519 as RFC 8032 defines it: the same bytes `cryptography` gives, the control plane verifies
them as ever). Any other key (P-256), or a libcrypto without raw Ed25519 keys (OpenSSL < 1.1.1),
goes through `gshare_operator.signing` and `cryptography`."""

from __future__ import annotations

import base64
import logging
from typing import Any

ED25519_PKCS8_PREFIX = bytes.fromhex("302e020100300506032b657004220420")
NID_ED25519 = 1087  # EVP_PKEY_ED25519 (OpenSSL obj_mac.h)

log = logging.getLogger("gshare.agent")


class LibcryptoEd25519:
    """An Ed25519 private key in the process's libcrypto; `sign(data)` → the 64-byte signature.
    `jwt_algorithm` makes `gshare_operator.signing.CallbackSigner` take it as an EdDSA key."""

    jwt_algorithm = "EdDSA"

    def __init__(self, seed: bytes) -> None:
        import _ssl  # its shared object links libcrypto: dlsym finds libcrypto's symbols through it
        import ctypes

        if len(seed) != 32:
            raise ValueError("an Ed25519 seed is 32 bytes")
        lib = ctypes.CDLL(_ssl.__file__)
        vp, size = ctypes.c_void_p, ctypes.c_size_t
        lib.EVP_PKEY_new_raw_private_key.restype = vp
        lib.EVP_PKEY_new_raw_private_key.argtypes = [ctypes.c_int, vp, ctypes.c_char_p, size]
        lib.EVP_PKEY_free.argtypes = [vp]
        lib.EVP_MD_CTX_new.restype = vp
        lib.EVP_MD_CTX_free.argtypes = [vp]
        lib.EVP_DigestSignInit.argtypes = [vp, vp, vp, vp, vp]
        lib.EVP_DigestSign.argtypes = [vp, ctypes.c_char_p, ctypes.POINTER(size), ctypes.c_char_p, size]
        self._lib = lib
        self._ctypes = ctypes
        self._pkey = lib.EVP_PKEY_new_raw_private_key(NID_ED25519, None, seed, 32)
        if not self._pkey:
            raise OSError("libcrypto refused the Ed25519 key")

    def sign(self, data: bytes) -> bytes:
        lib, ctypes = self._lib, self._ctypes
        ctx = lib.EVP_MD_CTX_new()
        if not ctx:
            raise MemoryError("EVP_MD_CTX_new")
        try:
            if lib.EVP_DigestSignInit(ctx, None, None, None, self._pkey) != 1:
                raise OSError("EVP_DigestSignInit failed")
            out = ctypes.create_string_buffer(64)
            length = ctypes.c_size_t(64)
            if lib.EVP_DigestSign(ctx, out, ctypes.byref(length), data, len(data)) != 1 or length.value != 64:
                raise OSError("EVP_DigestSign failed")
            return out.raw
        finally:
            lib.EVP_MD_CTX_free(ctx)

    def __del__(self) -> None:
        pkey, self._pkey = getattr(self, "_pkey", None), None
        if pkey:
            self._lib.EVP_PKEY_free(pkey)


def ed25519_seed(pem: bytes) -> bytes | None:
    """The 32-byte seed of an unencrypted PKCS#8 Ed25519 PEM, or None for any other key."""
    lines = pem.decode("ascii", "replace").strip().splitlines()
    if lines and lines[0] == "-----BEGIN PRIVATE KEY-----" and lines[-1] == "-----END PRIVATE KEY-----":
        der = base64.b64decode("".join(lines[1:-1]))
        if len(der) == 48 and der.startswith(ED25519_PKCS8_PREFIX):
            return der[16:]
    return None


def load_key(path: str) -> Any:
    with open(path, "rb") as f:
        pem = f.read()
    seed = ed25519_seed(pem)
    if seed is not None:
        try:
            return LibcryptoEd25519(seed)
        except (OSError, AttributeError, ImportError) as exc:  # no such symbol, or no _ssl module
            log.info("signing with cryptography (libcrypto's Ed25519 unavailable: %s)", exc)
            from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

            return Ed25519PrivateKey.from_private_bytes(seed)
    from gshare_agent.lean import import_alone

    return import_alone("gshare_operator.signing").load_private_key(path)

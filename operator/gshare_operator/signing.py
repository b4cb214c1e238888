"""Signing the operator's callbacks: short-lived JWTs bound to the request body.

The token format is the contract with the control plane's verifier
(`infra/callbacks/verify.py`): header `{"alg": "EdDSA"|"ES256", "typ": "JWT"}` and claims
`iss` (cluster id), `aud` ("gshare-control-plane"), `iat`, `exp` (≤ 60 s later), `jti`
(random) and `body_sha256` (base64url SHA-256 of the body bytes). The operator is a
deployable of its own, so it does not import the control plane's code; both sides are
tested against each other in `tests/integration/operator/`.
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    PrivateKey = Ed25519PrivateKey | ec.EllipticCurvePrivateKey

# `cryptography` is imported where it is used: the node agent signs with this module through an
# Ed25519 key of its own (`gshare_agent.keys.LibcryptoEd25519`, the OpenSSL that `ssl` loaded),
# and importing `cryptography` alone would cost it ~10 MiB resident.

AUDIENCE = "gshare-control-plane"
BODY_HASH_CLAIM = "body_sha256"
DEFAULT_LIFETIME_SECONDS = 30


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def load_private_key(path: str | Path) -> PrivateKey:
    """Load the cluster's PEM private key (PKCS#8, unencrypted; mounted from a Secret)."""
    # imported here: the node agent signs with this module and keeps its memory small
    from cryptography.hazmat.primitives import serialization

    key = serialization.load_pem_private_key(Path(path).read_bytes(), password=None)
    return _checked(key)


def is_eddsa_signer(key: object) -> bool:
    """A key signing Ed25519 without `cryptography`: it says `jwt_algorithm = "EdDSA"` and has
    `sign(data) -> 64-byte signature` (RFC 8032), as `Ed25519PrivateKey.sign` does."""
    return getattr(key, "jwt_algorithm", None) == "EdDSA" and callable(getattr(key, "sign", None))


def _checked(key: object) -> Any:
    if is_eddsa_signer(key):
        return key
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    if isinstance(key, Ed25519PrivateKey):
        return key
    if isinstance(key, ec.EllipticCurvePrivateKey) and isinstance(key.curve, ec.SECP256R1):
        return key
    raise ValueError("the callback key must be an Ed25519 or EC P-256 private key")


def public_key_pem(key: PrivateKey) -> bytes:
    from cryptography.hazmat.primitives import serialization

    return key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)


class CallbackSigner:
    def __init__(
        self,
        cluster_id: str,
        private_key: PrivateKey | Any,
        *,
        audience: str = AUDIENCE,
        lifetime_seconds: int = DEFAULT_LIFETIME_SECONDS,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if not 1 <= lifetime_seconds <= 60:
            raise ValueError("callback tokens live between 1 and 60 seconds")
        self.cluster_id = cluster_id
        self._key = _checked(private_key)
        self._alg = "EdDSA" if is_eddsa_signer(self._key) or _is_ed25519(self._key) else "ES256"
        self._audience = audience
        self._lifetime = lifetime_seconds
        self._clock = clock

    @property
    def algorithm(self) -> str:
        return self._alg

    def sign(self, body: bytes) -> str:
        now = int(self._clock())
        header = {"alg": self._alg, "typ": "JWT"}
        claims = {
            "iss": self.cluster_id,
            "aud": self._audience,
            "iat": now,
            "exp": now + self._lifetime,
            "jti": secrets.token_urlsafe(24),
            BODY_HASH_CLAIM: b64url(hashlib.sha256(body).digest()),
        }
        signing_input = f"{_segment(header)}.{_segment(claims)}".encode("ascii")
        if self._alg == "EdDSA":
            signature = self._key.sign(signing_input)
        else:
            from cryptography.hazmat.primitives import hashes
            from cryptography.hazmat.primitives.asymmetric import ec
            from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

            der = self._key.sign(signing_input, ec.ECDSA(hashes.SHA256()))
            r, s = decode_dss_signature(der)
            signature = r.to_bytes(32, "big") + s.to_bytes(32, "big")
        return f"{signing_input.decode('ascii')}.{b64url(signature)}"


def _is_ed25519(key: object) -> bool:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    return isinstance(key, Ed25519PrivateKey)


def _segment(obj: Mapping[str, object]) -> str:
    return b64url(json.dumps(obj, separators=(",", ":"), sort_keys=True).encode())

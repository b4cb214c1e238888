"""Verification of the short-lived JWTs an operator signs its callbacks with.

Each cluster's operator holds its own private key (Ed25519 or P-256); the control plane keeps
the matching public key, registered with the cluster. A callback is an HTTP POST whose
`Authorization: Bearer <jwt>` carries:

- header: `alg` = `EdDSA` or `ES256`, `typ` = `JWT`; nothing else is trusted. A header that
  carries key material (`jwk`, `jku`, `x5u`, `x5c`) or `crit` is refused outright, and `kid` is
  never used to find a key.
- claims: `iss` (the cluster id), `aud` = `gshare-control-plane`, `iat`, `exp` (at most
  60 seconds after `iat`), `jti` (random, single use) and `body_sha256` (base64url SHA-256 of
  the exact request body bytes), which binds the token to that one body.

The key is looked up by the *claimed* `iss` in a `ClusterKeyStore`; the signature is then
checked with that key only, so a token can only ever speak for the cluster whose key signed
it. The JOSE parsing is done here on purpose (about as long as configuring a library, and
nothing in it can be talked into another algorithm): algorithms are a fixed allow-list, and
each algorithm accepts only its own key type. A `jti` is recorded in the `ReplayCache` only
after everything else has passed, so refused tokens leave nothing behind.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

AUDIENCE = "gshare-control-plane"
BODY_HASH_CLAIM = "body_sha256"
ALGORITHMS: tuple[str, ...] = ("EdDSA", "ES256")
MAX_LIFETIME_SECONDS = 60
DEFAULT_LEEWAY_SECONDS = 5
_REFUSED_HEADER_PARAMS = frozenset({"jwk", "jku", "x5u", "x5c", "crit"})
_MAX_TOKEN_LENGTH = 8192

PublicKey = Ed25519PublicKey | ec.EllipticCurvePublicKey


class CallbackErrorCode(StrEnum):
    MALFORMED = "CALLBACK_MALFORMED"
    ALGORITHM_NOT_ALLOWED = "CALLBACK_ALGORITHM_NOT_ALLOWED"
    HEADER_KEY_REFUSED = "CALLBACK_HEADER_KEY_REFUSED"
    MISSING_CLAIM = "CALLBACK_MISSING_CLAIM"
    UNKNOWN_CLUSTER = "CALLBACK_UNKNOWN_CLUSTER"
    KEY_MISMATCH = "CALLBACK_KEY_MISMATCH"
    BAD_SIGNATURE = "CALLBACK_BAD_SIGNATURE"
    WRONG_AUDIENCE = "CALLBACK_WRONG_AUDIENCE"
    EXPIRED = "CALLBACK_EXPIRED"
    NOT_YET_VALID = "CALLBACK_NOT_YET_VALID"
    LIFETIME_TOO_LONG = "CALLBACK_LIFETIME_TOO_LONG"
    BODY_MISMATCH = "CALLBACK_BODY_MISMATCH"
    REPLAYED = "CALLBACK_REPLAYED"
    CLUSTER_MISMATCH = "CALLBACK_CLUSTER_MISMATCH"


class CallbackRejected(Exception):
    """A callback that must not be acted on. `code` says why; `field` names the claim."""

    def __init__(self, code: CallbackErrorCode, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field

    def __repr__(self) -> str:
        return f"CallbackRejected({self.code!s}, {self.message!r}, field={self.field!r})"


@dataclass(frozen=True, slots=True)
class VerifiedCallback:
    """What a valid token proves: this cluster signed this exact body, once, just now."""

    cluster_id: str
    jti: str
    issued_at: int
    expires_at: int


class ClusterKeyStore(Protocol):
    async def public_key_for(self, cluster_id: str) -> PublicKey | None:
        """The registered callback key of a cluster, or None if the cluster is unknown."""
        ...


class ReplayCache(Protocol):
    async def remember(self, cluster_id: str, jti: str, expires_at: int) -> bool:
        """Record `jti` until `expires_at` (epoch seconds); False if it was already recorded.

        Must be atomic (e.g. Redis `SET NX EX`, PostgreSQL `INSERT … ON CONFLICT DO NOTHING`).
        """
        ...


def load_public_key(pem: bytes | str) -> PublicKey:
    """Parse a PEM public key and check it is of a type callbacks may be signed with."""
    data = pem.encode() if isinstance(pem, str) else pem
    key = serialization.load_pem_public_key(data)
    if isinstance(key, Ed25519PublicKey):
        return key
    if isinstance(key, ec.EllipticCurvePublicKey) and isinstance(key.curve, ec.SECP256R1):
        return key
    raise ValueError("callback keys must be Ed25519 or EC P-256 public keys")


class InMemoryClusterKeyStore:
    def __init__(self, keys: Mapping[str, PublicKey] | None = None) -> None:
        self._keys: dict[str, PublicKey] = dict(keys or {})

    def register(self, cluster_id: str, key: PublicKey | bytes | str) -> None:
        self._keys[cluster_id] = key if not isinstance(key, bytes | str) else load_public_key(key)

    def forget(self, cluster_id: str) -> None:
        self._keys.pop(cluster_id, None)

    async def public_key_for(self, cluster_id: str) -> PublicKey | None:
        return self._keys.get(cluster_id)


class InMemoryReplayCache:
    """Single-process replay cache; entries are dropped once their token has expired.

    Expired entries are swept at most once per `sweep_interval` seconds, so a burst of
    callbacks costs O(1) each.
    """

    def __init__(self, clock: Callable[[], float] = time.time, sweep_interval: float = 10.0) -> None:
        self._seen: dict[tuple[str, str], int] = {}
        self._clock = clock
        self._sweep_interval = sweep_interval
        self._next_sweep = 0.0
        self._lock = threading.Lock()

    async def remember(self, cluster_id: str, jti: str, expires_at: int) -> bool:
        now = self._clock()
        with self._lock:
            if now >= self._next_sweep:
                self._seen = {k: exp for k, exp in self._seen.items() if exp >= now}
                self._next_sweep = now + self._sweep_interval
            key = (cluster_id, jti)
            if key in self._seen and self._seen[key] >= now:
                return False
            self._seen[key] = expires_at
            return True

    def __len__(self) -> int:
        return len(self._seen)


def body_hash(body: bytes) -> str:
    return _b64url_encode(hashlib.sha256(body).digest())


class CallbackVerifier:
    """Verifies operator callbacks. One instance per process; safe to share."""

    def __init__(
        self,
        keys: ClusterKeyStore,
        replay_cache: ReplayCache,
        *,
        audience: str = AUDIENCE,
        algorithms: Iterable[str] = ALGORITHMS,
        leeway_seconds: int = DEFAULT_LEEWAY_SECONDS,
        max_lifetime_seconds: int = MAX_LIFETIME_SECONDS,
        clock: Callable[[], float] = time.time,
    ) -> None:
        allowed = tuple(algorithms)
        unknown = set(allowed) - set(ALGORITHMS)
        if unknown:
            raise ValueError(f"unsupported callback algorithms: {sorted(unknown)}")
        self._keys = keys
        self._replay = replay_cache
        self._audience = audience
        self._algorithms = allowed
        self._leeway = leeway_seconds
        self._max_lifetime = max_lifetime_seconds
        self._clock = clock

    async def verify_request(
        self, authorization: str | None, body: bytes, *, expected_cluster: str | None = None
    ) -> VerifiedCallback:
        """Verify an `Authorization` header value (`Bearer <jwt>`) against the request body."""
        if not authorization:
            raise CallbackRejected(CallbackErrorCode.MALFORMED, "missing bearer token")
        scheme, _, token = authorization.strip().partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise CallbackRejected(CallbackErrorCode.MALFORMED, "expected a bearer token")
        return await self.verify(token.strip(), body, expected_cluster=expected_cluster)

    async def verify(self, token: str, body: bytes, *, expected_cluster: str | None = None) -> VerifiedCallback:
        """Check `token` for `body`; return the proven cluster id or raise `CallbackRejected`.

        `expected_cluster`, when the caller already knows which cluster the request must come
        from (e.g. from the URL), is compared with the verified issuer.
        """
        verified = await self._check(token, body, expected_cluster)
        await self._remember(verified)
        return verified

    async def _check(self, token: str, body: bytes, expected_cluster: str | None) -> VerifiedCallback:
        """Everything but the replay check, which must come last."""
        header, claims, signing_input, signature = _split(token)

        alg = header.get("alg")
        if not isinstance(alg, str) or alg not in self._algorithms:
            raise CallbackRejected(CallbackErrorCode.ALGORITHM_NOT_ALLOWED, f"algorithm {alg!r} is not accepted")
        carried = _REFUSED_HEADER_PARAMS.intersection(header)
        if carried:
            raise CallbackRejected(
                CallbackErrorCode.HEADER_KEY_REFUSED,
                f"token header carries {sorted(carried)}; keys are never taken from tokens",
            )

        issuer = claims.get("iss")
        if not isinstance(issuer, str) or not issuer:
            raise CallbackRejected(CallbackErrorCode.MISSING_CLAIM, "iss is required", "iss")
        key = await self._keys.public_key_for(issuer)
        if key is None:
            raise CallbackRejected(CallbackErrorCode.UNKNOWN_CLUSTER, f"no callback key for cluster {issuer!r}", "iss")
        _verify_signature(alg, key, signing_input, signature)

        # Only now are the claims trustworthy.
        self._check_audience(claims.get("aud"))
        now = int(self._clock())
        exp = _int_claim(claims, "exp")
        iat = _int_claim(claims, "iat")
        if exp + self._leeway < now:
            raise CallbackRejected(CallbackErrorCode.EXPIRED, "token has expired", "exp")
        if iat - self._leeway > now:
            raise CallbackRejected(CallbackErrorCode.NOT_YET_VALID, "token issued in future", "iat")
        if "nbf" in claims and _int_claim(claims, "nbf") - self._leeway > now:
            raise CallbackRejected(CallbackErrorCode.NOT_YET_VALID, "token not yet valid", "nbf")
        if exp - iat > self._max_lifetime or exp < iat:
            raise CallbackRejected(
                CallbackErrorCode.LIFETIME_TOO_LONG,
                f"token lifetime must be at most {self._max_lifetime}s",
                "exp",
            )
        jti = claims.get("jti")
        if not isinstance(jti, str) or not 16 <= len(jti) <= 128:
            raise CallbackRejected(CallbackErrorCode.MISSING_CLAIM, "jti (16-128 characters) is required", "jti")
        claimed_hash = claims.get(BODY_HASH_CLAIM)
        if not isinstance(claimed_hash, str):
            raise CallbackRejected(CallbackErrorCode.MISSING_CLAIM, f"{BODY_HASH_CLAIM} is required", BODY_HASH_CLAIM)
        if not hmac.compare_digest(claimed_hash.encode(), body_hash(body).encode()):
            raise CallbackRejected(CallbackErrorCode.BODY_MISMATCH, "token was not issued for this body")
        if expected_cluster is not None and expected_cluster != issuer:
            raise CallbackRejected(
                CallbackErrorCode.CLUSTER_MISMATCH,
                f"cluster {issuer!r} may not report for cluster {expected_cluster!r}",
                "iss",
            )
        return VerifiedCallback(cluster_id=issuer, jti=jti, issued_at=iat, expires_at=exp)

    async def _remember(self, verified: VerifiedCallback) -> None:
        if not await self._replay.remember(verified.cluster_id, verified.jti, verified.expires_at + self._leeway):
            raise CallbackRejected(CallbackErrorCode.REPLAYED, "token was already used", "jti")

    async def verify_report(
        self, token: str, body: bytes, *, expected_cluster: str | None = None
    ) -> tuple[VerifiedCallback, dict[str, Any]]:
        """`verify`, then parse the JSON report and require its `cluster` to be the signer.

        This is the check that a cluster only reports about itself: a valid token from
        cluster B carrying a report about cluster A is refused.
        """
        verified = await self._check(token, body, expected_cluster)
        try:
            report = json.loads(body)
        except (ValueError, UnicodeDecodeError) as exc:
            raise CallbackRejected(CallbackErrorCode.MALFORMED, "body is not JSON") from exc
        if not isinstance(report, dict):
            raise CallbackRejected(CallbackErrorCode.MALFORMED, "body must be a JSON object")
        if report.get("cluster") != verified.cluster_id:
            raise CallbackRejected(
                CallbackErrorCode.CLUSTER_MISMATCH,
                "a cluster may only report about itself",
                "cluster",
            )
        await self._remember(verified)
        return verified, report

    def _check_audience(self, aud: object) -> None:
        if aud is None:
            raise CallbackRejected(CallbackErrorCode.MISSING_CLAIM, "aud is required", "aud")
        audiences = aud if isinstance(aud, list) else [aud]
        if self._audience not in audiences:
            raise CallbackRejected(CallbackErrorCode.WRONG_AUDIENCE, f"token is not for {self._audience!r}", "aud")


def _b64url_encode(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def _b64url_decode(part: str) -> bytes:
    if not part or any(c not in _B64URL for c in part):
        raise ValueError("not base64url")
    return base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))


_B64URL = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def _split(token: str) -> tuple[dict[str, Any], dict[str, Any], bytes, bytes]:
    if not isinstance(token, str) or len(token) > _MAX_TOKEN_LENGTH:
        raise CallbackRejected(CallbackErrorCode.MALFORMED, "token is missing or too long")
    parts = token.split(".")
    if len(parts) != 3:
        raise CallbackRejected(CallbackErrorCode.MALFORMED, "token is not a compact JWS")
    try:
        header = json.loads(_b64url_decode(parts[0]))
        claims = json.loads(_b64url_decode(parts[1]))
        signature = _b64url_decode(parts[2]) if parts[2] else b""
    except (ValueError, binascii.Error, UnicodeDecodeError) as exc:
        raise CallbackRejected(CallbackErrorCode.MALFORMED, "token is not valid JWS") from exc
    if not isinstance(header, dict) or not isinstance(claims, dict):
        raise CallbackRejected(CallbackErrorCode.MALFORMED, "token parts must be JSON objects")
    return header, claims, f"{parts[0]}.{parts[1]}".encode("ascii"), signature


def _verify_signature(alg: str, key: PublicKey, signing_input: bytes, signature: bytes) -> None:
    try:
        if alg == "EdDSA":
            if not isinstance(key, Ed25519PublicKey):
                raise CallbackRejected(CallbackErrorCode.KEY_MISMATCH, "cluster key is not an Ed25519 key")
            key.verify(signature, signing_input)
        elif alg == "ES256":
            if not isinstance(key, ec.EllipticCurvePublicKey) or not isinstance(key.curve, ec.SECP256R1):
                raise CallbackRejected(CallbackErrorCode.KEY_MISMATCH, "cluster key is not a P-256 key")
            if len(signature) != 64:
                raise InvalidSignature
            r = int.from_bytes(signature[:32], "big")
            s = int.from_bytes(signature[32:], "big")
            key.verify(encode_dss_signature(r, s), signing_input, ec.ECDSA(hashes.SHA256()))
        else:  # pragma: no cover - the allow-list is checked before
            raise CallbackRejected(CallbackErrorCode.ALGORITHM_NOT_ALLOWED, alg)
    except InvalidSignature as exc:
        raise CallbackRejected(CallbackErrorCode.BAD_SIGNATURE, "signature does not match the cluster's key") from exc


# a NumericDate (RFC 7519) past this (year 2286) is no time a clock will show: 1e400, NaN or
# 10**30 are refused before any arithmetic on them
_LAST_NUMERIC_DATE = 10_000_000_000


def _int_claim(claims: Mapping[str, Any], name: str) -> int:
    value = claims.get(name)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise CallbackRejected(CallbackErrorCode.MISSING_CLAIM, f"{name} is required", name)
    if not (0 <= value < _LAST_NUMERIC_DATE):  # also false for NaN
        raise CallbackRejected(CallbackErrorCode.MALFORMED, f"{name} is not a time in seconds since 1970", name)
    return int(value)

"""Forged, stale and misdirected callback tokens are refused with a typed reason.

Tokens are built by hand here (not with the operator's signer) so that the verifier is checked
against the wire format itself; one test also checks the operator's signer against it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets

import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

from infra.callbacks import (
    CallbackErrorCode,
    CallbackRejected,
    CallbackVerifier,
    InMemoryClusterKeyStore,
    InMemoryReplayCache,
)

NOW = 1_800_000_000
BODY = json.dumps({"cluster": "c-alpha", "type": "session.status", "phase": "Running"}).encode()


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def seg(obj: object) -> str:
    return b64(json.dumps(obj).encode())


def claims(**over: object) -> dict[str, object]:
    base: dict[str, object] = {
        "iss": "c-alpha",
        "aud": "gshare-control-plane",
        "iat": NOW,
        "exp": NOW + 30,
        "jti": secrets.token_urlsafe(24),
        "body_sha256": b64(hashlib.sha256(BODY).digest()),
    }
    base.update(over)
    return {k: v for k, v in base.items() if v is not None}


def ed_token(key: Ed25519PrivateKey, payload: dict[str, object], **header: object) -> str:
    head = {"alg": "EdDSA", "typ": "JWT", **header}
    signing_input = f"{seg(head)}.{seg(payload)}"
    return f"{signing_input}.{b64(key.sign(signing_input.encode()))}"


def es_token(key: ec.EllipticCurvePrivateKey, payload: dict[str, object]) -> str:
    signing_input = f"{seg({'alg': 'ES256', 'typ': 'JWT'})}.{seg(payload)}"
    r, s = decode_dss_signature(key.sign(signing_input.encode(), ec.ECDSA(hashes.SHA256())))
    return f"{signing_input}.{b64(r.to_bytes(32, 'big') + s.to_bytes(32, 'big'))}"


class Env:
    def __init__(self) -> None:
        self.alpha = Ed25519PrivateKey.generate()
        self.beta = ec.generate_private_key(ec.SECP256R1())
        self.keys = InMemoryClusterKeyStore()
        self.keys.register("c-alpha", self.alpha.public_key())
        self.keys.register("c-beta", self.beta.public_key())
        self.replay = InMemoryReplayCache(clock=lambda: NOW)
        self.verifier = CallbackVerifier(self.keys, self.replay, clock=lambda: NOW)

    def alpha_public_pem(self) -> bytes:
        return self.alpha.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        )


@pytest.fixture
def env() -> Env:
    return Env()


async def refused(env: Env, token: str, code: CallbackErrorCode, body: bytes = BODY) -> None:
    before = len(env.replay)
    with pytest.raises(CallbackRejected) as info:
        await env.verifier.verify_report(token, body)
    assert info.value.code is code, info.value
    assert len(env.replay) == before, "a refused token must leave nothing recorded"


async def test_valid_eddsa_token_is_accepted(env: Env) -> None:
    verified, report = await env.verifier.verify_report(ed_token(env.alpha, claims()), BODY)
    assert verified.cluster_id == "c-alpha"
    assert report["phase"] == "Running"
    assert len(env.replay) == 1


async def test_valid_es256_token_is_accepted(env: Env) -> None:
    body = json.dumps({"cluster": "c-beta"}).encode()
    payload = claims(iss="c-beta", body_sha256=b64(hashlib.sha256(body).digest()))
    verified, _ = await env.verifier.verify_report(es_token(env.beta, payload), body)
    assert verified.cluster_id == "c-beta"


async def test_operator_signer_speaks_the_verifiers_format(env: Env) -> None:
    from gshare_operator.signing import CallbackSigner

    signer = CallbackSigner("c-alpha", env.alpha, clock=lambda: NOW)
    verified = await env.verifier.verify_request(f"Bearer {signer.sign(BODY)}", BODY)
    assert verified.cluster_id == "c-alpha"
    assert verified.expires_at - verified.issued_at <= 60


async def test_alg_none_is_refused(env: Env) -> None:
    token = f"{seg({'alg': 'none', 'typ': 'JWT'})}.{seg(claims())}."
    await refused(env, token, CallbackErrorCode.ALGORITHM_NOT_ALLOWED)


@pytest.mark.parametrize("alg", ["None", "NONE", "", None])
async def test_alg_none_spellings_are_refused(env: Env, alg: object) -> None:
    token = f"{seg({'alg': alg})}.{seg(claims())}."
    await refused(env, token, CallbackErrorCode.ALGORITHM_NOT_ALLOWED)


async def test_hs256_signed_with_the_public_key_is_refused(env: Env) -> None:
    signing_input = f"{seg({'alg': 'HS256', 'typ': 'JWT'})}.{seg(claims())}"
    mac = hmac.new(env.alpha_public_pem(), signing_input.encode(), hashlib.sha256).digest()
    await refused(env, f"{signing_input}.{b64(mac)}", CallbackErrorCode.ALGORITHM_NOT_ALLOWED)


async def test_es256_header_on_an_ed25519_cluster_is_refused(env: Env) -> None:
    forged = ec.generate_private_key(ec.SECP256R1())
    await refused(env, es_token(forged, claims()), CallbackErrorCode.KEY_MISMATCH)


async def test_wrong_key_is_refused(env: Env) -> None:
    await refused(env, ed_token(Ed25519PrivateKey.generate(), claims()), CallbackErrorCode.BAD_SIGNATURE)


async def test_tampered_claims_are_refused(env: Env) -> None:
    header, _, signature = ed_token(env.alpha, claims()).split(".")
    tampered = f"{header}.{seg(claims(exp=NOW + 3600))}.{signature}"
    await refused(env, tampered, CallbackErrorCode.BAD_SIGNATURE)


@pytest.mark.parametrize("claim", ["exp", "aud", "iat", "jti", "body_sha256"])
async def test_missing_claim_is_refused(env: Env, claim: str) -> None:
    await refused(env, ed_token(env.alpha, claims(**{claim: None})), CallbackErrorCode.MISSING_CLAIM)


async def test_missing_iss_is_refused(env: Env) -> None:
    body = json.dumps({"cluster": None}).encode()
    payload = claims(iss=None, body_sha256=b64(hashlib.sha256(body).digest()))
    await refused(env, ed_token(env.alpha, payload), CallbackErrorCode.MISSING_CLAIM, body)


async def test_wrong_audience_is_refused(env: Env) -> None:
    token = ed_token(env.alpha, claims(aud="some-other-service"))
    await refused(env, token, CallbackErrorCode.WRONG_AUDIENCE)


async def test_expired_token_is_refused(env: Env) -> None:
    token = ed_token(env.alpha, claims(iat=NOW - 100, exp=NOW - 60))
    await refused(env, token, CallbackErrorCode.EXPIRED)


async def test_long_lived_token_is_refused(env: Env) -> None:
    token = ed_token(env.alpha, claims(exp=NOW + 3600))
    await refused(env, token, CallbackErrorCode.LIFETIME_TOO_LONG)


async def test_token_from_the_future_is_refused(env: Env) -> None:
    token = ed_token(env.alpha, claims(iat=NOW + 600, exp=NOW + 630))
    await refused(env, token, CallbackErrorCode.NOT_YET_VALID)


async def test_replayed_jti_is_refused(env: Env) -> None:
    token = ed_token(env.alpha, claims())
    await env.verifier.verify_report(token, BODY)
    await refused(env, token, CallbackErrorCode.REPLAYED)


async def test_token_for_another_body_is_refused(env: Env) -> None:
    token = ed_token(env.alpha, claims())
    other = json.dumps({"cluster": "c-alpha", "type": "session.status", "phase": "Failed"})
    await refused(env, token, CallbackErrorCode.BODY_MISMATCH, other.encode())


async def test_another_clusters_token_cannot_report_about_this_cluster(env: Env) -> None:
    # c-beta signs correctly, but the report claims to be about c-alpha.
    payload = claims(iss="c-beta")
    await refused(env, es_token(env.beta, payload), CallbackErrorCode.CLUSTER_MISMATCH)


async def test_another_clusters_token_on_this_clusters_endpoint_is_refused(env: Env) -> None:
    body = json.dumps({"cluster": "c-beta"}).encode()
    payload = claims(iss="c-beta", body_sha256=b64(hashlib.sha256(body).digest()))
    with pytest.raises(CallbackRejected) as info:
        await env.verifier.verify(es_token(env.beta, payload), body, expected_cluster="c-alpha")
    assert info.value.code is CallbackErrorCode.CLUSTER_MISMATCH
    assert len(env.replay) == 0


async def test_claiming_another_cluster_with_own_key_is_refused(env: Env) -> None:
    # c-beta's key, c-alpha's name: the key registered for c-alpha does not match.
    forged = claims()
    signing_input = f"{seg({'alg': 'ES256'})}.{seg(forged)}"
    r, s = decode_dss_signature(env.beta.sign(signing_input.encode(), ec.ECDSA(hashes.SHA256())))
    token = f"{signing_input}.{b64(r.to_bytes(32, 'big') + s.to_bytes(32, 'big'))}"
    await refused(env, token, CallbackErrorCode.KEY_MISMATCH)


async def test_unknown_cluster_is_refused(env: Env) -> None:
    body = json.dumps({"cluster": "c-gamma"}).encode()
    payload = claims(iss="c-gamma", body_sha256=b64(hashlib.sha256(body).digest()))
    token = ed_token(Ed25519PrivateKey.generate(), payload)
    await refused(env, token, CallbackErrorCode.UNKNOWN_CLUSTER, body)


async def test_key_supplied_in_the_header_is_refused(env: Env) -> None:
    attacker = Ed25519PrivateKey.generate()
    raw = attacker.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    jwk = {"kty": "OKP", "crv": "Ed25519", "x": b64(raw)}
    await refused(env, ed_token(attacker, claims(), jwk=jwk), CallbackErrorCode.HEADER_KEY_REFUSED)


@pytest.mark.parametrize("param", ["jku", "x5u", "x5c"])
async def test_key_references_in_the_header_are_refused(env: Env, param: str) -> None:
    value: object = ["MIIB"] if param == "x5c" else "https://attacker.example/keys"
    token = ed_token(env.alpha, claims(), **{param: value})
    await refused(env, token, CallbackErrorCode.HEADER_KEY_REFUSED)


async def test_kid_is_not_used_to_pick_a_key(env: Env) -> None:
    # A kid naming another cluster changes nothing: the key is looked up by iss only.
    token = ed_token(Ed25519PrivateKey.generate(), claims(), kid="c-beta")
    await refused(env, token, CallbackErrorCode.BAD_SIGNATURE)


@pytest.mark.parametrize("token", ["", "abc", "a.b", "a.b.c.d", "!!!.???.***", "W10.W10.AA"])
async def test_garbage_is_refused_as_malformed(env: Env, token: str) -> None:
    await refused(env, token, CallbackErrorCode.MALFORMED)


async def test_bearer_header_is_required(env: Env) -> None:
    for value in (None, "", "Basic abc", "Bearer "):
        with pytest.raises(CallbackRejected) as info:
            await env.verifier.verify_request(value, BODY)
        assert info.value.code is CallbackErrorCode.MALFORMED


@pytest.mark.parametrize("claim", ["exp", "iat", "nbf"])
@pytest.mark.parametrize("raw", ["1e400", "-1e400", "NaN", "Infinity", "1e30", "1" + "0" * 30, "1" + "0" * 5000])
async def test_a_validly_signed_time_no_clock_can_hold_is_refused(env: Env, claim: str, raw: str) -> None:
    # signed with the cluster's own key: the claim is read after the signature checks out
    payload = json.dumps(claims(**{claim: 0})).replace(f'"{claim}": 0', f'"{claim}": {raw}')
    head = seg({"alg": "EdDSA", "typ": "JWT"})
    signing_input = f"{head}.{b64(payload.encode())}"
    token = f"{signing_input}.{b64(env.alpha.sign(signing_input.encode()))}"
    await refused(env, token, CallbackErrorCode.MALFORMED)

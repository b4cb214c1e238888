"""Forged callbacks through the control plane's HTTP endpoint: each is answered 401 and leaves
nothing behind (session state, inventory and the replay cache unchanged); the genuine report
that follows is accepted, which shows the forgeries would have mattered."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time
import uuid
from pathlib import Path
from typing import Any
from uuid import UUID

import httpx
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from sqlalchemy import func, select

from domain.sessions import services as sessions
from domain.sessions.model import SessionState
from infra.db.models.clusters_extra import CallbackJtiRow
from tests.integration.k8s_e2e.conftest import (
    E2ECluster,
    e2e_catalog,
    forget_cluster,
    funded_member,
    public_pem,
    register,
)
from tests.integration.operator.conftest import eventually
from tests.integration.sessions.test_lifecycle import wait_state
from tests.k8s.apiserver import KubeApiServer
from tests.support.api import Gql, World

AUD = "gshare-control-plane"


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def seg(obj: dict[str, Any]) -> str:
    return b64(json.dumps(obj, separators=(",", ":")).encode())


def claims_for(cluster_id: str, body: bytes, **over: Any) -> dict[str, Any]:
    now = int(time.time())
    claims = {
        "iss": cluster_id,
        "aud": AUD,
        "iat": now,
        "exp": now + 30,
        "jti": secrets.token_urlsafe(24),
        "body_sha256": b64(hashlib.sha256(body).digest()),
    }
    claims.update(over)
    return {k: v for k, v in claims.items() if v is not None}


def ed_token(key: Ed25519PrivateKey, claims: dict[str, Any], header: dict[str, Any] | None = None) -> str:
    head = header or {"alg": "EdDSA", "typ": "JWT"}
    signing_input = f"{seg(head)}.{seg(claims)}"
    return f"{signing_input}.{b64(key.sign(signing_input.encode()))}"


def status_body(cluster_id: str, session_id: UUID, phase: str = "Running") -> bytes:
    report = {
        "type": "session.status",
        "cluster": cluster_id,
        "namespace": "gshare-sessions",
        "name": f"s-{session_id}",
        "sessionId": str(session_id),
        "phase": phase,
        "reason": "PodReady",
        "message": "",
        "node": "n-hami",
        "endpoints": [{"name": "jupyterlab", "url": "https://evil.example/"}],
        "observedAt": "2026-01-01T00:00:00Z",
    }
    return json.dumps(report, separators=(",", ":"), sort_keys=True).encode()


async def _jti_rows(c: Any, jti: str | None = None) -> int:
    async with c.uow() as uow:
        stmt = select(func.count()).select_from(CallbackJtiRow)
        if jti is not None:
            stmt = stmt.where(CallbackJtiRow.jti == jti)
        return int(await uow.session.scalar(stmt) or 0)


async def _post(http: httpx.AsyncClient, path: str, token: str, body: bytes) -> httpx.Response:
    return await http.post(
        f"/callbacks/{path}",
        content=body,
        headers={"authorization": f"Bearer {token}", "content-type": "application/json"},
    )


@pytest.fixture
async def other_cluster(admin: Gql, kube_api: KubeApiServer, tmp_path: Path, container: Any) -> Any:
    cluster_id = f"e2e-b-{uuid.uuid4().hex[:6]}"
    key = Ed25519PrivateKey.generate()
    result = await register(admin, kube_api, tmp_path, cluster_id, key)
    assert result["errors"] == []
    yield cluster_id, key
    await forget_cluster(container, cluster_id)


async def test_forged_callbacks_are_refused_and_change_nothing(
    e2e: E2ECluster, other_cluster: Any, container: Any, world: World, cp_http: httpx.AsyncClient
) -> None:
    c = container
    cat = await e2e_catalog(c)
    actor, _ = await funded_member(c, world)
    s = await sessions.session_create(
        c.sessions,
        actor,
        sessions.SessionRequest(
            name="forgery-target",
            image_id=cat.image.id,
            preset_id=cat.presets["hami"].id,
            offering_id=cat.offerings["hami"].id,
            cluster=e2e.id,
        ),
    )
    assert s.state is SessionState.SCHEDULED and s.cluster_id == e2e.id
    await eventually(lambda: e2e.api.get("gsharesessions", f"s-{s.id}", "gshare-sessions"))
    async with c.uow() as uow:
        nodes_before = [n.to_dict() for n in (await uow.capacity.inventory()).nodes_of(e2e.id)]
    jtis_before = await _jti_rows(c)

    body = status_body(e2e.id, s.id)
    other_id, other_key = other_cluster
    attacker = Ed25519PrivateKey.generate()
    pem = public_pem(e2e.key).encode()
    now = int(time.time())

    def hs256_with_public_key() -> str:
        head = {"alg": "HS256", "typ": "JWT"}
        signing_input = f"{seg(head)}.{seg(claims_for(e2e.id, body))}"
        return f"{signing_input}.{b64(hmac.new(pem, signing_input.encode(), hashlib.sha256).digest())}"

    jwk = {"kty": "OKP", "crv": "Ed25519", "x": b64(attacker.public_key().public_bytes_raw())}
    forgeries: dict[str, tuple[str, bytes, str]] = {
        "alg=none": (f"{seg({'alg': 'none', 'typ': 'JWT'})}.{seg(claims_for(e2e.id, body))}.", body, "ALGORITHM"),
        "HS256 with the public key": (hs256_with_public_key(), body, "ALGORITHM"),
        "wrong key": (ed_token(attacker, claims_for(e2e.id, body)), body, "BAD_SIGNATURE"),
        "missing exp": (ed_token(e2e.key, claims_for(e2e.id, body, exp=None)), body, "MISSING_CLAIM"),
        "missing aud": (ed_token(e2e.key, claims_for(e2e.id, body, aud=None)), body, "MISSING_CLAIM"),
        "wrong aud": (ed_token(e2e.key, claims_for(e2e.id, body, aud="someone-else")), body, "WRONG_AUDIENCE"),
        "expired": (ed_token(e2e.key, claims_for(e2e.id, body, iat=now - 120, exp=now - 90)), body, "EXPIRED"),
        "another body": (ed_token(e2e.key, claims_for(e2e.id, b"{}")), body, "BODY_MISMATCH"),
        "another cluster's token": (
            ed_token(other_key, claims_for(other_id, body)),
            body,
            "CLUSTER_MISMATCH",
        ),
        "another cluster's key claiming this cluster": (
            ed_token(other_key, claims_for(e2e.id, body)),
            body,
            "BAD_SIGNATURE",
        ),
        "key in the token header": (
            ed_token(attacker, claims_for(e2e.id, body), {"alg": "EdDSA", "typ": "JWT", "jwk": jwk}),
            body,
            "HEADER_KEY_REFUSED",
        ),
        "unknown cluster": (ed_token(attacker, claims_for("e2e-nobody", body)), body, "UNKNOWN_CLUSTER"),
    }
    for name, (token, sent, reason) in forgeries.items():
        response = await _post(cp_http, "session-status", token, sent)
        assert response.status_code == 401, (name, response.text)
        assert reason in response.json()["code"], (name, response.json())
    no_bearer = await cp_http.post("/callbacks/session-status", content=body, headers={"authorization": "Basic x"})
    assert no_bearer.status_code == 401

    # a forged inventory that would empty the cluster
    empty = json.dumps({"type": "inventory", "cluster": e2e.id, "nodes": []}, separators=(",", ":")).encode()
    response = await _post(cp_http, "inventory", ed_token(attacker, claims_for(e2e.id, empty)), empty)
    assert response.status_code == 401

    # nothing recorded: the session, the nodes and the replay cache are as they were
    async with c.uow() as uow:
        assert (await uow.sessions.get(s.id)).state is SessionState.SCHEDULED  # type: ignore[union-attr]
        assert [n.to_dict() for n in (await uow.capacity.inventory()).nodes_of(e2e.id)] == nodes_before
    assert await _jti_rows(c) == jtis_before

    # the genuine report is accepted once; its replay is refused
    genuine = ed_token(e2e.key, claims_for(e2e.id, body))
    accepted = await _post(cp_http, "session-status", genuine, body)
    assert accepted.status_code == 202, accepted.text
    running = await wait_state(c, s.id, SessionState.RUNNING)
    replayed = await _post(cp_http, "session-status", genuine, body)
    assert replayed.status_code == 401 and "REPLAYED" in replayed.json()["code"]
    jti = json.loads(base64.urlsafe_b64decode(genuine.split(".")[1] + "=="))["jti"]
    assert await _jti_rows(c, jti) == 1
    async with c.uow() as uow:
        after = await uow.sessions.get(s.id)
    assert after is not None and after.version == running.version

    # a cluster's valid report about another cluster's session is accepted and ignored
    theirs = status_body(other_id, s.id, phase="Failed")
    ignored = await _post(cp_http, "session-status", ed_token(other_key, claims_for(other_id, theirs)), theirs)
    assert ignored.status_code == 202
    async with c.uow() as uow:
        assert (await uow.sessions.get(s.id)).state is SessionState.RUNNING  # type: ignore[union-attr]
    await sessions.session_stop(c.sessions, actor, s.id)


async def test_replay_caches_insert_if_absent(container: Any, redis_url: str) -> None:
    from infra.clusters.keys import RedisReplayCache, SqlReplayCache, sessionmaker_for

    now = int(time.time())
    for cache in (SqlReplayCache(sessionmaker_for(container.engine)), RedisReplayCache(redis_url)):
        jti = secrets.token_urlsafe(24)
        assert await cache.remember("e2e-x", jti, now + 30) is True
        assert await cache.remember("e2e-x", jti, now + 30) is False
        assert await cache.remember("e2e-y", jti, now + 30) is True  # per cluster
        expired = secrets.token_urlsafe(24)
        assert await cache.remember("e2e-x", expired, now - 10) is True
        if isinstance(cache, SqlReplayCache):  # an expired entry no longer blocks (Redis has expired it)
            assert await cache.remember("e2e-x", expired, now + 30) is True
        else:
            await cache.close()

"""The clusters' signed callbacks: `POST /callbacks/session-status` and `POST /callbacks/inventory`
(the operator), `POST /callbacks/usage` (the node agents' live usage).

Each request is verified with `infra.callbacks.CallbackVerifier` (the cluster's registered key,
fixed algorithms, `aud`/`exp`/`jti` required, the body bound to the token, single-use `jti`,
and the report's `cluster` equal to the signer) before anything is read from it; a refusal is
401 with the reason's code and leaves nothing behind. A verified report only ever speaks for
the signing cluster: status reports go to the session state machine with that cluster's id,
inventory reports replace that cluster's nodes and say what phase its volume claims are in,
usage samples are kept only for the sessions that cluster runs (`infra.callbacks.usage`) and
appended to the UsageStore in one call per post.

Answers: 202 accepted; 401 refused token; 413 body too large; 422 verified but unusable
report (the operator does not retry 4xx); 503 when the report could not be applied now
(retried).
"""

from __future__ import annotations

import logging
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from domain.common.errors import DomainError
from domain.inventory.model import Cluster, Inventory
from domain.sessions import services as sessions
from domain.volumes import services as volumes
from infra.callbacks.reports import ReportInvalid, inventory_claims, inventory_nodes, inventory_sessions, status_report
from infra.callbacks.usage import cluster_sessions, usage_report
from infra.callbacks.verify import CallbackErrorCode, CallbackRejected
from infra.clusters.wiring import callback_verifier, replace_inventory
from infra.usage import record_usage

log = logging.getLogger("gshare.callbacks")
MAX_BODY_BYTES = 8 * 1024 * 1024


async def _verified(container: Any, request: Request, kind: str) -> tuple[str, dict[str, Any]] | Response:
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY_BYTES):
        return JSONResponse({"code": "CALLBACK_TOO_LARGE"}, status_code=413)
    body = await request.body()
    if len(body) > MAX_BODY_BYTES:
        return JSONResponse({"code": "CALLBACK_TOO_LARGE"}, status_code=413)
    header = request.headers.get("authorization") or ""
    scheme, _, token = header.strip().partition(" ")
    try:
        if scheme.lower() != "bearer" or not token.strip():
            raise CallbackRejected(CallbackErrorCode.MALFORMED, "expected a bearer token")
        verified, report = await callback_verifier(container).verify_report(token.strip(), body)
    except CallbackRejected as exc:
        log.warning("callback %s refused: %s (%s)", kind, exc.code, exc.message)
        return JSONResponse({"code": str(exc.code), "message": exc.message}, status_code=401)
    return verified.cluster_id, report


def callback_routes(container: Any) -> list[Route]:
    async def session_status(request: Request) -> Response:
        outcome = await _verified(container, request, "session-status")
        if isinstance(outcome, Response):
            return outcome
        cluster_id, report = outcome
        try:
            status = status_report(cluster_id, report)
        except ReportInvalid as exc:
            return JSONResponse({"code": "CALLBACK_REPORT_INVALID", "message": str(exc)}, status_code=422)
        if status is not None:
            try:
                await sessions.handle_status_report(container.sessions, cluster_id, status)
            except Exception:
                log.exception("status report of cluster %s for %s failed", cluster_id, status.session_id)
                return JSONResponse({"code": "CALLBACK_NOT_APPLIED"}, status_code=503)
        return JSONResponse({"ok": True}, status_code=202)

    async def inventory(request: Request) -> Response:
        outcome = await _verified(container, request, "inventory")
        if isinstance(outcome, Response):
            return outcome
        cluster_id, report = outcome
        try:
            reported = Inventory((Cluster(cluster_id, cluster_id),), inventory_nodes(cluster_id, report))
            claims = inventory_claims(report)
            changed = await replace_inventory(container, cluster_id, reported)
            if claims:
                async with container.uow() as uow:
                    await volumes.claims_reported(uow, cluster_id, claims, container.clock.now())
                    await uow.commit()
            listed = inventory_sessions(report)
            if listed is not None:
                await sessions.workloads_listed(
                    container.sessions,
                    cluster_id,
                    listed[0],
                    listed[1],
                    grace_seconds=container.settings.residue_grace_seconds,
                )
        except (ReportInvalid, DomainError, ValueError, KeyError, TypeError) as exc:
            return JSONResponse({"code": "CALLBACK_REPORT_INVALID", "message": str(exc)}, status_code=422)
        except Exception:
            log.exception("inventory of cluster %s not stored", cluster_id)
            return JSONResponse({"code": "CALLBACK_NOT_APPLIED"}, status_code=503)
        return JSONResponse({"ok": True, "changed": changed}, status_code=202)

    async def usage(request: Request) -> Response:
        outcome = await _verified(container, request, "usage")
        if isinstance(outcome, Response):
            return outcome
        cluster_id, report = outcome
        try:
            parsed = usage_report(cluster_id, report)
        except ReportInvalid as exc:
            return JSONResponse({"code": "CALLBACK_REPORT_INVALID", "message": str(exc)}, status_code=422)
        try:
            ours = await cluster_sessions(container).running_on(cluster_id, {s.session_id for s in parsed.samples})
            kept = [s for s in parsed.samples if s.session_id in ours]
            await record_usage(container.usage, container.events, kept)
        except Exception:
            log.exception("usage of cluster %s not stored", cluster_id)
            return JSONResponse({"code": "CALLBACK_NOT_APPLIED"}, status_code=503)
        ignored = len(parsed.samples) - len(kept)
        if ignored or parsed.invalid:
            log.info(
                "usage of cluster %s: %d sample(s) of sessions it does not run, %d invalid",
                cluster_id,
                ignored,
                parsed.invalid,
            )
        return JSONResponse({"accepted": len(kept), "ignored": ignored, "invalid": parsed.invalid}, status_code=202)

    return [
        Route("/callbacks/session-status", session_status, methods=["POST"]),
        Route("/callbacks/inventory", inventory, methods=["POST"]),
        Route("/callbacks/usage", usage, methods=["POST"]),
    ]

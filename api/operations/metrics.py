"""`/metrics` for Prometheus: this process's metrics (the API's, and in the embedded default
the in-process workers'). `gshare worker` processes serve theirs on their own port.

On the API's listener the metrics are the operator's only: `metrics_route` serves them to
`Authorization: Bearer <GSHARE_METRICS_TOKEN>` and is not routed at all without a token."""

from __future__ import annotations

import hmac

from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from api.common.request_errors import RequestErrorCode
from infra.request_context import request_id


async def metrics_endpoint(request: Request) -> Response:
    return Response(generate_latest(REGISTRY), media_type=CONTENT_TYPE_LATEST)


def metrics_route(token: str | None) -> Route | None:
    if not token:
        return None
    expected = f"bearer {token}".encode()

    async def guarded(request: Request) -> Response:
        scheme, _, credential = request.headers.get("authorization", "").partition(" ")
        given = f"{scheme.lower()} {credential.strip()}".encode("utf-8", "replace")
        if not hmac.compare_digest(given, expected):
            return JSONResponse(
                {
                    "code": str(RequestErrorCode.UNAUTHENTICATED),
                    "message": "scraping /metrics needs Authorization: Bearer <GSHARE_METRICS_TOKEN>",
                    "requestId": request_id.get(),
                },
                status_code=401,
                headers={"www-authenticate": 'Bearer realm="metrics"'},
            )
        return await metrics_endpoint(request)

    return Route("/metrics", guarded, methods=["GET"])

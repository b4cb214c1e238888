"""`/metrics` for Prometheus: this process's metrics (the API's, and in the embedded default
the in-process workers'). `gshare worker` processes serve theirs on their own port."""

from __future__ import annotations

from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest
from starlette.requests import Request
from starlette.responses import Response


async def metrics_endpoint(request: Request) -> Response:
    return Response(generate_latest(REGISTRY), media_type=CONTENT_TYPE_LATEST)

"""The process's outgoing HTTP clients (the living demo's, infra/demo_activity.py; the Prometheus
poll, workers/jobs.py) do not load the CA bundle on the event loop: `httpx.AsyncClient(...)`
without a TLS context of its own loads it synchronously in its constructor
(`ssl.SSLContext.load_verify_locations` on certifi's bundle), for each client, plain http or not,
stalling `gshare serve`'s loop. They share one context (infra/tls.py), httpx's default (so https
is verified as before), made once in a worker thread."""

from __future__ import annotations

import asyncio
import ssl
from typing import Any

import pytest

from infra import demo_activity
from infra import tls as infra_tls


def _on_event_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


async def test_the_demo_clients_load_the_ca_bundle_once_and_off_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    loads: list[bool] = []  # one per load of CA certificates: was it on the event loop's thread
    real = ssl.SSLContext.load_verify_locations

    def recorded(self: ssl.SSLContext, *args: Any, **kwargs: Any) -> None:
        loads.append(_on_event_loop())
        real(self, *args, **kwargs)

    monkeypatch.setattr(ssl.SSLContext, "load_verify_locations", recorded)
    monkeypatch.setattr(infra_tls, "_context", None)  # as in a fresh process
    clients = [
        await demo_activity._Client.open(url)
        for url in ("http://127.0.0.1:8000", "http://127.0.0.1:8000", "https://gshare.example")
    ]
    try:
        assert loads == [False]  # once for the three, in a worker thread
        tls = infra_tls._context
        assert tls is not None
        assert await infra_tls.default_tls_context() is tls  # the process's one (the Prometheus poll's too)
        assert loads == [False]
        # httpx's default verification: the peer's certificate against the bundle, and its name
        assert (tls.verify_mode, tls.check_hostname) == (ssl.CERT_REQUIRED, True)
        assert tls.cert_store_stats()["x509_ca"] > 0
        for c in clients:  # each client's connection pool wraps its sockets with that context
            assert c.http._transport._pool._ssl_context is tls  # type: ignore[attr-defined]
    finally:
        for c in clients:
            await c.aclose()

"""One TLS context for the process's outgoing HTTP clients, made off the event loop.

`httpx.AsyncClient(...)` without a context of its own builds one in its constructor
(`httpx.create_ssl_context()`), loading the CA bundle synchronously, for every client and even
for a plain-http URL: 25 ms on a quiet machine, 230 ms under load, on whatever event loop builds
it (`gshare serve` runs the API, the demo's seeding and, embedded, the periodic jobs on one).
`default_tls_context()` makes that same context once, in a worker thread; clients pass it as
`verify=`, so https is verified exactly as httpx's default does (certifi's bundle, or
SSL_CERT_FILE / SSL_CERT_DIR), and the bundle is never loaded on the loop."""

from __future__ import annotations

import asyncio
import ssl

import httpx

_context: ssl.SSLContext | None = None


async def default_tls_context() -> ssl.SSLContext:
    global _context
    if _context is None:
        made = await asyncio.to_thread(httpx.create_ssl_context)
        if _context is None:  # two first callers at once: keep one
            _context = made
    return _context

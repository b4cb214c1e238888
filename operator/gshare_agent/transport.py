"""A small HTTP/1.1 client over `http.client`: one kept-alive connection per origin.

The agent makes a handful of requests a second to three or four origins (the Kubernetes API,
the control plane, the local metrics endpoints), so a persistent `http.client` connection,
re-opened after any error, is all it needs.
"""

from __future__ import annotations

import http.client
import ssl
from dataclasses import dataclass
from urllib.parse import urlsplit


class HttpError(OSError):
    """No answer (connection refused, timeout, reset)."""


@dataclass(frozen=True, slots=True)
class Response:
    status: int
    body: bytes


class Origin:
    def __init__(self, base_url: str, *, timeout: float = 2.0, tls: ssl.SSLContext | None = None) -> None:
        parts = urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"not an http(s) URL: {base_url!r}")
        self.https = parts.scheme == "https"
        self.host = parts.hostname
        self.port = parts.port or (443 if self.https else 80)
        self.prefix = parts.path.rstrip("/")
        self.timeout = timeout
        self.tls = tls or (ssl.create_default_context() if self.https else None)
        self._conn: http.client.HTTPConnection | None = None

    def _connection(self) -> http.client.HTTPConnection:
        if self._conn is None:
            if self.https:
                self._conn = http.client.HTTPSConnection(self.host, self.port, timeout=self.timeout, context=self.tls)
            else:
                self._conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        return self._conn

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def request(
        self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
    ) -> Response:
        """`path` is appended to the origin's path prefix. One retry on a stale kept-alive
        connection (the server closed it between requests)."""
        for attempt in (0, 1):
            conn = self._connection()
            try:
                conn.request(method, self.prefix + path, body=body, headers=headers or {})
                answer = conn.getresponse()
                data = answer.read()
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError) as exc:
                self.close()
                if attempt == 0:
                    continue
                raise HttpError(f"{method} {self.host}:{self.port}{path}: {exc!r}") from exc
            except (OSError, http.client.HTTPException) as exc:
                self.close()
                raise HttpError(f"{method} {self.host}:{self.port}{path}: {exc!r}") from exc
            if answer.getheader("connection", "").lower() == "close":
                self.close()
            return Response(answer.status, data)
        raise HttpError("unreachable")  # pragma: no cover - the loop returns or raises

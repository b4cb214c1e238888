"""POSTing signed reports to the control plane.

`POST {base_url}/session-status` and `POST {base_url}/inventory`, body JSON (UTF-8, compact,
keys sorted), header `Authorization: Bearer <jwt>` from `CallbackSigner` (a fresh token, and
so a fresh `jti`, for every attempt). Every report carries `"cluster": <cluster id>`, which
must equal the token's issuer.

Session status report (`"type": "session.status"`)::

    {"type": "session.status", "cluster": "c1", "namespace": "gshare-sessions",
     "name": "s-abc", "uid": "<CR uid>", "sessionId": "abc", "generation": 2,
     "phase": "Running", "reason": "PodReady", "message": "",
     "node": "gpu-1", "podIP": "10.244.0.11", "startedAt": "2026-…Z",
     "endpoints": [{"name": "jupyterlab", "url": "https://jupyterlab-s-abc.example/"}],
     "observedAt": "2026-…Z"}

`phase` is one of Pending, Starting, Running, Failed, Succeeded, Terminating, and `Deleted`
once the resource and all its children are gone (pause or stop). Inventory: see
`inventory.py`.

Outcomes: 2xx is success; 408, 429 and 5xx or no answer raise `CallbackUnavailable` (retry
later); other 4xx raise `CallbackRefused` (the control plane will not accept this report).
"""

from __future__ import annotations

import json
from typing import Any

import httpx

from gshare_operator.signing import CallbackSigner

SESSION_STATUS = "session-status"
INVENTORY = "inventory"


class CallbackError(Exception):
    pass


class CallbackUnavailable(CallbackError):
    """The control plane could not take the report now; try again later."""


class CallbackRefused(CallbackError):
    """The control plane refused the report; sending it again will not help."""

    def __init__(self, status: int, body: str) -> None:
        super().__init__(f"control plane refused the report ({status}): {body[:200]}")
        self.status = status


def encode(report: dict[str, Any]) -> bytes:
    return json.dumps(report, separators=(",", ":"), sort_keys=True).encode()


class CallbackClient:
    def __init__(
        self,
        base_url: str,
        signer: CallbackSigner,
        *,
        http: httpx.AsyncClient | None = None,
        timeout: float = 5.0,
    ) -> None:
        self._base = base_url.rstrip("/")
        self._signer = signer
        self._http = http or httpx.AsyncClient(timeout=timeout)
        self._owns_http = http is None

    @property
    def cluster_id(self) -> str:
        return self._signer.cluster_id

    async def close(self) -> None:
        if self._owns_http:
            await self._http.aclose()

    async def send(self, path: str, report: dict[str, Any]) -> None:
        report = {**report, "cluster": self._signer.cluster_id}
        body = encode(report)
        headers = {
            "Authorization": f"Bearer {self._signer.sign(body)}",
            "Content-Type": "application/json",
        }
        try:
            response = await self._http.post(f"{self._base}/{path}", content=body, headers=headers)
        except httpx.HTTPError as exc:
            raise CallbackUnavailable(f"control plane unreachable: {exc!r}") from exc
        if response.is_success:
            return
        if response.status_code in (408, 429) or response.status_code >= 500:
            raise CallbackUnavailable(f"control plane answered {response.status_code}")
        raise CallbackRefused(response.status_code, response.text)

    async def session_status(self, report: dict[str, Any]) -> None:
        await self.send(SESSION_STATUS, {"type": "session.status", **report})

    async def inventory(self, report: dict[str, Any]) -> None:
        await self.send(INVENTORY, {"type": "inventory", **report})

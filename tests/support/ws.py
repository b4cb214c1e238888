"""A minimal graphql-transport-ws client for tests (the protocol, not a library's idea of it)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import websockets


class Subscription:
    def __init__(self, ws: Any, sub_id: str) -> None:
        self.ws = ws
        self.id = sub_id

    async def next(self, within: float = 10) -> dict[str, Any]:
        while True:
            msg = json.loads(await asyncio.wait_for(self.ws.recv(), within))
            if msg.get("type") == "ping":
                await self.ws.send(json.dumps({"type": "pong"}))
                continue
            if msg.get("id") != self.id:
                continue
            if msg["type"] == "next":
                if msg["payload"].get("errors"):
                    raise AssertionError(msg["payload"]["errors"])
                return msg["payload"]["data"]  # type: ignore[no-any-return]
            if msg["type"] == "complete":
                raise StopAsyncIteration
            raise AssertionError(msg)


@asynccontextmanager
async def graphql_ws(url: str, params: dict[str, Any] | None = None, **kw: Any) -> AsyncIterator[Any]:
    async with websockets.connect(url, subprotocols=["graphql-transport-ws"], open_timeout=10, **kw) as ws:
        await ws.send(json.dumps({"type": "connection_init", "payload": params or {}}))
        ack = json.loads(await asyncio.wait_for(ws.recv(), 10))
        assert ack["type"] == "connection_ack", ack
        yield ws


async def subscribe(ws: Any, sub_id: str, query: str, **variables: Any) -> Subscription:
    await ws.send(json.dumps({"id": sub_id, "type": "subscribe", "payload": {"query": query, "variables": variables}}))
    return Subscription(ws, sub_id)

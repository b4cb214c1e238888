"""WebSocket connections that one user's burst cannot turn against everyone (issue 13, finding 5).

- Per-user caps, per process: open sockets (`max_websockets_per_user`; past it the socket is
  closed with 4029 and a reason naming the limit) and live subscriptions
  (`max_subscriptions_per_user`, with `max_subscriptions_per_connection` per socket; past
  either the operation gets a graphql-transport-ws `error` whose extensions carry
  `code: TOO_MANY_SUBSCRIPTIONS`, the `limit` and what it is `per`).
- A bounded outgoing queue per connection (`Outbox`): operations hand their messages over and
  go on; one writer task sends them in order. A subscription whose every message is the whole
  current state (`LATEST_ONLY`) keeps at most one unsent message, replaced by the newest; past
  `websocket_outbox_messages` unsent messages the client cannot keep up, and the socket is
  closed with 4013 (`SLOW_CONSUMER`).
- Subscription work runs in a lane (`subscription_refresh_concurrency` at a time per process,
  infra.events.Turn): an event that reaches thousands of subscriptions re-reads their state a
  few at a time, so the database pool and the event loop stay free for HTTP requests.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import Counter, deque
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any
from uuid import UUID

from graphql import FieldNode, OperationDefinitionNode, parse
from starlette.websockets import WebSocketDisconnect
from strawberry.exceptions import ConnectionRejectionError
from strawberry.http.exceptions import WebSocketDisconnected
from strawberry.subscriptions.protocols.graphql_transport_ws.handlers import BaseGraphQLTransportWSHandler, Operation
from strawberry.types.execution import ExecutionResult, PreExecutionError
from strawberry.types.unset import UnsetType

from api.common.request_errors import RequestErrorCode
from api.context import Context
from api.fanout import SHARED_FIELDS, Key, SharedStreams
from infra.events import Turn, refresh_turn
from infra.request_context import request_id

if TYPE_CHECKING:
    from strawberry.schema.schema import StreamResult
    from strawberry.subscriptions.protocols.graphql_transport_ws.types import (
        ConnectionInitMessage,
        Message,
        SubscribeMessage,
    )

log = logging.getLogger("gshare.ws")

CLOSE_TOO_MANY_CONNECTIONS = 4029  # like HTTP 429; graphql-ws keeps 4400-4499 for the protocol
CLOSE_SLOW_CONSUMER = 4013  # like WebSocket's 1013 "try again later"

# Subscriptions each of whose messages is the whole current state: a newer one makes an
# unsent one worthless. The others carry news of their own (a notification, a usage sample,
# the ids of changed sessions) and are never dropped. tests/unit/api/test_ws_outbox.py checks
# every subscription field of the schema is in one of the two.
LATEST_ONLY = frozenset(
    {
        "viewer",
        "sessionStatus",
        "mySessions",
        "myQueuePositions",
        "myWallet",
        "capacityChanged",
        "nodeOperationProgress",
    }
)
STREAMS = frozenset({"notifications", "sessionUsage", "adminSessionsChanged"})


class ConnectionRegistry:
    """Open sockets and live subscriptions per user, in this process."""

    def __init__(self, *, max_sockets: int, max_subscriptions: int) -> None:
        self.max_sockets = max_sockets
        self.max_subscriptions = max_subscriptions
        self.sockets: Counter[UUID] = Counter()
        self.subscriptions: Counter[UUID] = Counter()

    def open_socket(self, user: UUID) -> bool:
        if self.sockets[user] >= self.max_sockets:
            return False
        self.sockets[user] += 1
        return True

    def close_socket(self, user: UUID) -> None:
        self.sockets[user] -= 1
        if self.sockets[user] <= 0:
            del self.sockets[user]

    def add_subscription(self, user: UUID) -> bool:
        if self.subscriptions[user] >= self.max_subscriptions:
            return False
        self.subscriptions[user] += 1
        return True

    def drop_subscription(self, user: UUID) -> None:
        self.subscriptions[user] -= 1
        if self.subscriptions[user] <= 0:
            del self.subscriptions[user]


class Outbox:
    """A connection's unsent messages, in order, at most `limit` of them. A `latest_only`
    operation's queued `next` is replaced in place by a newer one (it keeps its place in the
    order). `put` answers False when the queue is full: the caller closes the connection."""

    def __init__(
        self,
        send: Callable[[Message], Awaitable[None]],
        *,
        limit: int,
        send_text: Callable[[str], Awaitable[None]] | None = None,
    ) -> None:
        self._send = send
        self._send_text = send_text
        self.limit = limit
        self._queue: deque[dict[str, Any] | str] = deque()
        self._latest: dict[str, dict[str, Any]] = {}  # operation id -> its queued `next`
        self._delivered: dict[str, asyncio.Future[None]] = {}  # ... resolved once it is sent
        self._ready = asyncio.Event()
        self.coalesced = 0

    def __len__(self) -> int:
        return len(self._queue)

    def put(self, message: Message, *, latest_only: bool = False) -> bool:
        msg: dict[str, Any] = message  # type: ignore[assignment]
        op = msg.get("id")
        is_next = msg.get("type") == "next"
        if latest_only and is_next and op in self._latest:
            self._latest[op]["payload"] = msg["payload"]
            self.coalesced += 1
            return True
        if len(self._queue) >= self.limit:
            return False
        self._queue.append(msg)
        if latest_only and is_next and isinstance(op, str):
            self._latest[op] = msg
            self._delivered[op] = asyncio.get_running_loop().create_future()
        self._ready.set()
        return True

    def put_text(self, frame: str) -> bool:
        """An already encoded message (a shared subscription's `next`, api.fanout): never
        coalesced, counted against the limit like any other."""
        if len(self._queue) >= self.limit:
            return False
        self._queue.append(frame)
        self._ready.set()
        return True

    async def delivered(self, op: str) -> None:
        """Until `op`'s queued `next` has been sent: a state subscription does no new work for
        a client that has not taken the last state yet (events meanwhile become one)."""
        waiter = self._delivered.get(op)
        if waiter is not None:
            await asyncio.shield(waiter)

    async def run(self) -> None:
        """Sends the queued messages for as long as the connection lives."""
        while True:
            while not self._queue:
                self._ready.clear()
                await self._ready.wait()
            msg = self._queue.popleft()
            if isinstance(msg, str):
                if self._send_text is not None:
                    await self._send_text(msg)
                else:
                    await self._send(json.loads(msg))
                continue
            op = msg.get("id")
            latest = isinstance(op, str) and self._latest.get(op) is msg
            if latest:
                del self._latest[op]  # type: ignore[arg-type]
            await self._send(msg)  # type: ignore[arg-type]
            if latest and (waiter := self._delivered.pop(op, None)) is not None and not waiter.done():  # type: ignore[arg-type]
                waiter.set_result(None)


def root_fields(query: str, operation_name: str | None) -> set[str]:
    """The root field names (not aliases) of the operation a valid document runs."""
    document = parse(query, no_location=True)
    operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
    chosen = next(
        (o for o in operations if operation_name is None or (o.name and o.name.value == operation_name)), None
    )
    if chosen is None:
        return set()
    return {s.name.value for s in chosen.selection_set.selections if isinstance(s, FieldNode)}


class GShareTransportWSHandler(BaseGraphQLTransportWSHandler[Context, None]):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        view: Any = self.view
        settings = view.container.settings
        self.registry: ConnectionRegistry = view.connections
        self.lane: asyncio.Semaphore = view.refresh_lane
        self.per_connection = int(settings.max_subscriptions_per_connection)
        self.shared: SharedStreams = view.shared_streams
        self.outbox = Outbox(
            self.websocket.send_json, limit=int(settings.websocket_outbox_messages), send_text=self._text_sender()
        )
        self.user: UUID | None = None
        self.counted: set[str] = set()
        self.latest_only: set[str] = set()
        self.closing = False

    async def handle(self) -> None:
        writer = asyncio.create_task(self._write())
        try:
            await super().handle()
        finally:
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer
            if self.user is not None:
                for _ in self.counted:
                    self.registry.drop_subscription(self.user)
                self.counted.clear()
                self.registry.close_socket(self.user)

    def _text_sender(self) -> Callable[[str], Awaitable[None]] | None:
        ws = getattr(self.websocket, "ws", None)  # the ASGI adapter's Starlette WebSocket
        if ws is None:
            return None

        async def send_text(text: str) -> None:
            try:
                await ws.send_text(text)
            except WebSocketDisconnect as exc:
                raise WebSocketDisconnected from exc

        return send_text

    async def _write(self) -> None:
        with contextlib.suppress(WebSocketDisconnected, RuntimeError):  # the socket went away
            await self.outbox.run()

    async def send_message(self, message: Message) -> None:
        if self.closing:
            return
        latest = message.get("type") == "next" and message.get("id") in self.latest_only
        if self.outbox.put(message, latest_only=latest):
            return
        self.closing = True
        await self._close_slow()

    async def handle_connection_init(self, message: ConnectionInitMessage) -> None:
        """Strawberry's, with the per-user socket cap checked once the client is known."""
        if self.connection_timed_out:
            return
        if self.connection_init_timeout_task:
            self.connection_init_timeout_task.cancel()
        payload = message.get("payload", {})
        if not isinstance(payload, dict):
            await self.websocket.close(code=4400, reason="Invalid connection init payload")
            return
        if self.connection_init_received:
            await self.websocket.close(code=4429, reason="Too many initialisation requests")
            return
        self.connection_init_received = True
        self.context.connection_params = payload
        try:
            ack = await self.view.on_ws_connect(self.context)
        except ConnectionRejectionError:
            await self.websocket.close(code=4403, reason="Forbidden")
            return
        actor = self.context.require_actor()
        if not self.registry.open_socket(actor.user_id):
            log.info("refused a socket: %s has %d open", actor.username, self.registry.max_sockets)
            reason = (
                f"{RequestErrorCode.TOO_MANY_CONNECTIONS}: at most {self.registry.max_sockets} open sockets per user"
            )
            await self.websocket.close(code=CLOSE_TOO_MANY_CONNECTIONS, reason=reason)
            return
        self.user = actor.user_id
        await self.send_message(
            {"type": "connection_ack"} if isinstance(ack, UnsetType) else {"type": "connection_ack", "payload": ack}
        )
        self.connection_acknowledged = True

    async def handle_subscribe(self, message: SubscribeMessage) -> None:
        if not self.connection_acknowledged or message["id"] in self.operations or self.user is None:
            await super().handle_subscribe(message)  # strawberry's refusals (4401, 4409)
            return
        if len(self.operations) >= self.per_connection:
            await self._refuse(message["id"], self.per_connection, "connection")
            return
        if not self.registry.add_subscription(self.user):
            await self._refuse(message["id"], self.registry.max_subscriptions, "user")
            return
        self.counted.add(message["id"])
        key = self._shared_key(message)
        if key is None:
            await super().handle_subscribe(message)
            return
        payload = message["payload"]
        operation = Operation(
            self, message["id"], payload["query"], payload.get("variables"), payload.get("operationName")
        )
        operation.task = asyncio.create_task(self._run_shared(operation, key))
        operation.task.add_done_callback(self._task_done)
        self.operations[message["id"]] = operation

    @staticmethod
    def _shared_key(message: SubscribeMessage) -> Key | None:
        """The group of a subscription whose messages are the same for every subscriber
        (api.fanout), or None. Only a valid document is shared: any other takes strawberry's
        path, which reports its errors."""
        payload = message.get("payload")
        if not isinstance(payload, dict) or not isinstance(payload.get("query"), str):
            return None
        query, name, variables = payload["query"], payload.get("operationName"), payload.get("variables")
        if (name is not None and not isinstance(name, str)) or (
            variables is not None and not isinstance(variables, dict)
        ):
            return None
        try:
            fields = root_fields(query, name)
            canonical = json.dumps(variables or {}, sort_keys=True, separators=(",", ":"))
        except Exception:  # not parseable, or variables JSON cannot be canonical: not shared
            return None
        if not fields or not fields <= SHARED_FIELDS:
            return None
        return (query, name or "", canonical)

    def _stream(self, operation: Operation[Context, None]) -> Awaitable[Any]:
        return self.schema.stream(
            operation.query,
            variable_values=operation.variables,
            context_value=self.context,
            root_value=self.root_value,
            operation_name=operation.operation_name,
        )

    def _encode(self, data: Any) -> str:
        encoded = self.view.encode_json(data)
        return encoded.decode() if isinstance(encoded, bytes) else encoded

    async def _run_shared(self, operation: Operation[Context, None], key: Key) -> None:
        """A shared subscription: its own first message (the current window, and the check that
        this viewer may see it), then the group's messages, each spliced with its id."""
        try:
            async with self.shared.member(key, lambda: self._stream(operation), self.lane, self._encode) as member:
                if member.group.ended:  # its leader could not subscribe: run it alone
                    await self.run_operation(operation)
                    return
                if await self._first_alone(operation):
                    member.attach(self._deliverer(operation))
                    await member.ended.wait()
            await operation.send_operation_message({"id": operation.id, "type": "complete"})
        except Exception as error:  # as strawberry's run_operation
            await self.handle_task_exception(error)
            with contextlib.suppress(Exception):
                await operation.send_operation_message({"id": operation.id, "type": "complete"})
            self.operations.pop(operation.id, None)
            raise

    async def _first_alone(self, operation: Operation[Context, None]) -> bool:
        """This subscriber's own execution up to its first message, sent. True when it went out
        clean (the live messages follow from the group); False when it ended the operation (a
        refusal, an error: the rest of its own stream, if any, was sent as strawberry would)."""
        turn = Turn(self.lane)
        token = refresh_turn.set(turn)
        try:
            await turn.take()
            try:
                source = await self._stream(operation)
            finally:
                turn.give_back()
            if isinstance(source, ExecutionResult):  # strawberry streams only async iterators
                await operation.send_next(source)
                return False
            async with contextlib.aclosing(source):
                await turn.take()
                try:
                    result = await source.__anext__()
                except StopAsyncIteration:
                    return False
                finally:
                    turn.give_back()
                if isinstance(result, PreExecutionError):
                    await self._handle_pre_execution_error(operation, result)
                    return False
                if not isinstance(result, ExecutionResult):
                    await self._reject_incremental_delivery(operation)
                    return False
                await operation.send_next(result)
                if result.errors:
                    async for more in source:
                        if isinstance(more, ExecutionResult):
                            await operation.send_next(more)
                    return False
            return True
        finally:
            refresh_turn.reset(token)

    def _deliverer(self, operation: Operation[Context, None]) -> Callable[[str], None]:
        head = '{"id":' + self._encode(operation.id) + ',"type":"next","payload":'

        def deliver(payload: str) -> None:
            if self.closing or operation.completed:
                return
            if not self.outbox.put_text(head + payload + "}"):
                self.closing = True
                asyncio.get_running_loop().create_task(self._close_slow())

        return deliver

    async def _close_slow(self) -> None:
        limit = self.outbox.limit
        log.info("closing a socket that cannot keep up (%d messages unsent)", limit)
        with contextlib.suppress(Exception):
            await self.websocket.close(CLOSE_SLOW_CONSUMER, f"SLOW_CONSUMER: over {limit} messages waiting to be sent")

    async def _refuse(self, operation_id: str, limit: int, per: str) -> None:
        extensions = {
            "code": str(RequestErrorCode.TOO_MANY_SUBSCRIPTIONS),
            "limit": limit,
            "per": per,
            "requestId": request_id.get(),
        }
        error = {"message": f"at most {limit} subscriptions per {per}", "extensions": extensions}
        await self.send_message({"id": operation_id, "type": "error", "payload": [error]})  # type: ignore[typeddict-item]

    def _released(self, operation_id: str) -> None:
        self.latest_only.discard(operation_id)
        if operation_id in self.counted:
            self.counted.discard(operation_id)
            if self.user is not None:
                self.registry.drop_subscription(self.user)

    def forget_id(self, id: str) -> None:
        super().forget_id(id)
        self._released(id)

    async def cleanup_operation(self, operation_id: str) -> None:
        await super().cleanup_operation(operation_id)
        self._released(operation_id)

    @staticmethod
    def _latest_only(operation: Operation[Context, None]) -> bool:
        fields = root_fields(operation.query, operation.operation_name)  # valid by now: bounded
        return bool(fields) and fields <= LATEST_ONLY

    async def _send_result_stream(self, operation: Operation[Context, None], result_source: StreamResult) -> None:
        """Strawberry's, with each step of the subscription (its work up to the next message,
        not its wait for an event) taken in the lane."""
        turn = Turn(self.lane)
        token = refresh_turn.set(turn)
        first = True
        try:
            while True:
                await turn.take()
                try:
                    result = await result_source.__anext__()
                except StopAsyncIteration:
                    return
                finally:
                    turn.give_back()
                if first and isinstance(result, PreExecutionError):
                    await self._handle_pre_execution_error(operation, result)
                    return
                if not isinstance(result, ExecutionResult):
                    await self._reject_incremental_delivery(operation)
                    return
                if first and self._latest_only(operation):
                    self.latest_only.add(operation.id)
                    turn.latest_only = True
                first = False
                await operation.send_next(result)
                if turn.latest_only:
                    await self.outbox.delivered(operation.id)
        finally:
            refresh_turn.reset(token)

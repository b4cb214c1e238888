"""The session controller: watches, a de-duplicating work queue, retries with backoff.

Watches GShareSessions and the children the operator labels (pods, services, ingresses,
secrets) in the sessions namespace; any event enqueues the session's name. A name is never
reconciled by two workers at once; an event arriving meanwhile reconciles it once more after.
Temporary failures are retried with exponential backoff and jitter (per name, reset on
success); everything is also re-enqueued every `resync` seconds, so drift that produced no
event (or a missed one) is corrected.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Awaitable, Callable
from typing import Any

from kubernetes_asyncio import client, watch
from kubernetes_asyncio.client.exceptions import ApiException

from gshare_operator.callbacks import CallbackUnavailable
from gshare_operator.constants import GROUP, LABEL_MANAGED_BY, LABEL_SESSION, MANAGED_BY, PLURAL, VERSION
from gshare_operator.reconciler import PermanentError, SessionReconciler, TemporaryError

log = logging.getLogger(__name__)


class Controller:
    def __init__(
        self,
        api_client: client.ApiClient,
        reconciler: SessionReconciler,
        *,
        namespace: str,
        workers: int = 4,
        resync: float = 300.0,
        backoff_base: float = 0.5,
        backoff_cap: float = 60.0,
    ) -> None:
        self._core = client.CoreV1Api(api_client)
        self._networking = client.NetworkingV1Api(api_client)
        self._custom = client.CustomObjectsApi(api_client)
        self.reconciler = reconciler
        self.namespace = namespace
        self._workers = workers
        self._resync = resync
        self._backoff_base = backoff_base
        self._backoff_cap = backoff_cap
        self._queue: asyncio.Queue[str] = asyncio.Queue()
        self._queued: set[str] = set()
        self._active: set[str] = set()
        self._dirty: set[str] = set()
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._failures: dict[str, int] = {}
        self._idle = asyncio.Event()
        self._idle.set()
        self.reconciles = 0
        self._node_ready: dict[str, str] = {}
        self._node_changes: asyncio.Queue[str] = asyncio.Queue()

    # --- queue ----------------------------------------------------------------------------

    def enqueue(self, name: str, delay: float = 0.0) -> None:
        if delay > 0:
            loop = asyncio.get_running_loop()
            timer = self._timers.get(name)
            when = loop.time() + delay
            if timer is not None:
                if timer.when() <= when:
                    return
                timer.cancel()
            self._timers[name] = loop.call_at(when, self._fire, name)
            self._idle.clear()
            return
        if name in self._active:
            self._dirty.add(name)
        elif name not in self._queued:
            self._queued.add(name)
            self._queue.put_nowait(name)
        self._idle.clear()

    def _fire(self, name: str) -> None:
        self._timers.pop(name, None)
        self.enqueue(name)

    def _check_idle(self) -> None:
        if not self._queued and not self._active and not self._timers:
            self._idle.set()

    async def wait_idle(self, within: float = 10.0) -> None:
        """Wait until nothing is queued, running or scheduled for retry (for tests)."""
        await asyncio.wait_for(self._idle.wait(), within)

    def _backoff(self, name: str) -> float:
        failures = self._failures.get(name, 0) + 1
        self._failures[name] = failures
        delay = min(self._backoff_cap, self._backoff_base * 2 ** (failures - 1))
        return float(delay * random.uniform(0.8, 1.2))

    async def _worker(self) -> None:
        while True:
            name = await self._queue.get()
            self._queued.discard(name)
            self._active.add(name)
            try:
                result = await self.reconciler.reconcile(name)
                self.reconciles += 1
                self._failures.pop(name, None)
                if result.requeue_after is not None:
                    self.enqueue(name, result.requeue_after)
            except (TimeoutError, TemporaryError, CallbackUnavailable, ApiException, OSError) as exc:
                delay = self._backoff(name)
                log.info("reconcile %s failed temporarily (%s); retry in %.2fs", name, exc, delay)
                self.enqueue(name, delay)
            except PermanentError as exc:  # reconcile reports these itself; defensive
                log.error("reconcile %s failed: %s", name, exc)
            except Exception:
                delay = self._backoff(name)
                log.exception("reconcile %s crashed; retry in %.2fs", name, delay)
                self.enqueue(name, delay)
            finally:
                self._active.discard(name)
                if name in self._dirty:
                    self._dirty.discard(name)
                    self.enqueue(name)
                self._check_idle()

    # --- watches --------------------------------------------------------------------------

    async def _watch(
        self,
        what: str,
        list_call: Callable[..., Awaitable[Any]],
        on_event: Callable[[dict[str, Any]], None],
        on_deleted: Callable[[dict[str, Any]], None] | None = None,
        **kwargs: Any,
    ) -> None:
        resource_version: str | None = None
        while True:
            w = watch.Watch()
            try:
                args = dict(kwargs)
                if resource_version:
                    args["resource_version"] = resource_version
                async for event in w.stream(list_call, **args):
                    if event["type"] == "ERROR":
                        break
                    if event["type"] == "DELETED" and on_deleted is not None:
                        on_deleted(event["raw_object"])
                    elif event["type"] != "BOOKMARK":
                        on_event(event["raw_object"])
                    resource_version = w.resource_version
            except ApiException as exc:
                if exc.status == 410:
                    resource_version = None  # compacted: start over with a fresh list
                    continue
                log.warning("%s watch failed: %s %s", what, exc.status, exc.reason)
                await asyncio.sleep(1.0)
            except (TimeoutError, OSError) as exc:
                log.warning("%s watch interrupted: %r", what, exc)
                await asyncio.sleep(1.0)
            finally:
                await w.close()

    def _on_session(self, obj: dict[str, Any]) -> None:
        self.enqueue(obj["metadata"]["name"])

    def _on_child(self, obj: dict[str, Any]) -> None:
        owner = ((obj.get("metadata") or {}).get("labels") or {}).get(LABEL_SESSION)
        if owner:
            self.enqueue(owner)

    def _on_node(self, obj: dict[str, Any]) -> None:
        """A node's readiness changed: its sessions must be looked at (node lost or back)."""
        name = (obj.get("metadata") or {}).get("name")
        if not isinstance(name, str):
            return
        conditions = (obj.get("status") or {}).get("conditions") or []
        ready = next((c.get("status") for c in conditions if c.get("type") == "Ready"), "Unknown")
        previous = self._node_ready.get(name)
        self._node_ready[name] = ready
        if ready == previous or (previous is None and ready == "True"):
            return
        self._node_changes.put_nowait(name)

    def _on_node_deleted(self, obj: dict[str, Any]) -> None:
        """A node is gone: its sessions are lost (their pods cannot run anywhere else)."""
        name = (obj.get("metadata") or {}).get("name")
        if isinstance(name, str):
            self._node_ready.pop(name, None)
            self._node_changes.put_nowait(name)

    async def _node_sessions(self) -> None:
        while True:
            node = await self._node_changes.get()
            try:
                pods = await self._core.list_namespaced_pod(
                    self.namespace,
                    label_selector=f"{LABEL_MANAGED_BY}={MANAGED_BY}",
                    field_selector=f"spec.nodeName={node}",
                )
            except (ApiException, OSError, TimeoutError) as exc:
                log.warning("listing pods on node %s failed: %r", node, exc)
                continue
            for pod in pods.items:
                session = (pod.metadata.labels or {}).get(LABEL_SESSION)
                if session:
                    self.enqueue(session)

    async def _resync_loop(self) -> None:
        while True:
            await asyncio.sleep(self._resync)
            await self.resync()

    async def resync(self) -> None:
        """Every session, and every session named by a child the operator labelled: a child
        whose session is gone (an orphan, which no event may ever name again) is reconciled,
        and so deleted, too."""
        names: set[str] = set()
        try:
            listing = await self._custom.list_namespaced_custom_object(GROUP, VERSION, self.namespace, PLURAL)
        except (TimeoutError, ApiException, OSError) as exc:
            log.warning("resync list failed: %r", exc)
        else:
            names.update(item["metadata"]["name"] for item in listing.get("items", []))
        selector = f"{LABEL_MANAGED_BY}={MANAGED_BY}"
        for what, lister in (
            ("pods", self._core.list_namespaced_pod),
            ("services", self._core.list_namespaced_service),
            ("ingresses", self._networking.list_namespaced_ingress),
            ("secrets", self._core.list_namespaced_secret),
        ):
            try:
                children = await lister(self.namespace, label_selector=selector)
            except (TimeoutError, ApiException, OSError) as exc:
                log.warning("resync list of %s failed: %r", what, exc)
                continue
            for child in children.items:
                owner = (child.metadata.labels or {}).get(LABEL_SESSION)
                if owner:
                    names.add(owner)
        for name in sorted(names):
            self.enqueue(name)

    async def run(self) -> None:
        selector = f"{LABEL_MANAGED_BY}={MANAGED_BY}"
        ns = self.namespace
        tasks = [
            self._watch(
                "sessions",
                self._custom.list_namespaced_custom_object,
                self._on_session,
                group=GROUP,
                version=VERSION,
                namespace=ns,
                plural=PLURAL,
                allow_watch_bookmarks=True,
            ),
            self._watch(
                "pods",
                self._core.list_namespaced_pod,
                self._on_child,
                namespace=ns,
                label_selector=selector,
                allow_watch_bookmarks=True,
            ),
            self._watch(
                "services",
                self._core.list_namespaced_service,
                self._on_child,
                namespace=ns,
                label_selector=selector,
                allow_watch_bookmarks=True,
            ),
            self._watch(
                "secrets",
                self._core.list_namespaced_secret,
                self._on_child,
                namespace=ns,
                label_selector=selector,
                allow_watch_bookmarks=True,
            ),
            self._watch(
                "ingresses",
                self._networking.list_namespaced_ingress,
                self._on_child,
                namespace=ns,
                label_selector=selector,
                allow_watch_bookmarks=True,
            ),
            self._watch(
                "nodes", self._core.list_node, self._on_node, self._on_node_deleted, allow_watch_bookmarks=True
            ),
            self._node_sessions(),
            self._resync_loop(),
            *(self._worker() for _ in range(self._workers)),
        ]
        running = [asyncio.create_task(t) for t in tasks]
        try:
            await asyncio.gather(*running)
        finally:
            for task in running:
                task.cancel()
            for task in running:
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            for timer in self._timers.values():
                timer.cancel()
            self._timers.clear()

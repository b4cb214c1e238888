"""Leader election on a coordination.k8s.io/v1 Lease (client-go's algorithm, simplified).

A candidate takes the lease when it does not exist, is held by nobody, or has not been renewed
for `lease_duration` seconds *as observed locally* (a monotonic clock from the moment the
record last changed, so clock skew between replicas does not matter). Every write names the
lease's `resourceVersion`, so two candidates racing for the same lease cannot both win: the
loser gets 409. The leader renews every `retry_period`; if it cannot renew within
`renew_deadline` it stops leading (its work is cancelled) and becomes a candidate again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Coroutine
from datetime import UTC, datetime
from typing import Any

from kubernetes_asyncio import client
from kubernetes_asyncio.client.exceptions import ApiException

log = logging.getLogger(__name__)


def _micro_time() -> datetime:
    return datetime.now(UTC)


class LeaderElector:
    def __init__(
        self,
        api_client: client.ApiClient,
        *,
        namespace: str,
        name: str,
        identity: str,
        lease_duration: float = 15.0,
        renew_deadline: float = 10.0,
        retry_period: float = 2.0,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        if not retry_period < renew_deadline < lease_duration:
            raise ValueError("need retry_period < renew_deadline < lease_duration")
        self._api = client.CoordinationV1Api(api_client)
        self.namespace = namespace
        self.name = name
        self.identity = identity
        self._duration = lease_duration
        self._renew_deadline = renew_deadline
        self._retry = retry_period
        self._monotonic = monotonic
        self._observed: tuple[str | None, str | None] | None = None
        self._observed_at = 0.0
        self.is_leader = False
        self.transitions = 0

    async def run(self, lead: Callable[[], Coroutine[Any, Any, None]]) -> None:
        """Campaign forever; run `lead()` while leading, cancel it when leadership is lost."""
        while True:
            await self._acquire()
            self.is_leader = True
            self.transitions += 1
            log.info("%s became leader of %s/%s", self.identity, self.namespace, self.name)
            work = asyncio.create_task(lead(), name=f"leader-work-{self.identity}")
            renew = asyncio.create_task(self._renew_loop(), name=f"lease-renew-{self.identity}")
            try:
                done, _ = await asyncio.wait({work, renew}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                self.is_leader = False
                for task in (work, renew):
                    task.cancel()
                for task in (work, renew):
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
            if work in done and work.exception() is not None:
                await self.release()
                raise work.exception()  # type: ignore[misc]
            if work in done:
                await self.release()
                return
            log.warning("%s lost the lease %s/%s", self.identity, self.namespace, self.name)

    async def _acquire(self) -> None:
        while not await self.try_acquire_or_renew():  # noqa: ASYNC110 - polling the API
            await asyncio.sleep(self._retry)

    async def _renew_loop(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self._retry)
            deadline = loop.time() + self._renew_deadline
            while not await self.try_acquire_or_renew():
                if loop.time() >= deadline:
                    return
                await asyncio.sleep(self._retry / 2)

    async def try_acquire_or_renew(self) -> bool:
        now = _micro_time()
        try:
            lease = await self._api.read_namespaced_lease(self.name, self.namespace)
        except ApiException as exc:
            if exc.status != 404:
                log.warning("reading lease failed: %s", exc.status)
                return False
            body = client.V1Lease(
                metadata=client.V1ObjectMeta(name=self.name, namespace=self.namespace),
                spec=client.V1LeaseSpec(
                    holder_identity=self.identity,
                    lease_duration_seconds=max(1, round(self._duration)),
                    acquire_time=now,
                    renew_time=now,
                    lease_transitions=0,
                ),
            )
            try:
                await self._api.create_namespaced_lease(self.namespace, body)
            except ApiException as create_exc:
                log.debug("creating lease failed: %s", create_exc.status)
                return False
            self._observe((self.identity, str(now)))
            return True
        except (TimeoutError, OSError) as exc:
            log.warning("reading lease failed: %r", exc)
            return False

        spec = lease.spec or client.V1LeaseSpec()
        holder = spec.holder_identity or None
        record = (holder, str(spec.renew_time) if spec.renew_time else None)
        if record != self._observed:
            self._observe(record)
        held_by_other = holder not in (None, self.identity)
        duration = spec.lease_duration_seconds or self._duration
        if held_by_other and self._monotonic() - self._observed_at < duration:
            return False
        if holder != self.identity:
            spec.acquire_time = now
            spec.lease_transitions = (spec.lease_transitions or 0) + (1 if holder else 0)
        spec.holder_identity = self.identity
        spec.renew_time = now
        spec.lease_duration_seconds = max(1, round(self._duration))
        lease.spec = spec
        try:
            # replace carries metadata.resourceVersion: a concurrent writer makes this a 409.
            await self._api.replace_namespaced_lease(self.name, self.namespace, lease)
        except ApiException as exc:
            log.debug("updating lease failed: %s", exc.status)
            return False
        except (TimeoutError, OSError) as exc:
            log.warning("updating lease failed: %r", exc)
            return False
        self._observe((self.identity, str(now)))
        return True

    def _observe(self, record: tuple[str | None, str | None]) -> None:
        self._observed = record
        self._observed_at = self._monotonic()

    async def release(self) -> None:
        """Give the lease up so another replica can take over without waiting it out."""
        try:
            lease = await self._api.read_namespaced_lease(self.name, self.namespace)
            if lease.spec is None or lease.spec.holder_identity != self.identity:
                return
            lease.spec.holder_identity = None  # type: ignore[assignment]
            lease.spec.lease_duration_seconds = 1
            lease.spec.renew_time = _micro_time()
            await self._api.replace_namespaced_lease(self.name, self.namespace, lease)
        except (TimeoutError, ApiException, OSError) as exc:
            log.debug("releasing lease failed: %r", exc)

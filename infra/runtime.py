"""The one composition of every long-running process kind, on top of `build_container`:

- `ProcessKind.API` (`gshare serve`): the actor cache following other processes' changes to
  users; the simulated cluster when configured (its inventory registered in the database) with
  the usage sampler feeding the UsageStore and live subscriptions; an adapter for every
  registered Kubernetes cluster (first inventory read at start), kept current.
- both kinds, when `GSHARE_SIMULATED_CLUSTER` is on: an adapter of the deployment's one shared
  simulated cluster (infra.cluster.shared), which the first process to start hosts.
- `ProcessKind.WORKER` (`gshare worker`): an adapter for every registered Kubernetes cluster,
  kept current when a cluster is registered, changed or deregistered, so that expiry, idle and
  "hold ran out" pauses delete the workload on its cluster and the queue drain hands admitted
  sessions off (before, a worker held no adapter: the pod kept running on a freed card, and the
  drain failed the session with "no adapter for cluster").

The operator (`gshare operator`) is a process of its own cluster with its own settings
(operator/gshare_operator/settings.py); it needs nothing of this container."""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from domain.inventory.ports import StatusReport
from domain.sessions import services as sessions
from infra.bootstrap import Container
from infra.usage import record_usage, usage_topic

__all__ = ["Runtime", "start_runtime", "usage_topic"]

if TYPE_CHECKING:
    from infra.clusters.follower import ClusterFollower

log = logging.getLogger(__name__)


class ProcessKind(enum.Enum):
    API = "api"
    WORKER = "worker"


@dataclass
class Runtime:
    container: Container
    kind: ProcessKind = ProcessKind.API
    tasks: list[asyncio.Task[None]] = field(default_factory=list)
    follower: ClusterFollower | None = None

    async def aclose(self) -> None:
        for task in self.tasks:
            task.cancel()
        for task in self.tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for port in self.container.clusters.all():
            close = getattr(port, "close", None)
            if close is not None:
                await close()


async def start_runtime(container: Container, kind: ProcessKind = ProcessKind.API) -> Runtime:
    runtime = Runtime(container, kind)
    # other processes' changes to catalog objects and scope names reach this process's cache
    runtime.tasks.append(asyncio.create_task(container.uow.references.follow(container.events)))
    if kind is ProcessKind.API:
        # other processes' changes to users reach this process's actor cache
        runtime.tasks.append(asyncio.create_task(container.actors.follow(container.events)))
    if container.settings.use_simulated_cluster:
        await start_simulated_cluster(container, runtime)
    await follow_kubernetes_clusters(container, runtime, read_inventory=kind is ProcessKind.API)
    return runtime


async def follow_kubernetes_clusters(container: Container, runtime: Runtime, *, read_inventory: bool) -> None:
    """An adapter for every registered Kubernetes cluster now, and from then on for every one
    registered, changed or removed (see infra.clusters.follower)."""
    from infra.clusters.follower import ClusterFollower

    follower = ClusterFollower(
        container, interval=container.settings.cluster_follow_seconds, read_inventory=read_inventory
    )
    await follower.sync()
    runtime.follower = follower
    runtime.tasks.append(asyncio.create_task(follower.run(), name="gshare-cluster-follower"))


async def start_simulated_cluster(container: Container, runtime: Runtime) -> None:
    """This process's adapter of the deployment's one simulated cluster (infra.cluster.shared):
    every process drives the same cluster through the database, and one of them hosts it."""
    from infra.cluster.shared import SharedSimulatedCluster
    from infra.cluster.simulated import DEMO_INVENTORY_PATH, load_inventory_yaml

    async def write(reports: Sequence[StatusReport]) -> None:
        await sessions.handle_status_reports(container.sessions, cluster.cluster_id, reports)

    settings = container.settings
    cluster = SharedSimulatedCluster(
        container.engine,
        container.events,
        load_inventory_yaml(settings.cluster_inventory or DEMO_INVENTORY_PATH),
        write,
        poll=settings.simulated_host_poll_seconds,
        start_delay=settings.simulated_start_delay,
        base_url=settings.own_origin() + "/s",
        job_seconds=settings.simulated_job_seconds,
    )
    if runtime.kind is ProcessKind.API:
        await register_cluster_inventory(container, cluster, kind="simulated")
    container.clusters.add(cluster)
    await cluster.start()
    runtime.tasks.append(asyncio.create_task(_sample_usage(container, cluster)))


async def register_cluster_inventory(container: Container, cluster: object, *, kind: str) -> None:
    """Write a cluster's reported inventory to the database and admit what now fits."""
    inventory = await cluster.read_inventory()  # type: ignore[attr-defined]
    async with container.uow() as uow:
        for c in inventory.clusters:
            await uow.capacity.put_cluster(c, kind)
        for c in inventory.clusters:
            await uow.capacity.replace_nodes(c.id, inventory.nodes_of(c.id))
        uow.publish_after_commit(sessions.CAPACITY_TOPIC, {"reason": "inventory"})
        await uow.commit()
    await sessions.drain_queue(container.sessions)


async def _sample_usage(container: Container, cluster: object) -> None:
    stream = cluster.usage_stream(1.0)  # type: ignore[attr-defined]
    async for samples in stream:
        try:
            await record_usage(container.usage, container.events, samples)
        except Exception:
            log.exception("%d usage samples not recorded", len(samples))

"""What runs beside the API in a serving process: the cluster adapters (the simulated cluster
in the embedded default, with its inventory registered in the database) and the usage
sampler feeding the UsageStore and live subscriptions, and the actor cache following other
processes' changes to users."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field

from domain.inventory.ports import StatusReport
from domain.sessions import services as sessions
from infra.bootstrap import Container
from infra.usage import record_usage, usage_topic

__all__ = ["Runtime", "start_runtime", "usage_topic"]

log = logging.getLogger(__name__)


@dataclass
class Runtime:
    container: Container
    tasks: list[asyncio.Task[None]] = field(default_factory=list)

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


async def start_runtime(container: Container) -> Runtime:
    runtime = Runtime(container)
    # other processes' changes to users reach this process's actor cache
    runtime.tasks.append(asyncio.create_task(container.actors.follow(container.events)))
    if container.settings.use_simulated_cluster:
        await start_simulated_cluster(container, runtime)
    await start_kubernetes_clusters(container)
    return runtime


async def start_kubernetes_clusters(container: Container) -> None:
    """An adapter for every registered Kubernetes cluster (see infra.clusters.wiring)."""
    from infra.clusters.wiring import start_kubernetes_clusters as connect_all

    await connect_all(container)


async def start_simulated_cluster(container: Container, runtime: Runtime) -> None:
    from infra.cluster.simulated import SimulatedCluster
    from infra.coalesce import Coalescer

    async def write(reports: Sequence[StatusReport]) -> None:
        await sessions.handle_status_reports(container.sessions, cluster.cluster_id, reports)

    batcher: Coalescer[StatusReport] = Coalescer(write)

    async def on_status(report: StatusReport) -> None:
        try:
            await batcher.submit(report)
        except Exception:
            log.exception("status report for %s failed", report.session_id)

    settings = container.settings
    kwargs = {
        "start_delay": settings.simulated_start_delay,
        "base_url": settings.own_origin() + "/s",
        "job_seconds": settings.simulated_job_seconds,
    }
    if settings.cluster_inventory:
        cluster = SimulatedCluster.from_yaml(settings.cluster_inventory, on_status, **kwargs)
    else:
        cluster = SimulatedCluster.demo(on_status, **kwargs)
    await register_cluster_inventory(container, cluster, kind="simulated")
    container.clusters.add(cluster)
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

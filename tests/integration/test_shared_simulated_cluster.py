"""The shared simulated cluster (infra.cluster.shared) on PostgreSQL, two "processes" in one
test: two adapters of the same cluster, each with its own in-process event bus (no Redis: the
host finds the other's requests by polling). One hosts; requests through either reach the one
simulation; status comes from the host only; a host gone hands the cluster to the other with
its running workloads; claims and their quota are one set; a report whose effects call the
cluster again (a drain handing a session off) does not wait for itself."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

import pytest
import yaml

from domain.inventory.ports import StatusReport, VolumeClaimSpec, WorkloadPhase, WorkloadSpec
from infra.cluster.shared import SharedSimulatedCluster, spec_from_json, spec_to_json
from infra.cluster.simulated import inventory_from_data
from infra.events import InProcessEventBus

P = WorkloadPhase


class Reports:
    def __init__(self) -> None:
        self.seen: list[StatusReport] = []
        self.then: Callable[[StatusReport], Awaitable[None]] | None = None

    async def __call__(self, reports: Sequence[StatusReport]) -> None:
        self.seen.extend(reports)
        for r in reports:
            if self.then is not None:
                await self.then(r)

    def phases(self, sid: UUID) -> list[WorkloadPhase]:
        return [r.phase for r in self.seen if r.session_id == sid]


async def until(check: Callable[[], bool], within: float = 5.0) -> None:
    deadline = time.monotonic() + within
    while not check():
        assert time.monotonic() < deadline, "not within the time"
        await asyncio.sleep(0.02)


def spec(**kw: object) -> WorkloadSpec:
    return WorkloadSpec(
        session_id=uuid4(), owner="ada", image="jupyter/base", cpu_millicores=1000, memory_mib=1024, **kw
    )  # type: ignore[arg-type]


@pytest.fixture
def cluster_id() -> str:
    return f"shared-{uuid4().hex[:8]}"  # a cluster of its own on the run's database


@pytest.fixture
async def pair(engine: object, cluster_id: str) -> AsyncIterator[tuple[SharedSimulatedCluster, ...]]:
    inventory = inventory_from_data(
        {
            "clusters": [{"id": cluster_id, "name": "shared", "placement_policy": "best-fit"}],
            "nodes": [
                {
                    "id": "cpu-1",
                    "cluster_id": cluster_id,
                    "sharing_mode": "exclusive",
                    "cpu_millicores": 64000,
                    "memory_mib": 65536,
                }
            ],
        }
    )
    made = []
    for _ in range(2):
        made.append(
            SharedSimulatedCluster(
                engine,  # type: ignore[arg-type]
                InProcessEventBus(),
                inventory,
                Reports(),
                poll=0.05,
                start_delay=0.05,
                job_seconds=0.2,
            )
        )
    yield tuple(made)
    for c in made:
        await c.close()


def reports_of(c: SharedSimulatedCluster) -> Reports:
    return c._on_reports  # type: ignore[return-value]


async def test_requests_through_the_other_process_reach_the_one_host(pair: tuple[SharedSimulatedCluster, ...]) -> None:
    a, b = pair
    await a.start()
    await b.start()
    assert a.hosting and not b.hosting
    s = spec()
    await b.apply(s)
    await until(lambda: P.RUNNING in reports_of(a).phases(s.session_id))
    await b.apply(s)  # applied already: nothing new
    await b.pause(s.session_id)
    await until(lambda: P.STOPPED in reports_of(a).phases(s.session_id))
    assert reports_of(a).phases(s.session_id) == [P.STARTING, P.RUNNING, P.STOPPED]
    assert reports_of(b).seen == []  # status comes from the host only
    await b.apply(s)  # resume: runs again
    await until(lambda: reports_of(a).phases(s.session_id).count(P.RUNNING) == 2)
    await b.delete(s.session_id)
    await until(lambda: reports_of(a).phases(s.session_id).count(P.STOPPED) == 2)
    assert a.pod(s.session_id) is None


async def test_several_workloads_applied_in_one_call_through_either_process(
    pair: tuple[SharedSimulatedCluster, ...],
) -> None:
    """What a batch of admissions hands off together (issue 19): one write for all, each
    workload then as if applied alone; applied again, nothing new."""
    a, b = pair
    await a.start()
    await b.start()
    hosted, remote = [spec(), spec(), spec()], [spec(), spec()]
    assert await a.apply_many(hosted) == [None, None, None]
    assert await b.apply_many(remote) == [None, None]
    for s in hosted + remote:
        await until(lambda s=s: P.RUNNING in reports_of(a).phases(s.session_id))  # type: ignore[misc]
    assert await a.apply_many(hosted[:2]) == [None, None]  # applied already: nothing to do
    assert await b.apply_many(remote) == [None, None]
    await b.pause(remote[0].session_id)
    await until(lambda: P.STOPPED in reports_of(a).phases(remote[0].session_id))
    assert await b.apply_many(remote) == [None, None]  # the paused one runs again, the other is left
    await until(lambda: reports_of(a).phases(remote[0].session_id).count(P.RUNNING) == 2)
    for s in hosted + remote:
        want = [P.STARTING, P.RUNNING] + ([P.STOPPED, P.STARTING, P.RUNNING] if s is remote[0] else [])
        assert reports_of(a).phases(s.session_id) == want
    assert reports_of(b).seen == []
    assert await a.apply_many([]) == []


async def test_the_other_process_takes_over_with_what_ran(pair: tuple[SharedSimulatedCluster, ...]) -> None:
    a, b = pair
    await a.start()
    await b.start()
    running, starting = spec(), spec()
    await a.apply(running)
    await until(lambda: P.RUNNING in reports_of(a).phases(running.session_id))
    await a.close()  # the host goes; its rows stay
    await b.apply(starting)
    await until(lambda: b.hosting, within=2)
    await until(lambda: P.RUNNING in reports_of(b).phases(starting.session_id))
    pod = b.pod(running.session_id)
    assert pod is not None and pod.phase is P.RUNNING
    assert reports_of(b).phases(running.session_id) == []  # carried on, not reported again
    await b.pause(running.session_id)
    await until(lambda: P.STOPPED in reports_of(b).phases(running.session_id))


async def test_a_pause_the_dead_host_did_not_report_is_reported_by_the_next(
    pair: tuple[SharedSimulatedCluster, ...],
) -> None:
    a, b = pair
    await a.start()
    s = spec()
    await a.apply(s)
    await until(lambda: P.RUNNING in reports_of(a).phases(s.session_id))
    await a.close()
    await b.pause(s.session_id)  # nobody hosts: the request waits in its row
    await b.start()
    await until(lambda: P.STOPPED in reports_of(b).phases(s.session_id))


async def test_claims_and_their_quota_are_one_set(pair: tuple[SharedSimulatedCluster, ...]) -> None:
    a, b = pair
    claim = VolumeClaimSpec("v1", f"vol-{uuid4().hex[:6]}", "nfs", 600, "ReadWriteOnce")
    other = VolumeClaimSpec("v2", f"vol-{uuid4().hex[:6]}", "nfs", 600, "ReadWriteOnce")
    assert await a.apply_volume(claim, 1000) == "Bound"
    assert await b.apply_volume(claim, 1000) == "Bound"  # the same claim again
    with pytest.raises(RuntimeError, match="exceeded quota"):
        await b.apply_volume(other, 1000)
    await b.delete_volume(claim.claim_name)
    assert await a.apply_volume(other, 1000) == "Bound"


async def test_a_report_whose_effects_call_the_cluster_does_not_wait_for_itself(
    pair: tuple[SharedSimulatedCluster, ...],
) -> None:
    a, _ = pair
    await a.start()
    first, admitted = spec(), spec()

    async def drain(report: StatusReport) -> None:  # a stop frees room: the drain hands the next off
        if report.session_id == first.session_id and report.phase is P.STOPPED:
            await a.apply(admitted)

    reports_of(a).then = drain
    await a.apply(first)
    await until(lambda: P.RUNNING in reports_of(a).phases(first.session_id))
    await asyncio.wait_for(a.pause(first.session_id), 5)
    await until(lambda: P.RUNNING in reports_of(a).phases(admitted.session_id))


async def test_a_job_log_is_read_through_the_other_process(pair: tuple[SharedSimulatedCluster, ...]) -> None:
    a, b = pair
    await a.start()
    job = spec(is_job=True, command=("sh", "-c", "exit 3"))
    await b.apply(job)
    await until(lambda: P.FAILED in reports_of(a).phases(job.session_id))
    tail = await b.log_tail(job.session_id, 5)
    assert tail is not None and "exited with code 3" in tail


def test_the_spec_survives_its_row() -> None:
    s = spec(command=("python",), args=("train.py",), env={"A": "1"}, is_job=True, backoff_limit=2, disk_gib=5)
    assert spec_from_json(spec_to_json(s)) == s


async def test_a_start_the_host_did_not_finish_is_finished_by_the_next(
    pair: tuple[SharedSimulatedCluster, ...],
) -> None:
    a, b = pair
    a._simulation["start_delay"] = 30  # the host is gone long before its pod would run
    await a.start()
    s = spec()
    await a.apply(s)  # the host writes the row as acted on and starts the pod ...
    await a.close()  # ... and is gone before it ran
    assert P.RUNNING not in reports_of(a).phases(s.session_id)
    await b.start()
    await until(lambda: P.RUNNING in reports_of(b).phases(s.session_id))


async def test_a_worker_holds_the_shared_cluster_too(database_url: str, cluster_id: str, tmp_path: Path) -> None:
    """`gshare worker` (idle pauses, expiry, the queue drain) reaches the same cluster; before, a
    worker held no adapter for the simulated cluster at all."""
    from infra.bootstrap import build_container
    from infra.runtime import ProcessKind, start_runtime
    from infra.settings import Settings

    inventory = tmp_path / "inventory.yaml"
    inventory.write_text(
        yaml.safe_dump(
            {
                "clusters": [{"id": cluster_id, "name": "shared", "placement_policy": "best-fit"}],
                "nodes": [
                    {
                        "id": "n1",
                        "cluster_id": cluster_id,
                        "sharing_mode": "exclusive",
                        "cpu_millicores": 8000,
                        "memory_mib": 8192,
                    }
                ],
            }
        )
    )
    settings = Settings(database_url=database_url, demo=False, simulated_cluster=True, cluster_inventory=inventory)
    c = build_container(settings, database_url)
    try:
        runtime = await start_runtime(c, ProcessKind.WORKER)
        try:
            port = c.clusters.get(cluster_id)
            assert isinstance(port, SharedSimulatedCluster) and port.hosting
        finally:
            await runtime.aclose()
    finally:
        await c.aclose()


class BusAway(InProcessEventBus):
    """Redis gone: nothing is announced, no subscription opens."""

    async def publish(self, topic: str, payload: dict[str, object]) -> None:
        raise ConnectionError("redis away")

    def subscribe(self, *topics: str) -> Any:
        raise ConnectionError("redis away")


async def test_the_host_keeps_hosting_without_the_event_bus(
    engine: object, cluster_id: str, caplog: pytest.LogCaptureFixture
) -> None:
    inventory = inventory_from_data(
        {
            "clusters": [{"id": cluster_id, "name": "shared", "placement_policy": "best-fit"}],
            "nodes": [
                {
                    "id": "n1",
                    "cluster_id": cluster_id,
                    "sharing_mode": "exclusive",
                    "cpu_millicores": 8000,
                    "memory_mib": 8192,
                }
            ],
        }
    )
    a, b = (
        SharedSimulatedCluster(engine, BusAway(), inventory, Reports(), poll=0.05, start_delay=0.05)  # type: ignore[arg-type]
        for _ in range(2)
    )
    caplog.set_level(logging.INFO, logger="infra.cluster.shared")
    try:
        await a.start()
        await b.start()
        s = spec()
        await b.apply(s)  # not announced: the host's poll finds it
        await until(lambda: P.RUNNING in reports_of(a).phases(s.session_id))
        await asyncio.sleep(0.5)
        assert a.hosting and not b.hosting
        assert sum("hosts the simulated cluster" in r.getMessage() for r in caplog.records) == 1  # no flapping
    finally:
        await a.close()
        await b.close()

"""The simulated cluster honours the ClusterPort contract: status through the injected
callback, only what was applied, idempotent calls, plausible usage."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from uuid import UUID, uuid4

import pytest

from domain.common.clock import FrozenClock
from domain.inventory.ports import (
    ClusterPort,
    Endpoint,
    StatusReport,
    VolumeMount,
    WorkloadPhase,
    WorkloadSpec,
)
from domain.scheduling.model import GpuRequest
from domain.scheduling.scheduler import Scheduler
from infra.cluster.simulated import USAGE_CHUNK, SimulatedCluster, load_inventory_yaml, paced_usage


class Recorder:
    def __init__(self) -> None:
        self.reports: list[StatusReport] = []
        self.changed = asyncio.Event()

    async def __call__(self, report: StatusReport) -> None:
        self.reports.append(report)
        self.changed.set()

    def phases(self, session_id: UUID) -> list[WorkloadPhase]:
        return [r.phase for r in self.reports if r.session_id == session_id]

    async def wait_for(self, session_id: UUID, phase: WorkloadPhase, within: float = 2.0) -> None:
        async def until() -> None:
            while phase not in self.phases(session_id):
                self.changed.clear()
                await self.changed.wait()

        await asyncio.wait_for(until(), within)


def spec_for(cluster: SimulatedCluster, request: GpuRequest | None = None) -> WorkloadSpec:
    placement = None
    if request is not None:
        inventory = load_inventory_yaml()
        allocation = Scheduler(inventory).place(request)
        assert allocation is not None
        placement = allocation.placement
    return WorkloadSpec(
        session_id=uuid4(),
        owner="alice",
        image="jupyter/base:cuda12",
        cpu_millicores=2000,
        memory_mib=8192,
        placement=placement,
        env={"GSHARE": "1"},
        volumes=(VolumeMount("v1", "home-alice", "/home/alice", read_only=False),),
        endpoints=(Endpoint("jupyterlab", 8888), Endpoint("ssh", 2222, "ssh")),
    )


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
async def cluster(recorder: Recorder) -> SimulatedCluster:
    sim = SimulatedCluster.demo(recorder, start_delay=0.01, clock=FrozenClock())
    yield sim  # type: ignore[misc]
    await sim.close()


async def test_it_is_a_cluster_port(cluster: SimulatedCluster) -> None:
    port: ClusterPort = cluster
    inventory = await port.read_inventory()
    assert port.cluster_id == "demo"
    assert {n.id for n in inventory.nodes} >= {"hami-a100-1", "h100-mig-1", "a30-ts-1", "cpu-1"}


async def test_applied_workloads_start_then_run(cluster: SimulatedCluster, recorder: Recorder) -> None:
    spec = spec_for(cluster, GpuRequest("w", "A100-80GB", vram_mib=20480, cores=25))
    await cluster.apply(spec)
    await recorder.wait_for(spec.session_id, WorkloadPhase.RUNNING)
    assert recorder.phases(spec.session_id) == [WorkloadPhase.STARTING, WorkloadPhase.RUNNING]
    running = recorder.reports[-1]
    assert spec.placement is not None and running.node_id == spec.placement.node_id
    assert {e.name for e in running.endpoints} == {"jupyterlab", "ssh"}
    assert any(e.url.startswith("ssh://") for e in running.endpoints)


async def test_applying_twice_is_harmless(cluster: SimulatedCluster, recorder: Recorder) -> None:
    spec = spec_for(cluster)
    await cluster.apply(spec)
    await cluster.apply(spec)
    await recorder.wait_for(spec.session_id, WorkloadPhase.RUNNING)
    assert recorder.phases(spec.session_id).count(WorkloadPhase.RUNNING) == 1
    assert len(cluster.pods()) == 1
    assert cluster.pod(spec.session_id) is not None
    assert cluster.pod(spec.session_id).node_id == "cpu-1"  # type: ignore[union-attr]


async def test_pause_and_delete_report_stopped(cluster: SimulatedCluster, recorder: Recorder) -> None:
    paused, deleted = spec_for(cluster), spec_for(cluster)
    await cluster.apply(paused)
    await cluster.apply(deleted)
    await recorder.wait_for(paused.session_id, WorkloadPhase.RUNNING)
    await recorder.wait_for(deleted.session_id, WorkloadPhase.RUNNING)
    await cluster.pause(paused.session_id)
    await cluster.delete(deleted.session_id)
    assert recorder.phases(paused.session_id)[-1] is WorkloadPhase.STOPPED
    assert recorder.phases(deleted.session_id)[-1] is WorkloadPhase.STOPPED
    assert cluster.pod(deleted.session_id) is None
    await cluster.pause(paused.session_id)  # idempotent
    assert recorder.phases(paused.session_id).count(WorkloadPhase.STOPPED) == 1


async def test_stopping_before_it_runs_never_reports_running(recorder: Recorder) -> None:
    slow = SimulatedCluster.demo(recorder, start_delay=5)
    spec = spec_for(slow)
    await slow.apply(spec)
    await recorder.wait_for(spec.session_id, WorkloadPhase.STARTING)
    await slow.delete(spec.session_id)
    assert recorder.phases(spec.session_id) == [WorkloadPhase.STARTING, WorkloadPhase.STOPPED]
    await slow.close()


async def test_it_only_reports_what_was_applied(cluster: SimulatedCluster, recorder: Recorder) -> None:
    stranger = uuid4()
    await cluster.delete(stranger)
    await cluster.pause(stranger)
    assert recorder.reports == []
    assert cluster.sample(stranger) is None


async def test_a_placement_on_a_foreign_node_fails_honestly(cluster: SimulatedCluster, recorder: Recorder) -> None:
    spec = spec_for(cluster, GpuRequest("w", "A100-80GB", exclusive_cards=1))
    assert spec.placement is not None
    bad = replace(spec, placement=replace(spec.placement, node_id="nowhere"))
    await cluster.apply(bad)
    assert recorder.phases(bad.session_id) == [WorkloadPhase.FAILED]
    assert "nowhere" in recorder.reports[-1].message


async def test_usage_samples_are_plausible(recorder: Recorder) -> None:
    clock = FrozenClock()
    sim = SimulatedCluster.demo(recorder, start_delay=0, clock=clock)
    spec = spec_for(sim, GpuRequest("w", "A100-80GB", vram_mib=20480, cores=25))
    await sim.apply(spec)
    await recorder.wait_for(spec.session_id, WorkloadPhase.RUNNING)
    clock.advance(30)
    sample = sim.sample(spec.session_id)
    assert sample is not None
    assert 0 < sample.cpu_millicores <= spec.cpu_millicores
    assert 0 < sample.memory_mib <= spec.memory_mib
    assert 0 < sample.gpu_memory_mib <= 20480
    assert 0 <= sample.gpu_util_percent <= 100
    assert sim.samples() == [sample]
    stream = sim.usage_stream(interval=0)
    assert await anext(stream) == [sample]
    await stream.aclose()
    await sim.delete(spec.session_id)
    assert sim.samples() == []
    await sim.close()


async def test_usage_is_streamed_in_chunks_with_the_loop_free_between_them(recorder: Recorder) -> None:
    """2,900 workloads sampled in one go held the server's loop for ~110 ms a second (issue 19):
    the stream hands them out USAGE_CHUNK at a time and other tasks run between two chunks;
    together the chunks are one sample of each running workload, as `samples()`."""
    clock = FrozenClock()
    sim = SimulatedCluster.demo(recorder, start_delay=0, clock=clock)
    base = spec_for(sim, GpuRequest("w", "A100-80GB", vram_mib=20480, cores=25))
    running = 2 * USAGE_CHUNK + 7
    for _ in range(running):
        sim.adopt(replace(base, session_id=uuid4()), WorkloadPhase.RUNNING, node_id="n1", started_at=clock.now())
    sim.adopt(replace(base, session_id=uuid4()), WorkloadPhase.STOPPED, node_id="n1")  # no sample
    clock.advance(30)
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0)

    other = asyncio.create_task(ticker())
    stream = sim.usage_stream(interval=60)
    chunks, seen = [], []
    for _ in range(3):
        chunks.append(await anext(stream))
        seen.append(ticks)
    await stream.aclose()
    other.cancel()
    assert [len(c) for c in chunks] == [USAGE_CHUNK, USAGE_CHUNK, 7]
    assert seen[0] < seen[1] < seen[2]  # the other task ran between two chunks
    assert sorted((s for c in chunks for s in c), key=lambda s: str(s.session_id)) == sorted(
        sim.samples(), key=lambda s: str(s.session_id)
    )
    await sim.close()


async def test_a_pass_with_nothing_running_is_heard_as_no_samples_each_interval(recorder: Recorder) -> None:
    stream = paced_usage(lambda: (), interval=0.01)
    assert [await anext(stream) for _ in range(3)] == [[], [], []]
    await stream.aclose()

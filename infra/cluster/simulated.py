"""The simulated cluster: an in-process `ClusterPort` for the embedded default, demos and tests.

Inventory comes from a YAML file (the built-in demo by default). Applied workloads "start"
after a short, configurable delay on asyncio tasks and report Starting, then Running, through
the injected status callback, the same path the Kubernetes operator's callbacks take; pause
and delete report Stopped. It is honest: it only ever reports workloads applied to it, and
its usage samples are plausible values derived from what each workload asked for.

A batch job cannot run its image here: a simulated job runs for `job_seconds`, writes one log
line a second, and exits with the code its command names last (`exit <n>` anywhere in the
command and arguments, e.g. `sh -c "python train.py; exit 3"`), or 0; it is retried up to its
back-off limit, then reported Succeeded or Failed with the exit code and the log's last lines.
Every log line says it is simulated.

Volumes: a simulated cluster has no storage (nothing is written anywhere). It keeps the claims
applied to it, answers `Bound` at once, and refuses a claim that would take the total past the
storage quota, as the namespace's ResourceQuota does on Kubernetes.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import re
import struct
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any
from uuid import UUID

import yaml

from domain.common.clock import Clock, SystemClock
from domain.inventory.model import Inventory
from domain.inventory.ports import (
    EndpointUrl,
    StatusCallback,
    StatusReport,
    UsageSample,
    VolumeClaimSpec,
    WorkloadPhase,
    WorkloadSpec,
)

log = logging.getLogger(__name__)

DEMO_INVENTORY_PATH = Path(__file__).with_name("demo_inventory.yaml")


def _expand_node(raw: Mapping[str, Any]) -> dict[str, Any]:
    node = dict(raw)
    node_id = str(node["id"])
    cards: list[dict[str, Any]] = [dict(c) for c in node.pop("cards", [])]
    gpus = node.pop("gpus", None)
    if gpus is not None:
        spec = dict(gpus)
        count = int(spec.pop("count", 1))
        cards.extend(dict(spec) for _ in range(count))
    expanded = []
    for i, card in enumerate(cards):
        card.setdefault("uuid", f"GPU-{node_id}-{i}")
        profiles = card.pop("mig", None)
        if profiles:
            card["mig_instances"] = [
                {"id": f"MIG-{node_id}-{i}-{j}", "profile": str(p)} for j, p in enumerate(profiles)
            ]
        expanded.append(card)
    node["cards"] = expanded
    return node


def inventory_from_data(data: Mapping[str, Any]) -> Inventory:
    """Build an inventory from parsed YAML (with the `gpus:` / `mig:` shorthands)."""
    return Inventory.from_dict(
        {
            "clusters": list(data.get("clusters", [])),
            "nodes": [_expand_node(n) for n in data.get("nodes", [])],
        }
    )


def load_inventory_yaml(path: Path | str = DEMO_INVENTORY_PATH) -> Inventory:
    with open(path, encoding="utf-8") as fh:
        data = yaml.safe_load(fh) or {}
    return inventory_from_data(data)


@dataclass
class SimulatedPod:
    spec: WorkloadSpec
    node_id: str | None
    phase: WorkloadPhase
    started_at: datetime | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)
    log: list[str] = field(default_factory=list)
    exit_code: int | None = None
    sample_key: bytes | None = field(default=None, repr=False)  # the seed and the pod, for its samples' hash


# the workloads sampled in one go, the event loop free between two chunks: at ~40 µs a workload
# (its sample and its recording), 2,900 workloads sampled at once held the server's loop for
# ~110 ms every second, and every request in flight waited that long (issue 19)
USAGE_CHUNK = 100
_FOUR_WORDS = struct.Struct(">4I")


async def paced_usage(
    chunks: Callable[[], Iterable[list[UsageSample]]], interval: float = 1.0
) -> AsyncIterator[list[UsageSample]]:
    """Every `interval` seconds (from one pass's start to the next's), each chunk of `chunks()`,
    the event loop running what waits between two chunks (the consumer records a chunk before
    the next is drawn); `[]` for a pass with nothing running, so a consumer still hears every
    pass. A pass longer than `interval` is followed by the next at once."""
    loop = asyncio.get_running_loop()
    due = loop.time()
    while True:
        empty = True
        for part in chunks():
            empty = False
            yield part
            await asyncio.sleep(0)
        if empty:
            yield []
        due = max(due + interval, loop.time())
        await asyncio.sleep(due - loop.time())


class SimulatedCluster:
    """One cluster of a (possibly multi-cluster) inventory, simulated in-process."""

    def __init__(
        self,
        inventory: Inventory,
        on_status: StatusCallback,
        *,
        cluster_id: str | None = None,
        clock: Clock | None = None,
        start_delay: float = 0.5,
        base_url: str = "http://localhost:8000/sessions",
        seed: int = 0,
        job_seconds: float = 30.0,
    ) -> None:
        if cluster_id is None:
            cluster_id = inventory.clusters[0].id
        inventory.cluster(cluster_id)  # refuses an unknown cluster
        self._cluster_id = cluster_id
        self._inventory = Inventory(
            tuple(c for c in inventory.clusters if c.id == cluster_id),
            inventory.nodes_of(cluster_id),
        )
        self._on_status = on_status
        self._clock = clock or SystemClock()
        self._start_delay = start_delay
        self._base_url = base_url.rstrip("/")
        self._seed = seed
        self._job_seconds = job_seconds
        self._pods: dict[UUID, SimulatedPod] = {}
        self.claims: dict[str, VolumeClaimSpec] = {}

    @classmethod
    def from_yaml(cls, path: Path | str, on_status: StatusCallback, **kwargs: Any) -> SimulatedCluster:
        return cls(load_inventory_yaml(path), on_status, **kwargs)

    @classmethod
    def demo(cls, on_status: StatusCallback, **kwargs: Any) -> SimulatedCluster:
        return cls(load_inventory_yaml(DEMO_INVENTORY_PATH), on_status, **kwargs)

    @property
    def cluster_id(self) -> str:
        return self._cluster_id

    # -- ClusterPort ----------------------------------------------------------------------

    async def apply(self, spec: WorkloadSpec) -> None:
        existing = self._pods.get(spec.session_id)
        if existing is not None and existing.phase in (
            WorkloadPhase.SCHEDULED,
            WorkloadPhase.STARTING,
            WorkloadPhase.RUNNING,
        ):
            return  # idempotent: already applied
        node_id, problem = self._node_for(spec)
        pod = SimulatedPod(spec, node_id, WorkloadPhase.SCHEDULED)
        self._pods[spec.session_id] = pod
        if problem is not None:
            pod.phase = WorkloadPhase.FAILED
            await self._report(pod, problem)
            return
        pod.task = asyncio.create_task(self._start(pod), name=f"sim-start-{spec.session_id}")

    async def pause(self, session_id: UUID) -> None:
        await self._stop(session_id, "paused: pod removed, volumes kept")

    async def delete(self, session_id: UUID) -> None:
        await self._stop(session_id, "deleted")
        self._pods.pop(session_id, None)

    async def read_inventory(self) -> Inventory:
        return self._inventory

    async def cordon(self, node_name: str, cordoned: bool) -> None:
        """As `kubectl cordon`: the node's next inventory says it takes no new pods (or takes
        them again); what runs there stays."""
        if not any(n.name == node_name for n in self._inventory.nodes):
            raise RuntimeError(f"node {node_name} is not in cluster {self._cluster_id}")
        self._inventory = replace(
            self._inventory,
            nodes=tuple(replace(n, cordoned=cordoned) if n.name == node_name else n for n in self._inventory.nodes),
        )

    async def apply_volume(self, claim: VolumeClaimSpec, storage_quota_mib: int | None) -> str | None:
        if claim.claim_name not in self.claims:
            asked = sum(c.size_mib for c in self.claims.values()) + claim.size_mib
            if storage_quota_mib is not None and asked > storage_quota_mib:
                raise RuntimeError(
                    f"exceeded quota: requested storage {asked}Mi, limited {storage_quota_mib}Mi (simulated)"
                )
            self.claims[claim.claim_name] = claim
        return "Bound"

    async def delete_volume(self, claim_name: str) -> None:
        self.claims.pop(claim_name, None)

    async def delete_pull_secret(self, name: str) -> None:
        """A simulated cluster pulls no image and keeps no pull secret."""

    async def log_tail(self, session_id: UUID, lines: int) -> str | None:
        pod = self._pods.get(session_id)
        if pod is None or not pod.log:
            return None
        return "\n".join(pod.log[-lines:])

    # -- beyond the port: what the simulation knows ----------------------------------------

    def adopt(
        self,
        spec: WorkloadSpec,
        phase: WorkloadPhase,
        *,
        node_id: str | None,
        started_at: datetime | None = None,
        log: list[str] | None = None,
        exit_code: int | None = None,
    ) -> SimulatedPod:
        """Carry on with a workload another process's simulation ran (the shared cluster taken
        over from a dead host): it is in `phase` already, so nothing is reported; a running job
        runs again from its first attempt."""
        pod = SimulatedPod(spec, node_id, phase, started_at, log=list(log or []), exit_code=exit_code)
        self._pods[spec.session_id] = pod
        if phase is WorkloadPhase.RUNNING and spec.is_job:
            pod.task = asyncio.create_task(self._run_job(pod), name=f"sim-job-{spec.session_id}")
        return pod

    def pods(self) -> list[SimulatedPod]:
        return list(self._pods.values())

    def pod(self, session_id: UUID) -> SimulatedPod | None:
        return self._pods.get(session_id)

    def sample(self, session_id: UUID, now: datetime | None = None) -> UsageSample | None:
        """A plausible usage sample for a running workload (None if it is not running)."""
        pod = self._pods.get(session_id)
        if pod is None or pod.phase is not WorkloadPhase.RUNNING:
            return None
        if now is None:
            now = self._clock.now()
        elapsed = (now - pod.started_at).total_seconds() if pod.started_at else 0.0
        # four numbers in [0, 1) of the seed, the pod and the second: a hash, not a Random
        # (seeding a Mersenne Twister per pod per second cost more than all the rest)
        if pod.sample_key is None:
            pod.sample_key = f"{self._seed}:{session_id}:".encode()
        digest = hashlib.blake2b(pod.sample_key + str(int(elapsed)).encode(), digest_size=16).digest()
        cpu, mem, util, vram = (x / 2**32 for x in _FOUR_WORDS.unpack(digest))
        spec = pod.spec
        warm = min(1.0, 0.2 + elapsed / 120)  # memory grows for two minutes, then plateaus
        gpu_vram = spec.placement.vram_mib if spec.placement else 0
        return UsageSample(
            session_id=session_id,
            at=now,
            cpu_millicores=int(spec.cpu_millicores * (0.05 + 0.75 * cpu)),
            memory_mib=int(spec.memory_mib * warm * (0.4 + 0.3 * mem)),
            gpu_util_percent=round(10.0 + 85.0 * util, 1) if spec.placement else 0.0,
            gpu_memory_mib=int(gpu_vram * warm * (0.5 + 0.4 * vram)),
        )

    def samples(self) -> list[UsageSample]:
        """One sample per running workload (poll once a second)."""
        return [s for part in self.sample_chunks(len(self._pods) or 1) for s in part]

    def sample_chunks(self, size: int = USAGE_CHUNK) -> Iterator[list[UsageSample]]:
        """The samples of everything running now, `size` workloads at a time, each chunk drawn
        when it is asked for (a workload gone by then has none)."""
        ids = list(self._pods)
        for i in range(0, len(ids), size):
            now = self._clock.now()
            part = [s for s in (self.sample(sid, now) for sid in ids[i : i + size]) if s is not None]
            if part:
                yield part

    async def usage_stream(self, interval: float = 1.0) -> AsyncIterator[list[UsageSample]]:
        """Every `interval` seconds, the samples of everything running, in chunks (see
        `paced_usage`); ends when cancelled."""
        async for part in paced_usage(self.sample_chunks, interval):
            yield part

    async def close(self) -> None:
        """Cancel pending starts (shutdown)."""
        tasks = [p.task for p in self._pods.values() if p.task is not None and not p.task.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # -- internals ------------------------------------------------------------------------

    def _node_for(self, spec: WorkloadSpec) -> tuple[str | None, str | None]:
        nodes = {n.id: n for n in self._inventory.nodes}
        if spec.placement is not None:
            node = nodes.get(spec.placement.node_id)
            if node is None or spec.placement.cluster_id != self._cluster_id:
                return None, f"node {spec.placement.node_id} is not in cluster {self._cluster_id}"
            known = {c.uuid for c in node.cards}
            missing = [u for u in spec.placement.card_uuids if u not in known]
            if missing:
                return node.id, f"cards {', '.join(missing)} are not on node {node.id}"
            return node.id, None
        # CPU-only: the first CPU-only node with room, else any node with room
        used: dict[str, tuple[int, int]] = {}
        for pod in self._pods.values():
            if pod.node_id and pod.phase not in (WorkloadPhase.STOPPED, WorkloadPhase.FAILED, WorkloadPhase.SUCCEEDED):
                cpu, mem = used.get(pod.node_id, (0, 0))
                used[pod.node_id] = (cpu + pod.spec.cpu_millicores, mem + pod.spec.memory_mib)
        ranked = sorted(self._inventory.nodes, key=lambda n: (n.is_gpu_node, n.id))
        for node in ranked:
            cpu, mem = used.get(node.id, (0, 0))
            if (
                node.accepts_work
                and node.cpu_millicores - cpu >= spec.cpu_millicores
                and node.memory_mib - mem >= spec.memory_mib
            ):
                return node.id, None
        return None, "no node has the CPU and memory for this workload"

    async def _start(self, pod: SimulatedPod) -> None:
        pod.phase = WorkloadPhase.STARTING
        await self._report(pod, "pulling image and starting the container")
        await asyncio.sleep(self._start_delay)
        if pod.phase is not WorkloadPhase.STARTING:
            return
        pod.phase = WorkloadPhase.RUNNING
        pod.started_at = self._clock.now()
        self._say(pod, f"container started from {pod.spec.image}")
        await self._report(pod, "running")
        if pod.spec.is_job:
            await self._run_job(pod)

    def _say(self, pod: SimulatedPod, line: str) -> None:
        pod.log.append(f"[simulated] {line}")

    @staticmethod
    def job_exit_code(spec: WorkloadSpec) -> int:
        """The code a simulated job exits with: the last `exit <n>` its command names, else 0."""
        codes = re.findall(r"\bexit\s+(\d{1,3})\b", " ".join((*spec.command, *spec.args)))
        return int(codes[-1]) % 256 if codes else 0

    async def _run_job(self, pod: SimulatedPod) -> None:
        spec = pod.spec
        steps = max(1, round(self._job_seconds))
        code = self.job_exit_code(spec)
        shown = " ".join((*spec.command, *spec.args)) or "the image's entrypoint"
        for attempt in range(spec.backoff_limit + 1):
            self._say(pod, f"run {attempt + 1} of at most {spec.backoff_limit + 1}: {shown}")
            for step in range(steps):
                await asyncio.sleep(self._job_seconds / steps)
                if pod.phase is not WorkloadPhase.RUNNING:
                    return
                self._say(pod, f"working ({step + 1}/{steps})")
            self._say(pod, f"exited with code {code}")
            if code == 0:
                break
        pod.exit_code = code
        pod.phase = WorkloadPhase.SUCCEEDED if code == 0 else WorkloadPhase.FAILED
        await self._report(pod, "completed" if code == 0 else f"the job failed with exit code {code}")

    async def _stop(self, session_id: UUID, message: str) -> None:
        pod = self._pods.get(session_id)
        if pod is None or pod.phase in (WorkloadPhase.STOPPED, WorkloadPhase.FAILED, WorkloadPhase.SUCCEEDED):
            return
        if pod.task is not None and not pod.task.done():
            pod.task.cancel()
            await asyncio.gather(pod.task, return_exceptions=True)
        pod.phase = WorkloadPhase.STOPPED
        await self._report(pod, message)

    def _endpoint_urls(self, pod: SimulatedPod) -> tuple[EndpointUrl, ...]:
        if pod.phase is not WorkloadPhase.RUNNING:
            return ()
        sid = pod.spec.session_id
        return tuple(
            EndpointUrl(e.name, f"{self._base_url}/{sid}/{e.name}/")
            if e.protocol != "ssh"
            else EndpointUrl(e.name, f"ssh://{sid}@localhost:{e.port}")
            for e in pod.spec.endpoints
        )

    async def _report(self, pod: SimulatedPod, message: str) -> None:
        report = StatusReport(
            session_id=pod.spec.session_id,
            phase=pod.phase,
            observed_at=self._clock.now(),
            node_id=pod.node_id,
            endpoints=self._endpoint_urls(pod),
            message=message,
            exit_code=pod.exit_code,
            log_tail="\n".join(pod.log[-100:]) if pod.exit_code is not None else None,
        )
        try:
            await self._on_status(report)
        except Exception:
            # a failing consumer must not kill the simulation; the operator would retry too
            log.exception("status callback failed for session %s", pod.spec.session_id)

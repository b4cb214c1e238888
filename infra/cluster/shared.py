"""The simulated cluster shared by every process of a deployment (issue 21): never a private
copy per replica.

Its state lives in PostgreSQL (`simulated_workloads`, `simulated_claims`), as a Kubernetes
cluster's lives in its API server:

- every process (each `gshare serve` replica, each `gshare worker`) holds a
  `SharedSimulatedCluster` as its adapter. `apply`, `pause` and `delete` write what is wanted
  of the workload (`desired`, and a bumped `generation`) and return, as a Kubernetes adapter
  returns once its custom resource is written; volume claims and their storage quota are
  decided in the database under a transaction lock; logs are read from the table.
- exactly one process *hosts* the cluster: the holder of a PostgreSQL session advisory lock
  named after the database and the cluster. The host runs the one `SimulatedCluster` engine
  (pod start delays, jobs, usage samples), acts on every row whose `generation` it has not
  observed (woken through the event bus, and every `poll` seconds when Redis is not there to
  wake it), records each pod's phase, node and log in its row, and hands the status reports
  to the core. Workload status therefore comes from one simulation only.
- when the host dies, the server releases its lock with its connection; the next process to
  try (every `poll` seconds) takes the cluster over and carries on with what the rows say
  (a running pod keeps running and is not reported again, a starting one is started again, a
  pause or delete the dead host had not finished is reported).

A process hosting the cluster acts on its own requests before `apply`/`pause`/`delete`
return, so a single process behaves as the in-process simulation did."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from dataclasses import replace
from typing import Any, cast
from uuid import UUID

from sqlalchemy import Table, bindparam, delete, func, or_, select, text, update
from sqlalchemy.dialects.postgresql import JSONB, insert
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from domain.common.clock import Clock, SystemClock
from domain.inventory.model import Inventory, Placement
from domain.inventory.ports import (
    Endpoint,
    StatusReport,
    UsageSample,
    VolumeClaimSpec,
    VolumeMount,
    WorkloadPhase,
    WorkloadSpec,
)
from domain.ports import EventBus
from infra.cluster.simulated import SimulatedCluster, SimulatedPod, paced_usage
from infra.coalesce import Coalescer
from infra.db.models.simulated import SimulatedClaimRow, SimulatedWorkloadRow

log = logging.getLogger(__name__)

W = cast(Table, SimulatedWorkloadRow.__table__)
C = cast(Table, SimulatedClaimRow.__table__)
RUN, PAUSE, DELETE = "run", "pause", "delete"
P = WorkloadPhase
ENDED = (WorkloadPhase.STOPPED, WorkloadPhase.FAILED, WorkloadPhase.SUCCEEDED)
LOG_LINES = 100  # of a pod's log kept in its row (what log_tail answers from another process)

# the lock names the database: several deployments (or test databases) may share one server
_LOCK_KEY = "hashtextextended('gshare.simulated-cluster:' || current_database() || ':' || :cluster, 0)"


# set while this process writes the simulation's status reports: their effects (a drain handing
# a session off, a pause) call the cluster again, and must not wait for the pass that waits for them
_writing: contextvars.ContextVar[bool] = contextvars.ContextVar("gshare_simulated_writing", default=False)


def wake_topic(cluster_id: str) -> str:
    return f"simulated-cluster:{cluster_id}"


# -- the workload spec as JSON (the simulation pulls no image: a pull secret is not kept) ----


def spec_to_json(spec: WorkloadSpec) -> dict[str, Any]:
    return {
        "session_id": str(spec.session_id),
        "owner": spec.owner,
        "image": spec.image,
        "cpu_millicores": spec.cpu_millicores,
        "memory_mib": spec.memory_mib,
        "placement": spec.placement.to_dict() if spec.placement is not None else None,
        "command": list(spec.command),
        "env": dict(spec.env),
        "shm_mib": spec.shm_mib,
        "volumes": [
            {
                "volume_id": v.volume_id,
                "claim_name": v.claim_name,
                "mount_path": v.mount_path,
                "read_only": v.read_only,
                "claim": _claim_to_json(v.claim) if v.claim is not None else None,
            }
            for v in spec.volumes
        ],
        "endpoints": [{"name": e.name, "port": e.port, "protocol": e.protocol} for e in spec.endpoints],
        "is_job": spec.is_job,
        "args": list(spec.args),
        "backoff_limit": spec.backoff_limit,
        "disk_gib": spec.disk_gib,
    }


def spec_from_json(data: dict[str, Any]) -> WorkloadSpec:
    return WorkloadSpec(
        session_id=UUID(data["session_id"]),
        owner=data["owner"],
        image=data["image"],
        cpu_millicores=int(data["cpu_millicores"]),
        memory_mib=int(data["memory_mib"]),
        placement=Placement.from_dict(data["placement"]) if data.get("placement") else None,
        command=tuple(data.get("command", ())),
        env=dict(data.get("env", {})),
        shm_mib=int(data.get("shm_mib", 0)),
        volumes=tuple(
            VolumeMount(
                v["volume_id"],
                v["claim_name"],
                v["mount_path"],
                bool(v.get("read_only", False)),
                _claim_from_json(v["claim"]) if v.get("claim") else None,
            )
            for v in data.get("volumes", ())
        ),
        endpoints=tuple(
            Endpoint(e["name"], int(e["port"]), e.get("protocol", "http")) for e in data.get("endpoints", ())
        ),
        is_job=bool(data.get("is_job", False)),
        args=tuple(data.get("args", ())),
        backoff_limit=int(data.get("backoff_limit", 0)),
        disk_gib=int(data.get("disk_gib", 0)),
    )


def _claim_to_json(c: VolumeClaimSpec) -> dict[str, Any]:
    return {
        "volume_id": c.volume_id,
        "claim_name": c.claim_name,
        "storage_class": c.storage_class,
        "size_mib": c.size_mib,
        "access_mode": c.access_mode,
    }


def _claim_from_json(d: dict[str, Any]) -> VolumeClaimSpec:
    return VolumeClaimSpec(d["volume_id"], d["claim_name"], d["storage_class"], int(d["size_mib"]), d["access_mode"])


Reports = Callable[[Sequence[StatusReport]], Awaitable[object]]


def _apply_statement(hosted: bool) -> Any:
    """A workload's row, asked to run: inserted, or its generation bumped unless it was
    applied already and has not ended (as a Kubernetes apply of the same spec, nothing to
    do); `hosted`: the host acts on it before the call returns, so it is observed at once.
    Built once, executed with each call's rows (building it cost more than running it)."""
    stmt = insert(W)
    # no IN (...): an expanding list cannot be executed with many rows
    running = or_(W.c.phase.is_(None), *(W.c.phase == p.value for p in (P.SCHEDULED, P.STARTING, P.RUNNING)))
    bumped: dict[str, Any] = {"spec": stmt.excluded.spec, "desired": RUN, "generation": W.c.generation + 1}
    if hosted:
        bumped["observed"] = W.c.generation + 1
    return stmt.on_conflict_do_update(
        index_elements=[W.c.cluster_id, W.c.session_id],
        set_=bumped,
        where=~((W.c.desired == RUN) & running),
    )


_APPLY, _APPLY_HOSTED = _apply_statement(False), _apply_statement(True)
# what the host saw of each pod of a batch (each column kept where the batch says nothing)
_RECORD = (
    update(W)
    .where(
        W.c.cluster_id == bindparam("w_cluster", type_=W.c.cluster_id.type),
        W.c.session_id == bindparam("w_sid", type_=W.c.session_id.type),
    )
    .values(
        phase=func.coalesce(bindparam("w_phase", type_=W.c.phase.type), W.c.phase),
        node_id=func.coalesce(bindparam("w_node", type_=W.c.node_id.type), W.c.node_id),
        log=func.coalesce(bindparam("w_log", type_=JSONB(none_as_null=True)), W.c.log),
        started_at=func.coalesce(bindparam("w_started", type_=W.c.started_at.type), W.c.started_at),
        exit_code=func.coalesce(bindparam("w_exit", type_=W.c.exit_code.type), W.c.exit_code),
    )
)


class SharedSimulatedCluster:
    """The `ClusterPort` of one process for the deployment's one simulated cluster; hosts it
    while this process holds the cluster's lock (see the module's docstring)."""

    def __init__(
        self,
        engine: AsyncEngine,
        events: EventBus,
        inventory: Inventory,
        on_reports: Reports,
        *,
        cluster_id: str | None = None,
        clock: Clock | None = None,
        poll: float = 1.0,
        **simulation: Any,
    ) -> None:
        self._db = engine
        self._events = events
        self._inventory_all = inventory
        self._on_reports = on_reports
        self._clock = clock or SystemClock()
        self._poll = poll
        self._simulation = simulation
        self._cluster_id = cluster_id or inventory.clusters[0].id
        inventory.cluster(self._cluster_id)  # refuses an unknown cluster
        self._inventory = Inventory(
            tuple(c for c in inventory.clusters if c.id == self._cluster_id), inventory.nodes_of(self._cluster_id)
        )
        self.sim: SimulatedCluster | None = None  # the engine, while this process hosts
        # the lock's connection, of an engine of its own: the host's polls and lease checks run
        # on it (under `_lock`), apart from the requests' pool
        self._own: AsyncEngine | None = None
        self._lease: AsyncConnection | None = None
        self._lock = asyncio.Lock()
        self._asked = 0  # reconcile passes asked for / done (a pass covers every ask before it)
        self._done = 0
        self._task: asyncio.Task[None] | None = None
        self._logged: dict[UUID, int] = {}  # log lines of each pod already in its row
        self._kick = asyncio.Event()
        self._batcher: Coalescer[StatusReport] = Coalescer(self._write)

    @property
    def cluster_id(self) -> str:
        return self._cluster_id

    @property
    def hosting(self) -> bool:
        return self.sim is not None

    # -- ClusterPort ----------------------------------------------------------------------

    async def apply(self, spec: WorkloadSpec) -> None:
        failed = (await self.apply_many([spec]))[0]
        if failed is not None:
            raise failed

    async def apply_many(self, specs: Sequence[WorkloadSpec]) -> list[Exception | None]:
        """Every spec's row in one statement and one transaction (a batch of admissions hands
        its sessions off together, issue 19), then, when this process hosts, the engine acts
        on each in order."""
        if not specs:
            return []
        async with self._direct() as sim:
            observed = 1 if sim is not None else 0
            rows = [
                {
                    "cluster_id": self._cluster_id,
                    "session_id": spec.session_id,
                    "spec": spec_to_json(replace(spec, pull_secret=None)),
                    "desired": RUN,
                    "generation": 1,
                    "observed": observed,
                    "log": [],
                }
                for spec in specs
            ]
            async with self._db.begin() as conn:
                await conn.execute(_APPLY_HOSTED if sim is not None else _APPLY, rows)
            if sim is not None:
                outcomes: list[Exception | None] = []
                for spec in specs:
                    try:
                        await sim.apply(spec)  # idempotent: an unchanged row's pod runs already
                    except Exception as exc:
                        outcomes.append(exc)
                    else:
                        outcomes.append(None)
                return outcomes
        await self._wake()
        return [None] * len(specs)

    async def pause(self, session_id: UUID) -> None:
        await self._want(session_id, PAUSE, W.c.desired == RUN)

    async def delete(self, session_id: UUID) -> None:
        await self._want(session_id, DELETE, W.c.desired != DELETE)

    @contextlib.asynccontextmanager
    async def _direct(self) -> AsyncIterator[SimulatedCluster | None]:
        """The engine, when this process hosts and may act at once: the request's row is then
        written as observed and the engine acts before the call returns, under the lock passes
        take (a host dying in between leaves a row its successor's takeover acts on). None from
        a report's writing (its effects must not wait for the lock) and in other processes."""
        if self.sim is None or _writing.get():
            yield None
            return
        async with self._lock:
            yield self.sim

    async def read_inventory(self) -> Inventory:
        return self._inventory

    async def cordon(self, node_name: str, cordoned: bool) -> None:
        """As `kubectl cordon` on the simulation: this process's inventory (what it reports
        when asked) carries the flag, as does the hosting engine's; the capacity state in the
        database, which every process places from, is set by the caller."""
        if not any(n.name == node_name for n in self._inventory.nodes):
            raise RuntimeError(f"node {node_name} is not in cluster {self._cluster_id}")
        self._inventory = replace(
            self._inventory,
            nodes=tuple(replace(n, cordoned=cordoned) if n.name == node_name else n for n in self._inventory.nodes),
        )
        if self.sim is not None:
            await self.sim.cordon(node_name, cordoned)

    async def apply_volume(self, claim: VolumeClaimSpec, storage_quota_mib: int | None) -> str | None:
        async with self._db.begin() as conn:
            await conn.execute(text(f"SELECT pg_advisory_xact_lock({_LOCK_KEY} + 1)"), {"cluster": self._cluster_id})
            sizes = dict(
                (
                    await conn.execute(select(C.c.claim_name, C.c.size_mib).where(C.c.cluster_id == self._cluster_id))
                ).all()
            )
            if claim.claim_name not in sizes:
                asked = sum(sizes.values()) + claim.size_mib
                if storage_quota_mib is not None and asked > storage_quota_mib:
                    raise RuntimeError(
                        f"exceeded quota: requested storage {asked}Mi, limited {storage_quota_mib}Mi (simulated)"
                    )
                await conn.execute(
                    insert(C).values(
                        cluster_id=self._cluster_id,
                        claim_name=claim.claim_name,
                        size_mib=claim.size_mib,
                        claim=_claim_to_json(claim),
                    )
                )
        return "Bound"

    async def delete_volume(self, claim_name: str) -> None:
        async with self._db.begin() as conn:
            await conn.execute(delete(C).where(C.c.cluster_id == self._cluster_id, C.c.claim_name == claim_name))

    async def delete_pull_secret(self, name: str) -> None:
        """A simulated cluster pulls no image and keeps no pull secret."""

    async def log_tail(self, session_id: UUID, lines: int) -> str | None:
        pod = self.sim.pod(session_id) if self.sim is not None else None
        if pod is not None:
            return "\n".join(pod.log[-lines:]) if pod.log else None
        async with self._db.connect() as conn:
            stored = (
                await conn.execute(
                    select(W.c.log).where(W.c.cluster_id == self._cluster_id, W.c.session_id == session_id)
                )
            ).scalar()
        return "\n".join(stored[-lines:]) if stored else None

    # -- what the simulation knows (the hosting process's engine; nothing elsewhere) --------

    @property
    def claims(self) -> dict[str, VolumeClaimSpec]:
        return self.sim.claims if self.sim is not None else {}

    def pods(self) -> list[SimulatedPod]:
        return self.sim.pods() if self.sim is not None else []

    def pod(self, session_id: UUID) -> SimulatedPod | None:
        return self.sim.pod(session_id) if self.sim is not None else None

    def sample(self, session_id: UUID) -> UsageSample | None:
        return self.sim.sample(session_id) if self.sim is not None else None

    async def usage_stream(self, interval: float = 1.0) -> AsyncIterator[list[UsageSample]]:
        """Every `interval` seconds, the samples of what runs, while this process hosts, in
        chunks (infra.cluster.simulated.paced_usage)."""

        def chunks() -> Iterable[list[UsageSample]]:
            return self.sim.sample_chunks() if self.sim is not None else ()

        async for part in paced_usage(chunks, interval):
            yield part

    # -- hosting ------------------------------------------------------------------------------

    async def start(self) -> None:
        """Try to host at once (the first process of a deployment hosts before it serves), then
        keep trying in the background while another process hosts."""
        with contextlib.suppress(Exception):
            await self._try_to_host()
        self._task = asyncio.create_task(self._run(), name=f"gshare-simulated-{self._cluster_id}")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None
        await self._step_down()
        own, self._own = self._own, None
        if own is not None:
            await own.dispose()

    async def _run(self) -> None:
        while True:
            try:
                if self.sim is None:
                    await self._try_to_host()
                    if self.sim is None:
                        await asyncio.sleep(self._poll)
                        continue
                listener = asyncio.create_task(self._listen())
                try:
                    await self._host()
                finally:
                    listener.cancel()
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await listener
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the simulated cluster %s: the host's lock is lost; stepping down", self._cluster_id)
                await self._step_down()
                await asyncio.sleep(self._poll)

    async def _host(self) -> None:
        """Act on requests as they are announced and every `poll` seconds, while the lock holds
        (a failed pass is retried; only a lost lock ends hosting)."""
        while self.sim is not None:
            self._kick.clear()
            try:
                await self._reconcile()
                await self._flush_logs()
            except Exception:
                log.exception("the simulated cluster %s: a pass failed; retrying", self._cluster_id)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._kick.wait(), self._poll)
            await self._check_lease()

    async def _listen(self) -> None:
        """Wake the host on every announced request; without the bus (Redis away) the poll
        alone finds them."""
        while True:
            try:
                async with self._events.subscribe(wake_topic(self._cluster_id)) as wakes:
                    async for _ in wakes:
                        self._kick.set()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("the simulated cluster %s: no wake-ups from the event bus; polling", self._cluster_id)
                await asyncio.sleep(max(self._poll, 5.0))

    async def _try_to_host(self) -> None:
        if self._own is None:
            self._own = create_async_engine(self._db.url, pool_size=1, max_overflow=0)
        conn = await self._own.connect()
        try:
            got = bool(
                (
                    await conn.execute(text(f"SELECT pg_try_advisory_lock({_LOCK_KEY})"), {"cluster": self._cluster_id})
                ).scalar()
            )
            await conn.commit()
        except BaseException:
            await conn.close()
            raise
        if not got:
            await conn.close()
            return
        self._lease = conn
        self.sim = SimulatedCluster(
            self._inventory_all, self._report, cluster_id=self._cluster_id, clock=self._clock, **self._simulation
        )
        try:
            await self._take_over()
        except BaseException:
            await self._step_down()
            raise
        log.info("this process hosts the simulated cluster %s", self._cluster_id)

    async def _check_lease(self) -> None:
        """A lost lease connection lost the lock with it: another process may host now."""
        async with self._lock:
            assert self._lease is not None
            await self._lease.execute(text("SELECT 1"))
            await self._lease.commit()

    async def _step_down(self) -> None:
        sim, self.sim = self.sim, None
        if sim is not None:
            await sim.close()
            log.info("this process no longer hosts the simulated cluster %s", self._cluster_id)
        lease, self._lease = self._lease, None
        if lease is not None:
            with contextlib.suppress(Exception):
                await lease.invalidate()  # the server drops the connection, and the lock with it
            with contextlib.suppress(Exception):
                await lease.close()
        self._logged.clear()

    async def _take_over(self) -> None:
        """Carry on with what the rows say the cluster runs (a dead host's workloads)."""
        sim = self.sim
        assert sim is not None
        async with self._lock:  # no request's pass acts before the rows are adopted
            await self._adopt(sim)
        await self._reconcile()

    async def _adopt(self, sim: SimulatedCluster) -> None:
        conn = self._lease
        assert conn is not None
        rows = (await conn.execute(select(W).where(W.c.cluster_id == self._cluster_id))).all()
        await conn.commit()
        gone: list[UUID] = []
        for row in rows:
            spec = spec_from_json(row.spec)
            phase = WorkloadPhase(row.phase) if row.phase else None
            acted = row.observed == row.generation  # else the reconcile right after acts on it
            self._logged[spec.session_id] = len(row.log)
            if row.desired == RUN and phase in (None, WorkloadPhase.SCHEDULED, WorkloadPhase.STARTING):
                if acted:
                    await sim.apply(spec)  # its start was under way: start it again
                continue
            kept = {"node_id": row.node_id, "started_at": row.started_at, "log": row.log, "exit_code": row.exit_code}
            sim.adopt(spec, phase or WorkloadPhase.STARTING, **kept)
            if acted and row.desired != RUN:
                if phase not in ENDED:  # the dead host acted on it, its report was lost
                    await (sim.pause(spec.session_id) if row.desired == PAUSE else sim.delete(spec.session_id))
                if row.desired == DELETE:
                    gone.append(spec.session_id)
        if gone:
            await conn.execute(delete(W).where(W.c.cluster_id == self._cluster_id, W.c.session_id.in_(gone)))
            await conn.commit()

    async def _wake(self) -> None:
        """The request is in its row: have the host act on it (here, or through the bus)."""
        if self.sim is not None:
            try:
                await self._reconcile()
            except Exception:  # the host's loop retries the pass
                log.exception("the simulated cluster %s: a pass failed", self._cluster_id)
        else:
            try:
                await self._events.publish(wake_topic(self._cluster_id), {})
            except Exception:  # the host's poll finds the request anyway
                log.warning(
                    "could not wake the simulated cluster's host; it finds the request within %.1f s", self._poll
                )

    async def _want(self, session_id: UUID, desired: str, unless_done: Any) -> None:
        async with self._direct() as sim:
            bumped: dict[str, Any] = {"desired": desired, "generation": W.c.generation + 1}
            if sim is not None:
                bumped["observed"] = W.c.generation + 1
            where = (W.c.cluster_id == self._cluster_id, W.c.session_id == session_id)
            async with self._db.begin() as conn:
                generation = (
                    await conn.execute(update(W).where(*where, unless_done).values(**bumped).returning(W.c.generation))
                ).scalar()
            if sim is not None:
                if generation is not None:
                    if desired == PAUSE:
                        await sim.pause(session_id)
                    else:
                        await sim.delete(session_id)
                        async with self._db.begin() as conn:
                            await conn.execute(delete(W).where(*where, W.c.generation == generation))
                return
        await self._wake()

    async def _reconcile(self) -> None:
        """Act on every request this host has not observed; concurrent callers share passes
        (a pass that starts after a caller's request was committed covers it). Called from the
        writing of a report (a drain's hand-off, say), it leaves the request to the pass under
        way, or to the host's loop, instead of waiting for a pass that waits for that write."""
        self._asked += 1
        asked = self._asked
        if _writing.get():
            self._kick.set()
            return
        async with self._lock:
            while self._done < max(asked, self._asked) and self.sim is not None:
                upto = self._asked
                await self._pass(self.sim)
                self._done = upto

    async def _pass(self, sim: SimulatedCluster) -> None:
        conn = self._lease
        assert conn is not None
        rows = (
            await conn.execute(
                select(W.c.session_id, W.c.spec, W.c.desired, W.c.generation).where(
                    W.c.cluster_id == self._cluster_id, W.c.observed < W.c.generation
                )
            )
        ).all()
        await conn.commit()
        for row in rows:
            if row.desired == RUN:
                await sim.apply(spec_from_json(row.spec))
            elif row.desired == PAUSE:
                await sim.pause(row.session_id)
            else:
                await sim.delete(row.session_id)
        if rows:
            for row in rows:
                where = (
                    W.c.cluster_id == self._cluster_id,
                    W.c.session_id == row.session_id,
                    W.c.generation == row.generation,
                )
                if row.desired == DELETE:
                    await conn.execute(delete(W).where(*where))
                else:
                    await conn.execute(update(W).where(*where).values(observed=row.generation))
            await conn.commit()

    async def _report(self, report: StatusReport) -> None:
        """The engine's reports, batched: recorded in the pods' rows, then handed to the core."""
        try:
            await self._batcher.submit(report)
        except Exception:
            log.exception("status report for %s failed", report.session_id)

    async def _write(self, reports: Sequence[StatusReport]) -> None:
        token = _writing.set(True)
        try:
            await self._record([r.session_id for r in reports], {r.session_id: r for r in reports})
            await self._on_reports(reports)
        finally:
            _writing.reset(token)

    async def _flush_logs(self) -> None:
        """A running job's log lines, for `log_tail` through another process."""
        sim = self.sim
        if sim is None:
            return
        grown = [p.spec.session_id for p in sim.pods() if len(p.log) != self._logged.get(p.spec.session_id, -1)]
        if grown:
            await self._record(grown)

    async def _record(self, ids: Sequence[UUID], phase_of: dict[UUID, StatusReport] | None = None) -> None:
        """One statement for every pod of a batch: its last phase and node reported, its log."""
        sim = self.sim
        if sim is None:
            return
        rows = []
        for sid in dict.fromkeys(ids):
            pod = sim.pod(sid)
            report = (phase_of or {}).get(sid)
            if pod is None and report is None:
                continue
            if pod is not None:
                self._logged[sid] = len(pod.log)
            rows.append(
                {
                    "w_sid": sid,
                    "w_phase": report.phase.value if report is not None else None,
                    "w_node": report.node_id if report is not None else None,
                    "w_log": pod.log[-LOG_LINES:] if pod is not None else None,
                    "w_started": pod.started_at if pod is not None else None,
                    "w_exit": pod.exit_code if pod is not None else None,
                }
            )
        if not rows:
            return
        for row in rows:
            row["w_cluster"] = self._cluster_id
        async with self._db.begin() as conn:
            await conn.execute(_RECORD, rows)

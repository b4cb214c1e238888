"""The session use cases wired to in-memory adapters: the tenancy world (Acme: G1, G2; Beta:
H), a catalog (a CUDA 12.4 image; A100 offering; fractional, exclusive and CPU presets), one
cluster of two A100 nodes (HAMi and exclusive) and a CPU node, funded wallets."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any
from uuid import UUID

from domain.catalog import services as catalog
from domain.catalog.model import GpuTier, ImageScope
from domain.credits import services as credits
from domain.credits.model import AccountRef
from domain.inventory.model import Card, Cluster, Node, SharingMode
from domain.sessions import services as sessions
from domain.sessions.model import Expiry
from domain.tenancy.model import Actor
from infra.credits.memory import InMemoryBudgets, InMemoryLedger, InMemoryPolicies
from tests.support.memory_sessions import RecordedBilling, SessionsState, SessionsUnitOfWork, unit_of_work_factory
from tests.unit.tenancy.world import World

C = 1_000_000
A100 = "A100-80GB"
RATE = 3_600_000  # micro-credits per card-hour: 1 000 a second for a whole card


class Cluster1:
    """A `ClusterPort` that records what the use cases ask of it (status reports are fed to
    the use cases by the tests themselves)."""

    cluster_id = "c1"

    def __init__(self) -> None:
        self.applied: list[Any] = []
        self.paused: list[UUID] = []
        self.deleted: list[UUID] = []
        self.fail_apply: Exception | None = None

    async def apply(self, spec: Any) -> None:
        if self.fail_apply is not None:
            raise self.fail_apply
        self.applied.append(spec)

    async def pause(self, session_id: UUID) -> None:
        self.paused.append(session_id)

    async def delete(self, session_id: UUID) -> None:
        self.deleted.append(session_id)

    async def read_inventory(self) -> Any:
        raise AssertionError("not read by the session use cases")


class Registry:
    def __init__(self, *ports: Cluster1) -> None:
        self.ports = {p.cluster_id: p for p in ports}

    def get(self, cluster_id: str) -> Cluster1 | None:
        return self.ports.get(cluster_id)


@dataclass
class SessionsWorld:
    t: World
    state: SessionsState
    svc: sessions.SessionServices
    cluster: Cluster1
    billing: RecordedBilling
    ledger: InMemoryLedger
    policies: InMemoryPolicies
    budgets: InMemoryBudgets
    cat: dict[str, Any] = field(default_factory=dict)

    @classmethod
    async def build(cls, *, credits_: int = 100) -> SessionsWorld:
        state = SessionsState()
        uow = SessionsUnitOfWork(state)
        t = await World.build(uow)
        ledger, policies, budgets = InMemoryLedger(), InMemoryPolicies(), InMemoryBudgets()
        cluster = Cluster1()
        billing = RecordedBilling(state, ledger)
        svc = sessions.SessionServices(
            uow=unit_of_work_factory(state, ledger),
            clock=t.clock,
            ids=t.ids,
            ledger=ledger,
            budgets=budgets,
            policies=policies,
            clusters=Registry(cluster),
            billing=billing,
        )
        w = cls(t, state, svc, cluster, billing, ledger, policies, budgets)
        await w._catalog()
        await w._inventory()
        for name in ("member", "gadmin", "guest"):
            if credits_:
                await w.fund(name, credits_)
        state.events.clear()
        return w

    async def _catalog(self) -> None:
        t = self.t
        root = t.root
        self.cat["image"] = await catalog.image_create(
            t.uow, root, t.ids, t.clock, name="torch", reference="nvcr.io/nvidia/pytorch:24.05-py3",
            cuda_version="12.4", scope=ImageScope.GLOBAL,
        )  # fmt: skip
        self.cat["old_image"] = await catalog.image_create(
            t.uow, root, t.ids, t.clock, name="old", reference="nvcr.io/nvidia/cuda:10.2-base",
            cuda_version="10.2", scope=ImageScope.GLOBAL,
        )  # fmt: skip
        self.cat["offering"] = await catalog.offering_create(
            t.uow, root, t.ids, t.clock, vendor="NVIDIA", name=A100, vram_mib=81920, min_cuda="11.0",
            hourly_rate_micro=RATE,
        )  # fmt: skip
        for name, tier, extra in [
            ("L", GpuTier.L, {}),
            ("whole", GpuTier.EXCLUSIVE, {"gpu_count": 1}),
            ("cpu", GpuTier.NONE, {}),
        ]:
            self.cat[name] = await catalog.preset_create(
                t.uow, root, t.ids, t.clock, name=name, cpu_millicores=2000, memory_mib=4096, disk_gib=10,
                shm_mib=512, tier=tier, **extra,
            )  # fmt: skip

    async def _inventory(self) -> None:
        cap = SessionsUnitOfWork(self.state).capacity
        await cap.put_cluster(Cluster("c1", "Cluster one"), "simulated")
        await cap.replace_nodes(
            "c1",
            [
                Node("hami-1", "hami-1", "c1", SharingMode.HAMI, 32000, 131072, (Card("GPU-h1", A100, 81920),)),
                Node("excl-1", "excl-1", "c1", SharingMode.EXCLUSIVE, 32000, 131072, (Card("GPU-x1", A100, 81920),)),
                Node("cpu-1", "cpu-1", "c1", SharingMode.EXCLUSIVE, 16000, 65536, ()),
            ],
        )

    async def report_nodes(self, *, ready: str | None = None, gone: str | None = None) -> None:
        """The cluster's inventory report: a node ready again, or a node gone."""
        nodes = [
            replace(n, schedulable=True) if n.id == ready else n
            for n in self.state.capacity.nodes.values()
            if n.cluster_id == "c1" and n.id != gone
        ]
        await SessionsUnitOfWork(self.state).capacity.replace_nodes("c1", nodes)

    async def fund(self, name: str, credits_: int) -> None:
        t = self.t
        user = t.users[name]
        group = t.g1.id
        a = dict(ledger=self.ledger, directory=self.directory, clock=t.clock, ids=t.ids)
        root = t.root
        for i, (src, dst) in enumerate(
            [
                (AccountRef.system(), AccountRef.organization(t.org_a.id)),
                (AccountRef.organization(t.org_a.id), AccountRef.group(group)),
                (AccountRef.group(group), AccountRef.user(user.id)),
            ]
        ):
            await credits.allocate(
                root, **a, source=src, destination=dst, amount_micro=credits_ * C, idempotency_key=f"{name}-{i}"
            )  # type: ignore[arg-type]

    @property
    def directory(self) -> Any:
        from infra.credits.memory import InMemoryDirectory

        d = InMemoryDirectory()
        for g in self.state.groups.values():
            d.add_group(g.id, g.organization_id)
        for m in self.state.memberships.values():
            d.add_member(m.group_id, m.user_id)
        return d

    def actor(self, name: str) -> Actor:
        from dataclasses import replace

        a = {
            "member": self.t.member,
            "gadmin": self.t.group_admin,
            "guest": self.t.guest,
            "orgadmin": self.t.org_admin,
        }[name]
        return replace(a, active_group_id=self.t.g1.id)

    def request(self, preset: str = "L", **kw: Any) -> sessions.SessionRequest:
        args: dict[str, Any] = dict(
            name="nb", image_id=self.cat["image"].id, preset_id=self.cat[preset].id,
            offering_id=self.cat["offering"].id, expiry=Expiry.H1,
        )  # fmt: skip
        args.update(kw)
        return sessions.SessionRequest(**args)

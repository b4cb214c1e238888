"""The scheduler's indexes hold exactly the free capacity its cards, instances and nodes have
(issue 20): after every placement, release, cordon and uncordon of a seeded stream, under
every policy, each index is recomputed from the free state and compared whole: HAMi cards
by (free cores, free VRAM), time-sliced cards by free slices, free MIG instances by profile,
nodes by whole untouched cards and by free CPU and memory, each under its node's class, an
empty sub-index dropped (index.py's docstring); and the node's class is the one its policy
gives it now. The fragmentation-aware policy re-classes nodes as the mix and their free CPU
change, which moves their capacity between sub-indexes (`_move_class`, `_reclassify`)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from domain.inventory.model import GpuKind, SharingMode
from domain.scheduling.errors import SchedulingError
from domain.scheduling.index import CardRole, ClusterState, FractionIndex, OrderedSet
from domain.scheduling.model import CPU_QUEUE, GpuRequest, ModelChoice
from domain.scheduling.scheduler import Scheduler
from tests.unit.scheduling.helpers import A30, A100, card, inventory, node

HAMI, TS, EXCL = SharingMode.HAMI, SharingMode.TIMESLICING, SharingMode.EXCLUSIVE
FORCED = (GpuKind.MIG, GpuKind.HAMI)


def _fraction(index: FractionIndex) -> dict[tuple[int, int], set[int]]:
    keys = sorted(index.buckets)
    assert index.fcs == sorted({fc for fc, _ in keys})
    assert index.fvs == {fc: [fv for c, fv in keys if c == fc] for fc in index.fcs}
    if index.keys is not None:
        assert index.keys == keys
    assert all(bucket.members for bucket in index.buckets.values())
    return {k: set(b.members) for k, b in index.buckets.items()}


def _sets(by: dict[Any, OrderedSet]) -> dict[Any, set[int]]:
    return {k: set(b.members) for k, b in by.items()}


def actual(cluster: ClusterState) -> dict[str, Any]:
    """What the cluster's indexes hold (model-level dicts left empty are not told)."""
    return {
        "fraction": {m: {cls: _fraction(i) for cls, i in by.items()} for m, by in cluster.fraction.items() if by},
        "timeslice": {m: {cls: _sets(f) for cls, f in by.items()} for m, by in cluster.timeslice.items() if by},
        "mig": {m: {cls: _sets(p) for cls, p in by.items()} for m, by in cluster.mig.items() if by},
        "exclusive": {m: {cls: _sets(c) for cls, c in by.items()} for m, by in cluster.exclusive.items() if by},
        "gpu_nodes": {cls: _fraction(i) for cls, i in cluster.gpu_nodes.items()},
        "cpu_nodes": _fraction(cluster.cpu_nodes),
    }


def expected(s: Scheduler, cluster: ClusterState) -> dict[str, Any]:
    """The same, recomputed from the free state of every card, instance and node."""
    out: dict[str, Any] = {k: {} for k in ("fraction", "timeslice", "mig", "exclusive", "gpu_nodes")}
    out["cpu_nodes"] = {}

    def put(d: dict[Any, Any], *path: Any) -> None:
        *keys, last = path
        for k in keys:
            d = d.setdefault(k, {})
        d.setdefault(last, set())

    for ns in s._nodes:
        if ns.cluster is not cluster or not ns.accepts:
            continue
        cls = ns.cls
        if ns.cards:
            put(out["gpu_nodes"], cls, (ns.free_cpu, ns.free_mem))
            out["gpu_nodes"][cls][(ns.free_cpu, ns.free_mem)].add(ns.order)
        else:
            put(out["cpu_nodes"], (ns.free_cpu, ns.free_mem))
            out["cpu_nodes"][(ns.free_cpu, ns.free_mem)].add(ns.order)
        whole: dict[str, int] = {}
        for cs in ns.cards:
            if cs.role == CardRole.HAMI and cs.free_cores > 0 and cs.free_vram > 0:
                put(out["fraction"], cs.model, cls, (cs.free_cores, cs.free_vram))
                out["fraction"][cs.model][cls][(cs.free_cores, cs.free_vram)].add(cs.order)
            if cs.role == CardRole.TIMESLICE and cs.free_slices > 0:
                put(out["timeslice"], cs.model, cls, cs.free_slices)
                out["timeslice"][cs.model][cls][cs.free_slices].add(cs.order)
            for ms in cs.migs:
                if ms.tenant is None:
                    put(out["mig"], cs.model, cls, ms.profile.name)
                    out["mig"][cs.model][cls][ms.profile.name].add(ms.order)
            if cs.gives_whole and not cs.tenants:
                whole[cs.model] = whole.get(cs.model, 0) + 1
        for model, count in whole.items():
            put(out["exclusive"], model, cls, count)
            out["exclusive"][model][cls][count].add(ns.order)
        assert {m: f for m, f in ns.whole_free.items() if f} == {
            m: sorted(c.order for c in ns.cards if c.model == m and c.gives_whole and not c.tenants) for m in whole
        }
        assert ns.cls == s._policies[cluster.id].node_class(ns)
    return out


def world(policy: str) -> Scheduler:
    return Scheduler(
        inventory(
            node("h1", HAMI, card("g1"), card("g2"), card("g3", A30, 24576), cpu=16_000, mem=65_536),
            node("h2", HAMI, card("g4"), card("g5"), cpu=32_000, mem=131_072),
            node("e1", EXCL, card("x1"), card("x2"), card("x3"), cpu=24_000),
            node("m1", EXCL, card("m", mig=("1g.10gb", "1g.10gb", "2g.20gb", "3g.40gb")), card("x4"), cpu=12_000),
            node("t1", TS, card("t1", A30, 24576, replicas=3), card("t2", A30, 24576, replicas=2), cpu=8_000),
            node("c1", HAMI, cpu=16_000, mem=65_536),
            node("c2", HAMI, cpu=8_000, mem=32_768),
            node("h3", HAMI, card("g6"), cluster="c2", cpu=8_000),
            policy=policy,
            clusters=("c1", "c2"),
        )
    )


def request(rng: random.Random, wid: str) -> GpuRequest:
    cpu = rng.choice((0, 1000, 2000, 4000, 8000))
    mem = rng.choice((0, 1024, 8192, 16384))
    kind = rng.randrange(7)
    if kind == 0:
        pct = rng.choice((5, 10, 25, 50))
        return GpuRequest(wid, A100, vram_mib=819 * pct, cores=pct, cpu_millicores=cpu, memory_mib=mem)
    if kind == 1:
        pct = rng.choice((10, 25, 50))
        choices = (ModelChoice(A30, 245 * pct, pct), ModelChoice(A100, 819 * pct, pct))
        return GpuRequest(wid, "class", choices=choices, cpu_millicores=cpu, memory_mib=mem)
    if kind == 2:
        return GpuRequest(wid, A100, exclusive_cards=rng.choice((1, 1, 2, 3)), cpu_millicores=cpu, memory_mib=mem)
    if kind == 3:
        return GpuRequest(wid, A30, shared=True, cpu_millicores=cpu, memory_mib=mem)
    if kind == 4:
        return GpuRequest(wid, A100, vram_mib=10240, cores=14, cpu_millicores=cpu, forced_kind=rng.choice(FORCED))
    if kind == 5:
        return GpuRequest(wid, A30, vram_mib=4096, cores=20, cpu_millicores=cpu, memory_mib=mem)
    return GpuRequest(wid, CPU_QUEUE, cpu_only=True, cpu_millicores=cpu or 500, memory_mib=mem)


def check(s: Scheduler) -> None:
    for cluster in s._clusters:
        assert actual(cluster) == expected(s, cluster)


@pytest.mark.parametrize("policy", ["best-fit", "first-fit", "gpu-packing", "fragmentation-aware"])
def test_every_index_holds_exactly_the_free_capacity_after_every_step(policy: str) -> None:
    rng = random.Random(20)
    s = world(policy)
    check(s)
    node_ids = [n.id for n in s.inventory.nodes]
    placed = 0
    for step in range(90):
        action = rng.random()
        live = [a.workload_id for a in s.allocations()]
        if action < 0.6 or not live:
            try:
                if s.place(request(rng, f"w{step}")) is not None:
                    placed += 1
            except SchedulingError:
                pass
        elif action < 0.9:
            s.release(rng.choice(live))
        else:
            s.set_cordoned(rng.choice(node_ids), rng.random() < 0.6)
        check(s)
    assert placed >= 30  # the stream placed enough to fill and churn
    for n in node_ids:
        s.set_cordoned(n, False)
    check(s)
    for wid in [a.workload_id for a in s.allocations()]:
        s.release(wid)
    check(s)
    assert s.free_summary(A30) == world(policy).free_summary(A30)

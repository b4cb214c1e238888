"""CPU-only sessions are placed like any request: they take CPU and memory on a node, so a
GPU session never counts on CPU they hold. When CPU-only sessions fill a GPU node's CPU, the
next GPU session goes to another node, or, when there is none, waits with a reason that
names the CPU and is admitted when the CPU frees."""

from __future__ import annotations

from typing import Any

from domain.catalog import services as catalog
from domain.catalog.model import GpuTier
from domain.inventory.model import Card, Node, SharingMode
from domain.sessions import services as sessions
from domain.sessions.model import SessionState
from tests.integration.sessions.test_admission_steps import fresh_scope
from tests.integration.sessions.test_lifecycle import wait_state
from tests.support.api import SYSTEM, add_gpu_catalog, add_simulated_cluster, unique


async def _cpu_preset(c: Any, millicores: int) -> Any:
    async with c.uow() as uow:
        preset = await catalog.preset_create(
            uow,
            SYSTEM,
            c.ids,
            c.clock,
            name=unique("cpu"),
            cpu_millicores=millicores,
            memory_mib=4096,
            disk_gib=10,
            shm_mib=128,
            tier=GpuTier.NONE,
        )
        await uow.commit()
    return preset


def _gpu_node(cluster: str, name: str, model: str, cpu: int) -> Node:
    card = Card(f"GPU-{cluster}-{name}-0", model, 32768)
    return Node(f"{cluster}/{name}", name, cluster, SharingMode.EXCLUSIVE, cpu, 262144, (card,))


async def test_cpu_sessions_fill_a_gpu_nodes_cpu_and_the_gpu_session_goes_elsewhere(
    container: Any, runtime: Any
) -> None:
    c = container
    model = unique("V100-cpufill")
    cluster = await add_simulated_cluster(
        c, "cpufill", (_gpu_node("cpufill", "small", model, 8000), _gpu_node("cpufill", "big", model, 32000))
    )
    gpu = await add_gpu_catalog(
        c,
        model,
        32768,
        1_000_000,
        preset={"cpu_millicores": 2000, "memory_mib": 4096, "tier": GpuTier.EXCLUSIVE, "gpu_count": 1},
    )
    cpu_preset = await _cpu_preset(c, 4000)
    sc = await fresh_scope(c)
    cpu_sessions = []
    for i in range(2):  # 2 × 4 CPUs: the tightest node that fits is `small`, then full
        s = await sessions.session_create(
            c.sessions,
            sc.actor,
            sessions.SessionRequest(
                name=f"cpu{i}", image_id=gpu["image"].id, preset_id=cpu_preset.id, cluster="cpufill"
            ),
        )
        assert s.state == SessionState.SCHEDULED and s.hold_id is None
        assert s.placement is not None and s.placement["node_id"] == "cpufill/small" and s.placement["kind"] is None
        cpu_sessions.append(s)
    notebook = await sessions.session_create(
        c.sessions,
        sc.actor,
        sessions.SessionRequest(
            name="gpu", image_id=gpu["image"].id, preset_id=gpu["preset"].id, offering_id=gpu["offering"].id
        ),
    )
    # `small`'s card is free, but its CPU is taken by the CPU-only sessions
    assert notebook.state == SessionState.SCHEDULED
    assert notebook.placement is not None and notebook.placement["node_id"] == "cpufill/big"
    await wait_state(c, notebook.id, SessionState.RUNNING)
    for s in (*cpu_sessions, notebook):
        await sessions.session_stop(c.sessions, sc.actor, s.id)
    await cluster.close()


async def test_with_no_other_node_the_gpu_session_waits_for_the_cpu_and_says_so(container: Any, runtime: Any) -> None:
    c = container
    model = unique("V100-cpuwait")
    cluster = await add_simulated_cluster(c, "cpuwait", (_gpu_node("cpuwait", "only", model, 4000),))
    gpu = await add_gpu_catalog(
        c,
        model,
        32768,
        1_000_000,
        preset={"cpu_millicores": 2000, "memory_mib": 4096, "tier": GpuTier.EXCLUSIVE, "gpu_count": 1},
    )
    cpu_preset = await _cpu_preset(c, 4000)
    sc = await fresh_scope(c)
    cpu = await sessions.session_create(
        c.sessions,
        sc.actor,
        sessions.SessionRequest(name="cpu", image_id=gpu["image"].id, preset_id=cpu_preset.id, cluster="cpuwait"),
    )
    assert cpu.placement is not None and cpu.placement["node_id"] == "cpuwait/only"
    notebook = await sessions.session_create(
        c.sessions,
        sc.actor,
        sessions.SessionRequest(
            name="gpu", image_id=gpu["image"].id, preset_id=gpu["preset"].id, offering_id=gpu["offering"].id
        ),
    )
    assert notebook.state == SessionState.QUEUED and notebook.placement is None and notebook.hold_id is None
    assert "CPU" in notebook.state_reason and "cpuwait/only" in notebook.state_reason
    assert "0 CPU free of the 2 CPU" in notebook.state_reason
    await sessions.session_stop(c.sessions, sc.actor, cpu.id)
    admitted = await wait_state(c, notebook.id, SessionState.RUNNING)
    assert admitted.placement is not None and admitted.placement["node_id"] == "cpuwait/only"
    await sessions.session_stop(c.sessions, sc.actor, notebook.id)
    await cluster.close()

"""One test per admission step: each refusal names its step and changes nothing (no hold,
no placement, no pod); plus the CPU-only path (placed, without budget or hold), the approval
path and queueing at step 7."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import pytest

from domain.catalog import services as catalog
from domain.catalog.model import ImageScope
from domain.credits import services as credits
from domain.credits.budgets import BudgetAction, BudgetScope, BudgetScopeKind
from domain.credits.model import AccountRef
from domain.inventory.model import GpuKind
from domain.policies import services as policies
from domain.policies.model import PolicyScope, ResourcePolicy, ScopeChain
from domain.sessions import services as sessions
from domain.sessions.errors import AdmissionRefused
from domain.sessions.model import Expiry, MountMode, MountRequest, SessionKind, SessionState
from domain.sessions.ports import SessionFilter
from domain.tenancy import services as tenancy
from domain.tenancy.model import Role
from domain.volumes import services as volumes
from domain.volumes.model import AccessMode, StorageClass
from tests.integration.sessions.test_lifecycle import catalog_for, wait_state
from tests.support.api import SYSTEM, fund_user, make_user, unique


@dataclass
class Scope:
    org: uuid.UUID
    group: uuid.UUID
    user: uuid.UUID
    actor: Any


async def fresh_scope(c: Any, credits_: int = 50, role: Role = Role.MEMBER) -> Scope:
    async with c.uow() as uow:
        org = await tenancy.organization_create(uow, SYSTEM, c.ids, c.clock, name=unique("Adm"))
        group = await tenancy.group_create(uow, SYSTEM, c.ids, c.clock, organization_id=org.id, name="Lab")
        await uow.commit()
    uid, _ = await make_user(c, org.id, unique("req"), groups=[group.id], role=role)
    if credits_:
        await fund_user(c, org.id, group.id, uid, credits_)
    async with c.uow() as uow:
        actor = await tenancy.load_actor(uow, uid)
    return Scope(org.id, group.id, uid, replace(actor, active_group_id=group.id))


async def nothing_changed(c: Any, sc: Scope, runtime: Any, balance_micro: int) -> None:
    b = (await c.credits.ledger.balances([AccountRef.user(sc.user)]))[AccountRef.user(sc.user)]
    assert b.held_micro == 0 and b.balance_micro == balance_micro
    async with c.uow() as uow:
        mine, total = await uow.sessions.search(SessionFilter(owner_id=sc.user), 0, 10)
        state = await uow.capacity.snapshot()
    assert total == 0 and mine == []
    demo = c.clusters.get("demo")
    assert not [p for p in demo.pods() if str(p.spec.owner) == str(sc.user)]
    assert not [a for a in state.scheduler.allocations() if a.request.workload_id in {str(s.id) for s in mine}]


def gpu_request(cat: dict[str, Any], **kw: Any) -> sessions.SessionRequest:
    base = dict(
        name="s", image_id=cat["image"].id, preset_id=cat["preset"].id, offering_id=cat["offering"].id, expiry=Expiry.H1
    )
    base.update(kw)
    return sessions.SessionRequest(**base)


async def refused(c: Any, sc: Scope, req: sessions.SessionRequest) -> AdmissionRefused:
    with pytest.raises(AdmissionRefused) as exc:
        await sessions.session_create(c.sessions, sc.actor, req)
    return exc.value


async def test_step1_cuda_below_the_offerings_minimum(container: Any, runtime: Any) -> None:
    c = container
    cat = await catalog_for(c)
    sc = await fresh_scope(c)
    async with c.uow() as uow:
        old = await catalog.image_create(
            uow,
            SYSTEM,
            c.ids,
            c.clock,
            name=unique("old"),
            reference="nvcr.io/nvidia/cuda:10.2-base",
            cuda_version="10.2",
            scope=ImageScope.GLOBAL,
        )
        await uow.commit()
    err = await refused(c, sc, gpu_request(cat, image_id=old.id))
    assert err.step == 1 and err.code.value == "CUDA_TOO_OLD" and err.field == "imageId"
    assert "10.2" in err.message and "11.0" in err.message
    await nothing_changed(c, sc, runtime, 50_000_000)


async def test_step1_guests_get_cpu_only(container: Any, runtime: Any) -> None:
    c = container
    cat = await catalog_for(c)
    sc = await fresh_scope(c, role=Role.GUEST)
    err = await refused(c, sc, gpu_request(cat))
    assert err.step == 1 and err.code.value == "GUEST_GPU_REFUSED"
    await nothing_changed(c, sc, runtime, 50_000_000)


async def test_step1_jobs_are_refused_fractional_capacity_with_the_reason(container: Any, runtime: Any) -> None:
    c = container
    cat = await catalog_for(c)
    sc = await fresh_scope(c)
    err = await refused(c, sc, gpu_request(cat, kind=SessionKind.JOB))
    assert err.step == 1 and err.code.value == "JOB_FRACTION_REFUSED"
    assert "exclusive" in err.message and "time-sliced" in err.message
    await nothing_changed(c, sc, runtime, 50_000_000)


async def test_step2_mounting_someone_elses_volume_or_read_write_beyond_rights(container: Any, runtime: Any) -> None:
    c = container
    cat = await catalog_for(c)
    sc = await fresh_scope(c)
    other = await fresh_scope(c)
    async with c.uow() as uow:
        await uow.volumes.put_storage_class(
            StorageClass("nfs", "NFS", True, (AccessMode.READ_WRITE_ONCE, AccessMode.READ_WRITE_MANY))
        )
        await uow.commit()
    async with c.uow() as uow:
        theirs = await volumes.volume_create(
            uow, other.actor, c.ids, c.clock, c.credits.policies, name="data", size_mib=1024
        )
        await uow.commit()
    err = await refused(c, sc, gpu_request(cat, mounts=(MountRequest(theirs.id, "/data", MountMode.READ_ONLY),)))
    assert err.step == 2 and err.code.value == "NOT_FOUND" and err.field == "mounts"
    # a group volume members may only read
    async with c.uow() as uow:
        gadmin = replace(sc.actor, group_roles={sc.group: Role.GROUP_ADMIN})
        shared = await volumes.volume_create(
            uow,
            gadmin,
            c.ids,
            c.clock,
            c.credits.policies,
            name="shared",
            size_mib=1024,
            group_id=sc.group,
            member_mode=MountMode.READ_ONLY,
        )
        await uow.commit()
    err = await refused(c, sc, gpu_request(cat, mounts=(MountRequest(shared.id, "/shared", MountMode.READ_WRITE),)))
    assert err.step == 2 and err.code.value == "MOUNT_NOT_PERMITTED"
    await nothing_changed(c, sc, runtime, 50_000_000)


async def test_step3_only_the_requesters_own_wallet_pays(container: Any, runtime: Any) -> None:
    c = container
    cat = await catalog_for(c)
    sc = await fresh_scope(c)
    err = await refused(c, sc, gpu_request(cat, wallet_user_id=uuid.uuid4()))
    assert err.step == 3 and err.code.value == "WALLET_NOT_OWN"
    await nothing_changed(c, sc, runtime, 50_000_000)


async def test_step4_group_cap_refuses_even_when_the_users_own_cap_allows(container: Any, runtime: Any) -> None:
    c = container
    cat = await catalog_for(c)
    sc = await fresh_scope(c)
    await policies.set_policy(
        SYSTEM,
        c.credits.policies,
        c.credits.directory,
        c.clock,
        ResourcePolicy(PolicyScope.user(sc.user), max_gpus=Fraction(4)),
    )
    await policies.set_policy(
        SYSTEM,
        c.credits.policies,
        c.credits.directory,
        c.clock,
        ResourcePolicy(PolicyScope.group(sc.group), model_caps={"A100-80GB": Fraction(1, 8)}),
    )
    err = await refused(c, sc, gpu_request(cat))
    assert err.step == 4 and err.code.value == "POLICY_LIMIT_EXCEEDED"
    assert "group Lab" in err.message and "A100-80GB" in err.message
    await nothing_changed(c, sc, runtime, 50_000_000)


async def test_step5_block_budget_over_its_limit(container: Any, runtime: Any) -> None:
    c = container
    cat = await catalog_for(c)
    sc = await fresh_scope(c)
    chain = ScopeChain(sc.user, sc.group, sc.org)
    await credits.charge_wallet(
        c.credits.ledger,
        c.clock,
        c.ids,
        wallet=AccountRef.user(sc.user),
        chain=chain,
        amount_micro=2_000_000,
        idempotency_key=f"spend-{sc.user}",
    )
    await credits.set_budget(
        SYSTEM,
        c.credits.budgets,
        c.credits.directory,
        c.clock,
        c.ids,
        scope=BudgetScope(BudgetScopeKind.GROUP, sc.group),
        limit_micro=1_000_000,
        action=BudgetAction.BLOCK,
    )
    err = await refused(c, sc, gpu_request(cat))
    assert err.step == 5 and err.code.value == "BUDGET_EXCEEDED"
    await nothing_changed(c, sc, runtime, 48_000_000)


async def test_step6_hold_refused_when_the_wallet_is_short(container: Any, runtime: Any) -> None:
    c = container
    cat = await catalog_for(c)
    sc = await fresh_scope(c, credits_=0)
    err = await refused(c, sc, gpu_request(cat))
    assert err.step == 6 and err.code.value == "INSUFFICIENT_CREDITS"
    await nothing_changed(c, sc, runtime, 0)


async def test_step7_no_room_queues_instead_of_refusing(container: Any, runtime: Any) -> None:
    c = container
    cat = await catalog_for(c)
    sc = await fresh_scope(c)
    async with c.uow() as uow:
        nowhere = await catalog.offering_create(
            uow,
            SYSTEM,
            c.ids,
            c.clock,
            vendor="NVIDIA",
            name=unique("B200"),
            vram_mib=183_000,
            min_cuda="12.0",
            hourly_rate_micro=1_000_000,
        )
        await uow.commit()
    s = await sessions.session_create(c.sessions, sc.actor, gpu_request(cat, offering_id=nowhere.id))
    assert s.state == SessionState.QUEUED and s.hold_id is None  # a waiting request holds no credits
    await sessions.session_stop(c.sessions, sc.actor, s.id)
    b = (await c.credits.ledger.balances([AccountRef.user(sc.user)]))[AccountRef.user(sc.user)]
    assert b.held_micro == 0 and b.balance_micro == 50_000_000


async def test_step8_a_failed_hand_off_fails_the_session_and_frees_everything(
    container: Any, runtime: Any, monkeypatch: Any
) -> None:
    c = container
    cat = await catalog_for(c)
    sc = await fresh_scope(c)
    demo = c.clusters.get("demo")

    async def broken(spec: Any) -> None:
        raise RuntimeError("the API server refused the custom resource")

    async def broken_many(specs: Any) -> list[Exception | None]:
        raise RuntimeError("the API server refused the custom resource")

    monkeypatch.setattr(demo, "apply", broken)
    monkeypatch.setattr(demo, "apply_many", broken_many)  # a batch's hand-off (issue 19)
    s = await sessions.session_create(c.sessions, sc.actor, gpu_request(cat))
    failed = await wait_state(c, s.id, SessionState.FAILED)
    assert "step 8 (hand-off)" in failed.state_reason and failed.placement is None
    b = (await c.credits.ledger.balances([AccountRef.user(sc.user)]))[AccountRef.user(sc.user)]
    assert b.held_micro == 0 and b.balance_micro == 50_000_000
    async with c.uow() as uow:
        state = await uow.capacity.snapshot()
    assert state.scheduler.allocation(str(s.id)) is None


async def test_approval_path_with_an_assigned_gpu_kind(container: Any, runtime: Any) -> None:
    c = container
    cat = await catalog_for(c)
    sc = await fresh_scope(c)
    await policies.set_policy(
        SYSTEM,
        c.credits.policies,
        c.credits.directory,
        c.clock,
        ResourcePolicy(PolicyScope.group(sc.group), approval_required=True),
    )
    s = await sessions.session_create(c.sessions, sc.actor, gpu_request(cat))
    assert s.state == SessionState.PENDING_APPROVAL and s.hold_id is not None
    with pytest.raises(Exception) as denied:
        await sessions.session_approve(c.sessions, sc.actor, s.id)
    assert getattr(denied.value, "code", None) is not None and denied.value.code.value == "PERMISSION_DENIED"
    approver = replace(sc.actor, user_id=SYSTEM.user_id, is_super_admin=True)
    approved = await sessions.session_approve(c.sessions, approver, s.id, gpu_kind=GpuKind.EXCLUSIVE)
    assert approved.state == SessionState.SCHEDULED and approved.placement["kind"] == "exclusive"
    await wait_state(c, s.id, SessionState.RUNNING)
    await sessions.session_stop(c.sessions, sc.actor, s.id)
    rejected = await sessions.session_create(c.sessions, sc.actor, gpu_request(cat, name="second"))
    done = await sessions.session_reject(c.sessions, approver, rejected.id, reason="use the CPU preset for this")
    assert done.state == SessionState.REJECTED and "CPU preset" in done.state_reason


async def test_cpu_only_path_skips_budget_and_hold_and_is_placed_on_a_cpu_node(container: Any, runtime: Any) -> None:
    c = container
    cat = await catalog_for(c)
    sc = await fresh_scope(c, credits_=0)
    await credits.set_budget(
        SYSTEM,
        c.credits.budgets,
        c.credits.directory,
        c.clock,
        c.ids,
        scope=BudgetScope(BudgetScopeKind.USER, sc.user),
        limit_micro=1,
        action=BudgetAction.BLOCK,
    )
    s = await sessions.session_create(
        c.sessions, sc.actor, sessions.SessionRequest(name="cpu", image_id=cat["image"].id, preset_id=cat["cpu"].id)
    )
    assert s.hold_id is None and s.state == SessionState.SCHEDULED
    # placed like any request: CPU and memory on a CPU-only node of the demo cluster
    assert s.placement is not None and s.placement["kind"] is None and s.placement["node_id"] in ("cpu-1", "cpu-2")
    await wait_state(c, s.id, SessionState.RUNNING)
    await sessions.session_stop(c.sessions, sc.actor, s.id)


async def test_step2_a_template_whose_volume_is_gone_is_refused_with_that_reason(container: Any, runtime: Any) -> None:
    from domain.volumes.model import TemplateMount

    c = container
    cat = await catalog_for(c)
    sc = await fresh_scope(c)
    async with c.uow() as uow:
        await uow.volumes.put_storage_class(
            StorageClass("nfs", "NFS", True, (AccessMode.READ_WRITE_ONCE, AccessMode.READ_WRITE_MANY))
        )
        vol = await volumes.volume_create(uow, sc.actor, c.ids, c.clock, c.credits.policies, name="work", size_mib=512)
        template = await volumes.template_create(
            uow,
            sc.actor,
            c.ids,
            c.clock,
            group_id=sc.group,
            name="train",
            image_id=cat["image"].id,
            offering_id=cat["offering"].id,
            preset_id=cat["preset"].id,
            mounts=(TemplateMount(vol.id, "/work", MountMode.READ_WRITE),),
            env={"EPOCHS": "3"},
        )
        await uow.commit()
    # the template works while its volume exists
    s = await sessions.session_create(
        c.sessions, sc.actor, sessions.SessionRequest(name="t", image_id=cat["image"].id, template_id=template.id)
    )
    assert s.env == {"EPOCHS": "3"} and s.mounts[0].mount_path == "/work"
    await sessions.session_stop(c.sessions, sc.actor, s.id)
    await wait_state(c, s.id, SessionState.STOPPED)
    async with c.uow() as uow:
        await volumes.volume_delete(uow, sc.actor, vol.id)
        await uow.commit()
    balance = (await c.credits.ledger.balances([AccountRef.user(sc.user)]))[AccountRef.user(sc.user)].balance_micro
    err = await refused(c, sc, sessions.SessionRequest(name="t2", image_id=cat["image"].id, template_id=template.id))
    assert err.step == 2 and err.code.value == "VOLUME_GONE" and err.field == "templateId"
    assert "no longer exists" in err.message and "/work" in err.message
    b = (await c.credits.ledger.balances([AccountRef.user(sc.user)]))[AccountRef.user(sc.user)]
    assert b.held_micro == 0 and b.balance_micro == balance


async def test_a_mounted_volume_cannot_be_deleted(container: Any, runtime: Any) -> None:
    c = container
    cat = await catalog_for(c)
    sc = await fresh_scope(c)
    async with c.uow() as uow:
        await uow.volumes.put_storage_class(
            StorageClass("nfs", "NFS", True, (AccessMode.READ_WRITE_ONCE, AccessMode.READ_WRITE_MANY))
        )
        vol = await volumes.volume_create(uow, sc.actor, c.ids, c.clock, c.credits.policies, name="busy", size_mib=512)
        await uow.commit()
    s = await sessions.session_create(
        c.sessions, sc.actor, gpu_request(cat, mounts=(MountRequest(vol.id, "/busy", MountMode.READ_WRITE),))
    )
    async with c.uow() as uow:
        with pytest.raises(Exception) as busy:
            await volumes.volume_delete(uow, sc.actor, vol.id)
    assert busy.value.code.value == "VOLUME_IN_USE"
    await sessions.session_stop(c.sessions, sc.actor, s.id)


async def test_storage_quota_refuses_a_volume_too_large(container: Any, runtime: Any) -> None:
    c = container
    sc = await fresh_scope(c)
    await policies.set_policy(
        SYSTEM,
        c.credits.policies,
        c.credits.directory,
        c.clock,
        ResourcePolicy(PolicyScope.user(sc.user), storage_quota_mib=1000),
    )
    async with c.uow() as uow:
        await uow.volumes.put_storage_class(
            StorageClass("nfs", "NFS", True, (AccessMode.READ_WRITE_ONCE, AccessMode.READ_WRITE_MANY))
        )
        await volumes.volume_create(uow, sc.actor, c.ids, c.clock, c.credits.policies, name="a", size_mib=600)
        await uow.commit()
    async with c.uow() as uow:
        with pytest.raises(Exception) as quota:
            await volumes.volume_create(uow, sc.actor, c.ids, c.clock, c.credits.policies, name="b", size_mib=600)
    assert quota.value.code.value == "STORAGE_QUOTA_EXCEEDED" and quota.value.field == "sizeMib"


async def test_a_queued_session_admitted_later_is_refused_by_a_limit_lowered_while_it_waited(
    container: Any, runtime: Any
) -> None:
    """A drain re-checks step 4 with the limits in force when it admits, not those of the
    request's arrival: the group's GPU cap falls to half a card while a one-card session
    waits, so when the card frees the session stops with the step-4 reason and keeps nothing."""
    from domain.catalog.model import GpuTier
    from domain.inventory.model import Card, Node, SharingMode
    from domain.inventory.ports import WorkloadPhase
    from tests.support.api import add_gpu_catalog, add_simulated_cluster

    c = container
    cluster_id, model = unique("drain"), unique("V100-drain")
    node = Node(f"{cluster_id}-1", f"{cluster_id}-1", cluster_id, SharingMode.EXCLUSIVE, 64000, 262144,
                (Card(f"GPU-{cluster_id}-0", model, 32768),))  # fmt: skip
    cluster = await add_simulated_cluster(c, cluster_id, (node,))
    cat = await add_gpu_catalog(
        c, model, 32768, 1_000_000,
        preset={"cpu_millicores": 1000, "memory_mib": 1024, "tier": GpuTier.EXCLUSIVE, "gpu_count": 1},
    )  # fmt: skip
    sc = await fresh_scope(c)
    req = gpu_request(cat, offering_id=cat["offering"].id, preset_id=cat["preset"].id, image_id=cat["image"].id)
    first = await sessions.session_create(c.sessions, sc.actor, replace(req, name="first"))
    await wait_state(c, first.id, SessionState.RUNNING)
    waiting = await sessions.session_create(c.sessions, sc.actor, replace(req, name="waiting"))
    assert waiting.state == SessionState.QUEUED

    await policies.set_policy(
        SYSTEM,
        c.credits.policies,
        c.credits.directory,
        c.clock,
        ResourcePolicy(PolicyScope.group(sc.group), max_gpus=Fraction(1, 2)),
    )
    await sessions.session_stop(c.sessions, sc.actor, first.id)
    refused_later = await wait_state(c, waiting.id, SessionState.FAILED, SessionState.STOPPED, SessionState.RUNNING)
    assert refused_later.state == SessionState.FAILED
    assert refused_later.state_reason.startswith("step 4 (policy limits): ")
    assert "group Lab" in refused_later.state_reason
    await wait_state(c, first.id, SessionState.STOPPED)
    async with c.uow() as uow:
        state = await uow.capacity.snapshot()
    assert state.scheduler.allocation(str(waiting.id)) is None
    assert state.scheduler.allocation(str(first.id)) is None
    assert not [p for p in cluster.pods() if p.phase is WorkloadPhase.RUNNING]
    b = (await c.credits.ledger.balances([AccountRef.user(sc.user)]))[AccountRef.user(sc.user)]
    assert b.held_micro == 0
    await cluster.close()


async def test_a_template_fills_what_the_request_leaves_out_and_the_request_wins(container: Any, runtime: Any) -> None:
    """A template supplies preset, offering, environment and shm; what the request names itself
    (the image, a variable) is what runs: the template never silently replaces it."""
    c = container
    cat = await catalog_for(c)
    sc = await fresh_scope(c)
    async with c.uow() as uow:
        other = await catalog.image_create(
            uow,
            SYSTEM,
            c.ids,
            c.clock,
            name=unique("jax"),
            reference="nvcr.io/nvidia/jax:24.04-py3",
            cuda_version="12.4",
            scope=ImageScope.GLOBAL,
        )
        template = await volumes.template_create(
            uow,
            sc.actor,
            c.ids,
            c.clock,
            group_id=sc.group,
            name="recipe",
            image_id=cat["image"].id,
            offering_id=cat["offering"].id,
            preset_id=cat["preset"].id,
            env={"EPOCHS": "3", "LR": "0.1"},
            shm_mib=256,
        )
        await uow.commit()
    s = await sessions.session_create(
        c.sessions,
        sc.actor,
        sessions.SessionRequest(name="mine", image_id=other.id, template_id=template.id, env={"LR": "0.01"}),
    )
    assert (s.image_id, s.image_reference) == (other.id, "nvcr.io/nvidia/jax:24.04-py3")  # not the template's
    assert s.preset_id == cat["preset"].id and s.shm_mib == 256 and s.gpu is not None
    assert s.env == {"EPOCHS": "3", "LR": "0.01"} and s.template_id == template.id
    await sessions.session_stop(c.sessions, sc.actor, s.id)
    await wait_state(c, s.id, SessionState.STOPPED, SessionState.FAILED)

"""The admission pipeline on in-memory adapters: each step's refusal with its exact step,
code, field and message, and nothing written when refused; the paths that admit (placed,
queued, CPU-only, behind approval) with what they hold and announce."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from uuid import UUID

import pytest

from domain.credits.model import AccountRef, HoldStatus
from domain.policies.model import PolicyScope, ResourcePolicy
from domain.scheduling.model import Allocation
from domain.sessions import services as s
from domain.sessions.errors import AdmissionRefused
from domain.sessions.model import Expiry, MountMode, MountRequest, SessionKind, SessionState
from domain.volumes import services as volumes
from domain.volumes.model import AccessMode, StorageClass
from tests.unit.sessions.world import A100, SessionsWorld
from tests.unit.tenancy.world import NOW


@pytest.fixture
async def w() -> SessionsWorld:
    return await SessionsWorld.build()


async def refused(w: SessionsWorld, req: s.SessionRequest, actor: str = "member") -> tuple[int, str, str | None, str]:
    before = (dict(w.state.sessions), w.state.capacity.allocations[:], w.state.capacity.queue[:])
    wallet = AccountRef.user(w.t.users[actor].id)
    held = (await w.ledger.balances([wallet]))[wallet].held_micro
    applied = len(w.cluster.applied)
    with pytest.raises(AdmissionRefused) as err:
        await s.session_create(w.svc, w.actor(actor), req)
    e = err.value
    assert (dict(w.state.sessions), w.state.capacity.allocations, w.state.capacity.queue) == before
    assert (await w.ledger.balances([wallet]))[wallet].held_micro == held  # no hold left behind
    assert len(w.cluster.applied) == applied
    return e.step, e.code.value, e.field, e.message


async def test_a_gpu_session_is_placed_holds_its_cost_and_is_handed_to_the_cluster(w: SessionsWorld) -> None:
    x = await s.session_create(w.svc, w.actor("member"), w.request(name=" notebook ", env={"SEED": "7"}))
    assert (x.state, x.name, x.cluster_id, x.placement["node_id"], x.placement["ratio"]) == (
        SessionState.SCHEDULED, "notebook", "c1", "hami-1", "1/4",
    )  # fmt: skip
    assert (x.owner_id, x.group_id, x.organization_id, x.kind, x.priority, x.preemptible) == (
        w.t.users["member"].id, w.t.g1.id, w.t.org_a.id, SessionKind.INTERACTIVE, 0, False,
    )  # fmt: skip
    assert (x.cpu_millicores, x.memory_mib, x.shm_mib, x.disk_gib, x.env) == (2000, 4096, 512, 10, {"SEED": "7"})
    assert x.gpu is not None and (x.gpu.offering_name, x.gpu.ratio, x.gpu.vram_mib, x.gpu.cores, x.gpu.cards) == (
        A100, Fraction(1, 4), 20480, 25, 1,
    )  # fmt: skip
    assert (x.expires_at, x.created_at, x.hold_seq) == (NOW + Expiry.H1.duration, NOW, 1)  # type: ignore[operator]
    hold = await w.ledger.get_hold(x.hold_id)
    # an hour of a quarter card at 3.6 credits a card-hour
    assert hold is not None and (hold.amount_micro, hold.status) == (900_000, HoldStatus.OPEN)
    assert [spec.session_id for spec in w.cluster.applied] == [x.id]
    stored = w.state.sessions[x.id]
    assert stored.state is SessionState.SCHEDULED and stored.hold_id == x.hold_id
    assert [Allocation.from_dict(a).workload_id for a in w.state.capacity.allocations] == [str(x.id)]
    assert [topic for topic, _ in w.state.events] == [
        "capacity", "queue", f"session:{x.id}", f"sessions-of:{x.owner_id}", f"wallet:{x.owner_id}",
    ]  # fmt: skip  # the hold commits with the session (issue 19): its wallet is announced with it


async def test_step1_references_and_cuda(w: SessionsWorld) -> None:
    step1 = "step 1 (references and CUDA): "
    assert await refused(w, w.request(name=" ")) == (1, "INVALID_VALUE", "name", step1 + "name must not be empty")
    assert await refused(w, w.request(name="x" * 64)) == (
        1,
        "INVALID_VALUE",
        "name",
        step1 + "name must be at most 63 characters",
    )
    assert await refused(w, w.request(image_id=UUID(int=1))) == (1, "NOT_FOUND", "imageId", step1 + "image not found")
    assert await refused(w, w.request(preset_id=UUID(int=1))) == (
        1,
        "NOT_FOUND",
        "presetId",
        step1 + "preset not found",
    )
    assert await refused(w, w.request(preset_id=None)) == (
        1, "INVALID_VALUE", "presetId", step1 + "choose a preset or an instance bundle",
    )  # fmt: skip
    assert await refused(w, w.request(offering_id=None)) == (
        1, "INVALID_VALUE", "offeringId", step1 + "a GPU preset needs an offering (the GPU model)",
    )  # fmt: skip
    assert await refused(w, w.request(offering_id=UUID(int=2))) == (
        1,
        "NOT_FOUND",
        "offeringId",
        step1 + "offering not found",
    )
    old = w.cat["old_image"]
    assert await refused(w, w.request(image_id=old.id)) == (
        1, "CUDA_TOO_OLD", "imageId", step1 + f"image old has 10.2; {A100} needs CUDA 11.0 or newer",
    )  # fmt: skip
    assert await refused(w, w.request(), actor="guest") == (
        1, "GUEST_GPU_REFUSED", "presetId", step1 + "guests may start CPU sessions only",
    )  # fmt: skip
    assert await refused(w, w.request(kind=SessionKind.JOB)) == (
        1, "JOB_FRACTION_REFUSED", "presetId",
        step1 + "jobs run on exclusive whole cards only; time-sliced, MIG and fractional capacity is never "
        "offered to jobs (choose an exclusive preset)",
    )  # fmt: skip
    assert await refused(w, w.request(shm_mib=5000)) == (
        1, "INVALID_VALUE", "shmMib", step1 + "shared memory must be between 0 and the session's memory",
    )  # fmt: skip
    assert await refused(w, w.request(preset_id=None, bundle_cpu_millicores=0, bundle_memory_mib=10)) == (
        1, "INVALID_VALUE", "bundleCpuMillicores", step1 + "a session needs CPU",
    )  # fmt: skip
    assert await refused(w, w.request(preset_id=None, bundle_cpu_millicores=10, bundle_memory_mib=0)) == (
        1, "INVALID_VALUE", "bundleMemoryMib", step1 + "a session needs memory",
    )  # fmt: skip
    assert await refused(w, w.request(env={"NVIDIA_VISIBLE_DEVICES": "all"})) == (
        1, "ENV_RESERVED", "env", await _env_message("NVIDIA_VISIBLE_DEVICES"),
    )  # fmt: skip
    outsider = replace(w.actor("member"), active_group_id=None)
    with pytest.raises(AdmissionRefused) as no_group:
        await s.session_create(w.svc, outsider, w.request())
    assert (no_group.value.field, no_group.value.message) == (
        "activeGroup", step1 + "choose an active group first (activeGroupSet)",
    )  # fmt: skip
    offering = w.cat["offering"]
    w.state.offerings[offering.id] = replace(offering, enabled=False)
    assert await refused(w, w.request()) == (1, "NOT_FOUND", "offeringId", step1 + "offering not found")


async def _env_message(name: str) -> str:
    from domain.sessions.environment import check_environment

    try:
        check_environment({name: "x"})
    except Exception as exc:  # the rule's own message, whatever its wording
        return "step 1 (references and CUDA): " + exc.message  # type: ignore[attr-defined]
    raise AssertionError(f"{name} is not reserved")


async def test_step2_mounts(w: SessionsWorld) -> None:
    await w.t.uow.volumes.put_storage_class(
        StorageClass("standard", "", True, (AccessMode.READ_WRITE_ONCE, AccessMode.READ_WRITE_MANY))
    )
    step2 = "step 2 (mount permissions): "
    mine = await volumes.volume_create(
        w.t.uow, w.actor("member"), w.t.ids, w.t.clock, w.policies, name="mine", size_mib=1
    )
    theirs = await volumes.volume_create(
        w.t.uow, w.actor("gadmin"), w.t.ids, w.t.clock, w.policies, name="theirs", size_mib=1
    )
    ro = await volumes.volume_create(
        w.t.uow, w.actor("gadmin"), w.t.ids, w.t.clock, w.policies, name="shared", size_mib=1, group_id=w.t.g1.id,
        member_mode=MountMode.READ_ONLY,
    )  # fmt: skip
    rw = MountMode.READ_WRITE
    for path in ("data", "/a/../b"):
        assert await refused(w, w.request(mounts=(MountRequest(mine.id, path, rw),))) == (
            2, "MOUNT_PATH_INVALID", "mounts", step2 + f"{path!r} is not a usable mount path",
        )  # fmt: skip
    twice = (MountRequest(mine.id, "/d", rw), MountRequest(ro.id, "/d", MountMode.READ_ONLY))
    assert await refused(w, w.request(mounts=twice)) == (
        2,
        "MOUNT_PATH_INVALID",
        "mounts",
        step2 + "'/d' is not a usable mount path",
    )
    assert await refused(w, w.request(mounts=(MountRequest(UUID(int=3), "/d", rw),))) == (
        2, "NOT_FOUND", "mounts", step2 + "volume not found",
    )  # fmt: skip
    assert await refused(w, w.request(mounts=(MountRequest(theirs.id, "/d", MountMode.READ_ONLY),))) == (
        2, "NOT_FOUND", "mounts", step2 + "volume not found",
    )  # fmt: skip
    assert await refused(w, w.request(mounts=(MountRequest(ro.id, "/d", rw),))) == (
        2, "MOUNT_NOT_PERMITTED", "mounts", step2 + "you may not mount volume shared read-write",
    )  # fmt: skip
    ok = await s.session_create(
        w.svc,
        w.actor("member"),
        w.request(mounts=(MountRequest(mine.id, "/d", rw), MountRequest(ro.id, "/r", MountMode.READ_ONLY))),
    )
    assert [(m.volume_id, m.mount_path, m.mode) for m in ok.mounts] == [
        (mine.id, "/d", rw),
        (ro.id, "/r", MountMode.READ_ONLY),
    ]


async def test_step3_and_step4(w: SessionsWorld) -> None:
    assert await refused(w, w.request(wallet_user_id=w.t.users["gadmin"].id)) == (
        3, "WALLET_NOT_OWN", "walletUserId", "step 3 (wallet): sessions are billed to your own wallet only",
    )  # fmt: skip
    me = await s.session_create(w.svc, w.actor("member"), w.request(wallet_user_id=w.t.users["member"].id))
    assert me.state is SessionState.SCHEDULED
    group = PolicyScope.group(w.t.g1.id)
    await w.policies.put(ResourcePolicy(group, max_gpus=Fraction(1, 2)))
    await s.session_create(w.svc, w.actor("gadmin"), w.request())  # 0.5 of 0.5 now
    assert await refused(w, w.request()) == (
        4, "POLICY_LIMIT_EXCEEDED", "max_gpus", "step 4 (policy limits): group G1 uses 0.5 of 0.5 GPUs; this asks 0.25",
    )  # fmt: skip
    await w.policies.put(ResourcePolicy(group, max_session_seconds=3600))
    assert await refused(w, w.request(expiry=Expiry.H4)) == (
        4, "INVALID_EXPIRY", "expiry",
        "step 4 (policy limits): sessions here may last at most 1:00:00; choose a shorter expiry",
    )  # fmt: skip
    assert await refused(w, w.request(expiry=Expiry.NONE)) == (
        4, "INVALID_EXPIRY", "expiry",
        "step 4 (policy limits): sessions here may last at most 1:00:00; choose a shorter expiry",
    )  # fmt: skip
    assert (await s.session_create(w.svc, w.actor("member"), w.request(expiry=Expiry.H1))).expiry is Expiry.H1


async def test_step6_and_the_cpu_path(w: SessionsWorld) -> None:
    poor = await SessionsWorld.build(credits_=0)
    with pytest.raises(AdmissionRefused) as short:
        await s.session_create(poor.svc, poor.actor("member"), poor.request())
    assert (short.value.step, short.value.code.value) == (6, "INSUFFICIENT_CREDITS")
    assert short.value.message.startswith("step 6 (credit hold): ")
    assert poor.state.sessions == {}
    cpu = await s.session_create(poor.svc, poor.actor("member"), poor.request("cpu", offering_id=None))
    assert (cpu.state, cpu.gpu, cpu.hold_id, cpu.placement["node_id"]) == (SessionState.SCHEDULED, None, None, "cpu-1")
    guest = await s.session_create(poor.svc, poor.actor("guest"), poor.request("cpu", offering_id=None))
    assert guest.state is SessionState.SCHEDULED  # a guest's CPU session is fine
    bundle = await s.session_create(
        poor.svc, poor.actor("member"), poor.request(preset_id=None, bundle_cpu_millicores=1000, bundle_memory_mib=2048)
    )
    assert (bundle.cpu_millicores, bundle.memory_mib, bundle.shm_mib, bundle.disk_gib) == (1000, 2048, 512, 20)


async def test_queued_when_nothing_fits_and_behind_approval(w: SessionsWorld) -> None:
    whole = [await s.session_create(w.svc, w.actor("member"), w.request("whole", name=f"w{i}")) for i in range(2)]
    assert [x.state for x in whole] == [SessionState.SCHEDULED, SessionState.SCHEDULED]
    waiting = await s.session_create(w.svc, w.actor("member"), w.request("whole", name="third"))
    assert waiting.state is SessionState.QUEUED and waiting.hold_id is None and waiting.queued_at == NOW
    assert waiting.state_reason.startswith("waiting for capacity: ")
    assert [e["request"]["workload_id"] for e in w.state.capacity.queue] == [str(waiting.id)]
    wallet = AccountRef.user(w.t.users["member"].id)
    held = (await w.ledger.balances([wallet]))[wallet].held_micro
    assert held == 2 * 3_600_000  # the two placed whole cards, one hour each; the queued one holds nothing
    await w.policies.put(ResourcePolicy(PolicyScope.user(w.t.users["gadmin"].id), approval_required=True))
    pending = await s.session_create(w.svc, w.actor("gadmin"), w.request())
    assert (pending.state, pending.state_reason) == (SessionState.PENDING_APPROVAL, "waiting for an admin's approval")
    assert pending.hold_id is not None and pending.placement is None
    assert "approvals" in [topic for topic, _ in w.state.events]


async def test_a_job_runs_at_the_lowest_priority_and_may_be_preempted(w: SessionsWorld) -> None:
    job = await s.session_create(w.svc, w.actor("member"), w.request("whole", kind=SessionKind.JOB))
    assert (job.kind, job.priority, job.preemptible, job.state) == (
        SessionKind.JOB,
        -1000,
        True,
        SessionState.SCHEDULED,
    )
    await w.policies.put(ResourcePolicy(PolicyScope.group(w.t.g1.id), default_priority=5, preemptible=True))
    x = await s.session_create(w.svc, w.actor("member"), w.request())
    assert (x.priority, x.preemptible) == (5, True)
    job2 = await s.session_create(w.svc, w.actor("member"), w.request("whole", kind=SessionKind.JOB, name="j2"))
    assert job2.priority == -1000


def test_a_refusal_carries_its_causes_parameters() -> None:
    from domain.common.errors import CommonErrorCode, DomainError
    from domain.sessions.errors import AdmissionRefused

    cause = DomainError(CommonErrorCode.INVALID_VALUE, "at most 2 GPUs", "presetId", {"limit": "2"})
    refused = AdmissionRefused(4, "policy limits", cause)
    assert (refused.code, refused.message, refused.field, refused.params, refused.step) == (
        CommonErrorCode.INVALID_VALUE, "step 4 (policy limits): at most 2 GPUs", "presetId", {"limit": "2"}, 4,
    )  # fmt: skip

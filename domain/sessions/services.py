"""Session use cases: the eight-step admission pipeline, the lifecycle (pause, resume, stop,
extend, approve, reject), status reports from clusters, and queue drain.

Transactions. Credits live in their own ledger (each call atomic and idempotent), capacity
and sessions in the unit of work. Admission therefore runs as a short saga: read-only checks
(steps 1–5), the hold (step 6, idempotency key per session and hold number), then one
transaction that takes the capacity lock, re-checks the policy limits with fresh numbers,
places or queues (step 7) and writes the session; if that transaction fails the hold is
released. The hand-off to the cluster (step 8) happens after commit. Every ledger movement
is keyed, so a retried or repeated request never moves credits twice.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, nullcontext
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from fractions import Fraction
from typing import Protocol
from uuid import UUID

from domain.audit.model import AuditEntry
from domain.catalog.errors import CatalogError, CatalogErrorCode
from domain.catalog.model import (
    GpuLimits,
    Image,
    Offering,
    Preset,
    Registry,
    check_cuda_compatible,
    class_members,
    gpu_limits,
)
from domain.catalog.services import MAX_CLASS_SCAN, can_see_image
from domain.common.clock import Clock, IdGenerator
from domain.common.errors import DomainError, InvalidValueError, NotFoundError, PermissionDeniedError
from domain.common.validation import clean_name
from domain.credits import services as credits
from domain.credits.model import AccountRef, Attribution, Balance, HoldRequest, HoldStatus, check_can_pay
from domain.credits.ports import BudgetRepository, Ledger, WalletHolds
from domain.inventory.model import GpuKind, Placement
from domain.inventory.ports import (
    AppliesMany,
    Endpoint,
    PullSecret,
    StatusReport,
    VolumeClaimSpec,
    VolumeMount,
    WorkloadPhase,
    WorkloadSpec,
)
from domain.policies.model import EffectivePolicy, ResourceRequest, ScopeChain, check
from domain.policies.ports import PolicyRepository, UsageReader
from domain.policies.services import check_policy_limits, effective_policy
from domain.ports import UnitOfWork
from domain.scheduling import services as scheduling
from domain.scheduling.errors import JobCapacityRefused, SchedulingError, SchedulingErrorCode
from domain.scheduling.model import CPU_QUEUE, Allocation, GpuRequest, ModelChoice
from domain.scheduling.scheduler import Scheduler
from domain.sessions.environment import check_environment, without_reserved
from domain.sessions.errors import AdmissionRefused, SessionError, SessionErrorCode
from domain.sessions.model import (
    MAX_BACKOFF_LIMIT,
    MAX_COMMAND_CHARS,
    MAX_COMMAND_ITEM_CHARS,
    MAX_COMMAND_ITEMS,
    STANDARD_PORTS,
    TRANSITIONS,
    Endpoints,
    Expiry,
    GpuAsk,
    GpuChoice,
    JobRun,
    MountMode,
    MountRequest,
    Session,
    SessionKind,
    SessionState,
    clip_log_tail,
)
from domain.sessions.model import StateReasonCode as RC
from domain.sessions.ports import (
    Billing,
    BillingResult,
    CapacityState,
    CapacityStore,
    ClusterRegistry,
    Notification,
    NotificationRepository,
    SessionFilter,
    SessionRepository,
    TemplateRepository,
    VolumeRepository,
)
from domain.tenancy import access
from domain.tenancy.access import administered_group_ids
from domain.tenancy.model import Actor, Group
from domain.volumes.errors import VolumeError, VolumeErrorCode
from domain.volumes.model import Volume, allowed_mount_mode, can_see_volume, claim_name, mode_permits

log = logging.getLogger(__name__)
S = SessionState
STEPS = {
    1: "references and CUDA",
    2: "mount permissions",
    3: "wallet",
    4: "policy limits",
    5: "budget gate",
    6: "credit hold",
    7: "placement",
    8: "hand-off",
}


class SessionsUnitOfWork(UnitOfWork, Protocol):
    async def __aenter__(self) -> SessionsUnitOfWork: ...

    @property
    def sessions(self) -> SessionRepository: ...

    @property
    def volumes(self) -> VolumeRepository: ...

    @property
    def templates(self) -> TemplateRepository: ...

    @property
    def notifications(self) -> NotificationRepository: ...

    @property
    def capacity(self) -> CapacityStore: ...

    @property
    def usage(self) -> UsageReader: ...

    @property
    def holds(self) -> WalletHolds: ...


@dataclass
class SessionServices:
    """What the session use cases need, wired by the composition root."""

    uow: Callable[[], SessionsUnitOfWork]
    clock: Clock
    ids: IdGenerator
    ledger: Ledger
    budgets: BudgetRepository
    policies: PolicyRepository
    clusters: ClusterRegistry
    hold_window_seconds: int = 3600
    public_url: str = "http://127.0.0.1:8000"
    # bounds how many admissions run at once in this process (each uses a few database
    # connections while it waits for the capacity lock); None = unbounded
    admission_gate: Callable[[], AbstractAsyncContextManager[object]] | None = None
    # meters and settles sessions (charges, holds and `charged_micro` in one transaction)
    billing: Billing = field(default_factory=lambda: _NoBilling())
    # group commit of this process's admissions (issue 19); `AdmissionBatcher(1)` decides one at a time
    admissions: AdmissionBatcher = field(default_factory=lambda: AdmissionBatcher())

    def gate(self) -> AbstractAsyncContextManager[object]:
        return self.admission_gate() if self.admission_gate is not None else nullcontext()


class _NoBilling:
    """Until the composition root wires a `Billing` adapter: refuses rather than skip charges."""

    async def bill(self, now: datetime, session_ids: Sequence[UUID] | None, *, close: bool) -> BillingResult:
        raise RuntimeError("SessionServices.billing is not wired")


@dataclass(frozen=True)
class SessionRequest:
    name: str
    image_id: UUID
    preset_id: UUID | None = None
    offering_id: UUID | None = None
    template_id: UUID | None = None
    # an instance bundle instead of a preset: CPU/memory and N whole cards (0 = CPU only)
    bundle_cpu_millicores: int | None = None
    bundle_memory_mib: int | None = None
    bundle_gpus: int | None = None
    expiry: Expiry = Expiry.H4
    mounts: tuple[MountRequest, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    shm_mib: int | None = None
    cluster: str | None = None
    shared: bool = False  # ask for a time-slice instead of a HAMi/MIG fraction
    kind: SessionKind = SessionKind.INTERACTIVE
    wallet_user_id: UUID | None = None
    # batch jobs only: what runs (Kubernetes `command` / `args`) and how often a failed run is retried
    command: tuple[str, ...] = ()
    args: tuple[str, ...] = ()
    backoff_limit: int | None = None


@dataclass
class _Effects:
    """What to do after commit: cluster calls, ledger settlements, events."""

    apply: list[UUID] = field(default_factory=list)
    pause: list[tuple[UUID, str]] = field(default_factory=list)
    delete: list[tuple[UUID, str]] = field(default_factory=list)
    settle: list[UUID] = field(default_factory=list)
    release_holds: list[UUID] = field(default_factory=list)
    readmit: list[UUID] = field(default_factory=list)
    # sessions this request just wrote and placed, with their image: the hand-off reuses them
    handed: dict[UUID, tuple[Session, Image | None]] = field(default_factory=dict)
    # the hand-off of its batch's fresh sessions, under way (one call per cluster for all)
    batch: _BatchHandOff | None = None


def session_topic(session_id: UUID) -> str:
    return f"session:{session_id}"


def owner_topic(user_id: UUID) -> str:
    return f"sessions-of:{user_id}"


CAPACITY_TOPIC = "capacity"
QUEUE_TOPIC = "queue"
APPROVALS_TOPIC = "approvals"  # sessions waiting for an admin's approval


def wallet_topic(user_id: UUID) -> str:
    return f"wallet:{user_id}"


def notifications_topic(user_id: UUID) -> str:
    return f"notifications:{user_id}"


def _refuse(step: int, cause: DomainError) -> AdmissionRefused:
    return AdmissionRefused(step, STEPS[step], cause)


# ======================================================================== reading


def can_see_session(actor: Actor, s: Session) -> bool:
    return can_see_session_of(actor, s.owner_id, s.group_id, s.organization_id)


def can_see_session_of(actor: Actor, owner_id: UUID, group_id: UUID, organization_id: UUID) -> bool:
    """The same rule from a session event's payload (it names the owner and the scope)."""
    return (
        owner_id == actor.user_id
        or actor.is_org_admin(organization_id)
        or actor.is_group_admin(group_id, organization_id)
    )


def session_event(s: Session) -> dict[str, str]:
    """What every session event says: which session, its state, and whose it is."""
    return {
        "sessionId": str(s.id),
        "state": s.state.value,
        "ownerId": str(s.owner_id),
        "groupId": str(s.group_id),
        "organizationId": str(s.organization_id),
    }


def admin_session_filter(
    actor: Actor,
    *,
    organization_id: UUID | None = None,
    group: Group | None = None,
    states: frozenset[SessionState] | None = None,
) -> SessionFilter:
    """The sessions an admin list shows: everything for super_admins; for others the
    organisations and groups they administer; a non-admin sees only their own. An asked
    organisation or group narrows that reach (it never widens it); the caller has checked that
    the actor may see the asked scopes (`sessions_filter`)."""
    if group is not None and organization_id is not None and group.organization_id != organization_id:
        return SessionFilter(group_ids=frozenset(), states=states)  # a group outside the asked organisation
    if actor.is_super_admin:
        if group is not None:
            return SessionFilter(group_ids=frozenset({group.id}), states=states)
        return SessionFilter(organization_ids=frozenset({organization_id}) if organization_id else None, states=states)
    if group is not None:
        if actor.is_group_admin(group.id, group.organization_id):
            return SessionFilter(group_ids=frozenset({group.id}), states=states)
        return SessionFilter(owner_id=actor.user_id, group_ids=frozenset({group.id}), states=states)
    orgs = actor.org_admin_of
    groups = administered_group_ids(actor)
    if organization_id is not None:
        if actor.is_org_admin(organization_id):
            return SessionFilter(organization_ids=frozenset({organization_id}), states=states)
        orgs = frozenset()
        groups = frozenset(g for g in groups if actor.group_orgs.get(g) == organization_id)
    if not orgs and not groups:
        own_orgs = frozenset({organization_id}) if organization_id is not None else None
        return SessionFilter(owner_id=actor.user_id, organization_ids=own_orgs, states=states)
    return SessionFilter(organization_ids=frozenset(orgs), group_ids=frozenset(groups), states=states)


async def sessions_filter(
    uow: SessionsUnitOfWork,
    actor: Actor,
    *,
    organization_id: UUID | None = None,
    group_id: UUID | None = None,
    states: frozenset[SessionState] | None = None,
) -> SessionFilter:
    """The `sessions` list's filter: an asked organisation or group the actor may not see
    answers NOT_FOUND, exactly as one that does not exist."""
    if organization_id is not None and not access.can_see_organization_id(actor, organization_id):
        raise NotFoundError("organization", "organizationId")
    group = None
    if group_id is not None:
        group = await uow.tenancy.get_group(group_id)
        if group is None or not access.can_see_group(actor, group):
            raise NotFoundError("group", "groupId")
    return admin_session_filter(actor, organization_id=organization_id, group=group, states=states)


def approvals_filter(actor: Actor) -> SessionFilter | None:
    """Sessions waiting for the actor's approval; None when the actor approves nothing."""
    pending = frozenset({S.PENDING_APPROVAL})
    if actor.is_super_admin:
        return SessionFilter(states=pending)
    groups = administered_group_ids(actor)
    if not actor.org_admin_of and not groups:
        return None
    return SessionFilter(organization_ids=actor.org_admin_of, group_ids=groups, states=pending)


async def session_get(uow: SessionsUnitOfWork, actor: Actor, session_id: UUID) -> Session:
    s = await uow.sessions.get(session_id)
    if s is None or not can_see_session(actor, s):
        raise NotFoundError("session")
    return s


def _chain(actor: Actor, group_id: UUID, org_id: UUID, names: tuple[str, str, str] = ("", "", "")) -> ScopeChain:
    return ScopeChain(actor.user_id, group_id, org_id, names[0] or actor.username, names[1], names[2])


async def _chain_for(uow: SessionsUnitOfWork, user_id: UUID, username: str, group_id: UUID, org_id: UUID) -> ScopeChain:
    group = await uow.tenancy.get_group(group_id)
    org = await uow.tenancy.get_organization(org_id)
    return ScopeChain(user_id, group_id, org_id, username, group.name if group else "", org.name if org else "")


# ======================================================================== admission


async def _check_limits(uow: SessionsUnitOfWork, policy: EffectivePolicy, request: ResourceRequest) -> None:
    """Step 4 with the policy already resolved: usage is read only for the scopes that set an
    aggregate limit (most deployments limit a few groups, not every level)."""
    scopes = tuple(dict.fromkeys(limit.scope for limit in policy.limits))
    usage = await uow.usage.usage(scopes) if scopes else {}
    check(policy, usage, request).raise_if_refused()


@dataclass
class _Resolved:
    session: Session
    chain: ScopeChain
    policy: EffectivePolicy
    offering: Offering | None
    request: ResourceRequest
    warnings: list[str]
    image: Image | None = None


def _resources(gpu: GpuAsk | None, cpu_millicores: int, memory_mib: int, cluster: str | None = None) -> ResourceRequest:
    """What a session counts for against policy limits (as `UsageReader.usage` counts it)."""
    return ResourceRequest(
        gpu_ratio=gpu.ratio if gpu else Fraction(0),
        model=gpu.offering_name if gpu else None,
        vram_mib=gpu.vram_mib * gpu.cards if gpu else 0,
        cpu_millicores=cpu_millicores,
        memory_mib=memory_mib,
        cluster=cluster,
    )


async def _resolve(svc: SessionServices, uow: SessionsUnitOfWork, actor: Actor, req: SessionRequest) -> _Resolved:
    """Steps 1–5 (read-only)."""
    now = svc.clock.now()
    # ---- step 1: references and CUDA
    try:
        check_environment(req.env)
        job = job_run(req)
        name = clean_name(req.name, "name", 63)
        if actor.active_group_id is None or actor.active_group_id not in actor.group_roles:
            raise InvalidValueError("activeGroup", "choose an active group first (activeGroupSet)")
        group_id = actor.active_group_id
        org_id = actor.group_orgs[group_id]
        template = None
        preset_id, offering_id, env, shm, mounts = (
            req.preset_id,
            req.offering_id,
            dict(req.env),
            req.shm_mib,
            req.mounts,
        )
        image_id = req.image_id
        cpu, mem = req.bundle_cpu_millicores, req.bundle_memory_mib
        if req.template_id is not None:
            template = await uow.templates.get(req.template_id)
            if template is None or template.group_id not in actor.group_roles:
                raise NotFoundError("template", "templateId")
            # what the request names wins over the template (its image too: the request always
            # names one, and the console sends the template's own when it keeps it)
            preset_id = preset_id or template.preset_id
            offering_id = offering_id or template.offering_id
            cpu = cpu or template.cpu_millicores
            mem = mem or template.memory_mib
            shm = shm if shm is not None else template.shm_mib
            env = {**template.env, **env}
            check_environment(env)  # a template saved before the rule was reserved
            mounts = tuple(MountRequest(m.volume_id, m.mount_path, m.mode) for m in template.mounts) + tuple(mounts)
        image = await uow.catalog.get_image(image_id)
        if image is None or not can_see_image(actor, image):
            raise NotFoundError("image", "imageId")
        preset: Preset | None = None
        if preset_id is not None:
            preset = await uow.catalog.get_preset(preset_id)
            if preset is None:
                raise NotFoundError("preset", "presetId")
        elif req.bundle_gpus is None and cpu is None:
            raise InvalidValueError("presetId", "choose a preset or an instance bundle")
        wants_gpu = (preset is not None and not preset.cpu_only) or (preset is None and (req.bundle_gpus or 0) > 0)
        offering: Offering | None = None
        gpu: GpuAsk | None = None
        if wants_gpu:
            if actor.is_guest_only():
                raise SessionError(SessionErrorCode.GUEST_GPU_REFUSED, "guests may start CPU sessions only", "presetId")
            if offering_id is None:
                raise InvalidValueError("offeringId", "a GPU preset needs an offering (the GPU model)")
            offering = await uow.catalog.get_offering(offering_id)
            if offering is None or not offering.enabled:
                raise NotFoundError("offering", "offeringId")
            check_cuda_compatible(image, offering)
            if offering.card_class is None:
                gpu = _gpu_ask(offering, preset, req)
            else:
                offerings, _ = await uow.catalog.list_offerings(0, MAX_CLASS_SCAN, enabled_only=True)
                gpu = _class_gpu_ask(offering, offerings, image, preset, req)
        if req.kind is SessionKind.JOB and gpu is not None and not gpu.exclusive:
            raise JobCapacityRefused(
                _job_code(gpu),
                "jobs run on exclusive whole cards only; time-sliced, MIG and fractional capacity is never "
                "offered to jobs (choose an exclusive preset)",
                "presetId",
            )
        cpu_millicores = preset.cpu_millicores if preset else int(cpu or 0)
        memory_mib = preset.memory_mib if preset else int(mem or 0)
        if cpu_millicores <= 0:
            raise InvalidValueError("bundleCpuMillicores", "a session needs CPU")
        if memory_mib <= 0:
            raise InvalidValueError("bundleMemoryMib", "a session needs memory")
        shm_mib = shm if shm is not None else (preset.shm_mib if preset else min(1024, memory_mib // 4))
        if shm_mib < 0 or shm_mib > memory_mib:
            raise InvalidValueError("shmMib", "shared memory must be between 0 and the session's memory")
        if gpu is not None:
            GpuRequest(
                "check",
                gpu.offering_name,
                vram_mib=0 if gpu.exclusive else gpu.vram_mib,
                cores=0 if gpu.exclusive else gpu.cores,
                exclusive_cards=gpu.cards if gpu.exclusive else 0,
                shared=gpu.shared,
                is_job=req.kind is SessionKind.JOB,
                choices=_model_choices(gpu),
            ).validate()
    except (DomainError, CatalogError) as exc:
        raise _refuse(1, exc) from exc

    # ---- step 2: mount permissions
    try:
        seen_paths: set[str] = set()
        for m in mounts:
            if not m.mount_path.startswith("/") or ".." in m.mount_path.split("/") or m.mount_path in seen_paths:
                raise VolumeError(
                    VolumeErrorCode.MOUNT_PATH_INVALID, f"{m.mount_path!r} is not a usable mount path", "mounts"
                )
            seen_paths.add(m.mount_path)
            volume = await uow.volumes.get(m.volume_id)
            if volume is None:
                if template is not None and any(t.volume_id == m.volume_id for t in template.mounts):
                    raise VolumeError(
                        VolumeErrorCode.VOLUME_GONE,
                        f"template {template.name} mounts a volume that no longer exists ({m.volume_id}) at {m.mount_path}",
                        "templateId",
                    )
                raise NotFoundError("volume", "mounts")
            if not can_see_volume(actor, volume):
                raise NotFoundError("volume", "mounts")
            if not mode_permits(allowed_mount_mode(actor, volume), m.mode):
                raise SessionError(
                    SessionErrorCode.MOUNT_NOT_PERMITTED,
                    f"you may not mount volume {volume.name} {'read-write' if m.mode == MountMode.READ_WRITE else 'at all'}",
                    "mounts",
                )
    except DomainError as exc:
        raise _refuse(2, exc) from exc

    # ---- step 3: wallet
    if req.wallet_user_id is not None and req.wallet_user_id != actor.user_id:
        raise _refuse(
            3,
            SessionError(
                SessionErrorCode.WALLET_NOT_OWN, "sessions are billed to your own wallet only", "walletUserId"
            ),
        )

    chain = await _chain_for(uow, actor.user_id, actor.username, group_id, org_id)
    policy = await effective_policy(svc.policies, chain)
    resource = _resources(gpu, cpu_millicores, memory_mib, req.cluster)
    # ---- step 4: policy limits (jobs run outside group quotas)
    max_seconds = policy.setting("max_session_seconds")
    try:
        if max_seconds is not None:
            duration = req.expiry.duration
            if duration is None or duration.total_seconds() > max_seconds:
                raise SessionError(
                    SessionErrorCode.INVALID_EXPIRY,
                    f"sessions here may last at most {timedelta(seconds=max_seconds)}; choose a shorter expiry",
                    "expiry",
                )
        if req.kind is not SessionKind.JOB:
            await _check_limits(uow, policy, resource)
    except DomainError as exc:
        raise _refuse(4, exc) from exc

    # ---- step 5: budget gate (GPU work only)
    warnings: list[str] = []
    if gpu is not None:
        gate = await credits.evaluate_budget_gate(svc.budgets, svc.ledger, chain, now)
        if not gate.allowed:
            try:
                gate.raise_if_refused()
            except DomainError as exc:
                raise _refuse(5, exc) from exc
        warnings = [w.message() for w in gate.warnings]

    priority = int(policy.setting("default_priority") or 0)
    preemptible = bool(policy.setting("preemptible"))
    if req.kind is SessionKind.JOB:
        priority, preemptible = min(priority, -1000), True  # jobs: lowest priority, always preemptible
    duration = req.expiry.duration
    session = Session(
        id=svc.ids.new_id(),
        name=name,
        owner_id=actor.user_id,
        organization_id=org_id,
        group_id=group_id,
        kind=req.kind,
        state=S.QUEUED,
        image_id=image.id,
        image_reference=image.reference,
        preset_id=preset.id if preset else None,
        cpu_millicores=cpu_millicores,
        memory_mib=memory_mib,
        shm_mib=shm_mib,
        disk_gib=preset.disk_gib if preset else 20,
        gpu=gpu,
        expiry=req.expiry,
        created_at=now,
        updated_at=now,
        priority=priority,
        preemptible=preemptible,
        env=env,
        mounts=tuple(mounts),
        template_id=req.template_id,
        requested_cluster=req.cluster,
        expires_at=now + duration if duration is not None else None,
        job=job,
    )
    return _Resolved(session, chain, policy, offering, resource, warnings, image)


def job_run(req: SessionRequest) -> JobRun | None:
    """A job's command, arguments and back-off limit, checked; None for an interactive session
    (which runs its image's own entrypoint and takes none of them)."""
    if req.kind is not SessionKind.JOB:
        for field_name, given in (("command", req.command), ("args", req.args)):
            if given:
                raise InvalidValueError(field_name, "only batch jobs take a command and arguments")
        if req.backoff_limit is not None:
            raise InvalidValueError("backoffLimit", "only batch jobs are retried")
        return None
    for field_name, items in (("command", req.command), ("args", req.args)):
        if len(items) > MAX_COMMAND_ITEMS:
            raise InvalidValueError(field_name, f"at most {MAX_COMMAND_ITEMS} items")
        for item in items:
            if len(item) > MAX_COMMAND_ITEM_CHARS:
                raise InvalidValueError(field_name, f"an item has at most {MAX_COMMAND_ITEM_CHARS} characters")
            if "\x00" in item:
                raise InvalidValueError(field_name, "an item may not contain a NUL character")
    if sum(len(i) for i in (*req.command, *req.args)) > MAX_COMMAND_CHARS:
        raise InvalidValueError("command", f"command and arguments have at most {MAX_COMMAND_CHARS} characters")
    limit = 0 if req.backoff_limit is None else req.backoff_limit
    if not 0 <= limit <= MAX_BACKOFF_LIMIT:
        raise InvalidValueError("backoffLimit", f"a back-off limit is 0 to {MAX_BACKOFF_LIMIT} retries")
    return JobRun(command=tuple(req.command), args=tuple(req.args), backoff_limit=limit)


def _job_code(gpu: GpuAsk | None) -> SchedulingErrorCode:
    if gpu is not None and gpu.shared:
        return SchedulingErrorCode.JOB_TIMESLICE_REFUSED
    return SchedulingErrorCode.JOB_FRACTION_REFUSED


def _gpu_ask(offering: Offering, preset: Preset | None, req: SessionRequest) -> GpuAsk:
    if preset is None:  # an instance bundle: N whole cards
        cards = int(req.bundle_gpus or 0)
        limits = GpuLimits(offering.vram_mib, offering.cores, cards, Fraction(cards), True)
    else:
        found = gpu_limits(offering, preset)
        assert found is not None
        limits = found
    shared = req.shared and not limits.exclusive
    ratio = limits.ratio
    return GpuAsk(
        offering.id,
        offering.name,
        limits.vram_mib,
        limits.cores,
        limits.cards,
        limits.exclusive,
        shared,
        ratio,
        offering.hourly_rate_micro,
    )


def _class_gpu_ask(
    offering: Offering, offerings: Sequence[Offering], image: Image, preset: Preset | None, req: SessionRequest
) -> GpuAsk:
    """An offering naming a class of cards: the preset on every card of the class the image
    can drive (cards it does not fit are left out); priced at the dearest until placed."""
    members = class_members(offering, offerings)
    if not members:
        raise InvalidValueError("offeringId", f"no enabled card model belongs to {offering.name}")
    runnable = class_members(offering, offerings, image)
    if not runnable:
        have = str(image.cuda_version) if image.cuda_version else "no CUDA"
        raise CatalogError(
            CatalogErrorCode.CUDA_TOO_OLD,
            f"image {image.name} has {have}; no card of {offering.name} runs it",
            "imageId",
        )
    asks: list[GpuAsk] = []
    refusal: CatalogError | None = None
    for card in runnable:
        try:
            asks.append(_gpu_ask(card, preset, req))
        except CatalogError as exc:  # the preset does not fit this card
            refusal = refusal or exc
    if not asks:
        assert refusal is not None
        raise refusal
    if len({a.exclusive for a in asks}) > 1 or len({a.cards for a in asks}) > 1:
        raise InvalidValueError(
            "presetId",
            f"the preset takes whole cards on some cards of {offering.name} and a share on others; "
            "choose a tier preset",
        )
    choices = tuple(GpuChoice(a.offering_name, a.vram_mib, a.cores, a.ratio, a.hourly_rate_micro) for a in asks)
    first = asks[0]
    ask = GpuAsk(
        offering.id,
        offering.name,
        first.vram_mib,
        first.cores,
        first.cards,
        first.exclusive,
        first.shared,
        first.ratio,
        first.hourly_rate_micro,
        choices=choices,
    )
    dearest = ask.dearest
    assert dearest is not None
    return replace(
        ask,
        vram_mib=dearest.vram_mib,
        cores=dearest.cores,
        ratio=dearest.ratio,
        hourly_rate_micro=dearest.hourly_rate_micro,
    )


def _model_choices(g: GpuAsk) -> tuple[ModelChoice, ...]:
    """The models a class-of-cards ask may be placed on, with its size and rate on each."""
    return tuple(
        ModelChoice(c.model, 0 if g.exclusive else c.vram_mib, 0 if g.exclusive else c.cores, c.hourly_rate_micro)
        for c in g.choices
    )


def _waiting_reason(scheduler: Scheduler, request: GpuRequest) -> tuple[str, dict[str, str]]:
    """The English reason and the state reason's parameters (shortfall and its numbers)."""
    short = scheduler.why_short(request)
    return f"waiting for capacity: {short.text}", short.params()


def _request(s: Session, clusters: frozenset[str] | None) -> GpuRequest:
    """What the scheduler places for a session: its GPU ask, or CPU and memory only (a
    CPU-only session waits in the CPU queue and is placed like any other request)."""
    g = s.gpu
    if g is None:
        return GpuRequest(
            workload_id=str(s.id),
            offering=CPU_QUEUE,
            cpu_only=True,
            cpu_millicores=s.cpu_millicores,
            memory_mib=s.memory_mib,
            priority=s.priority,
            is_job=s.kind is SessionKind.JOB,
            preemptible=s.preemptible,
            clusters=frozenset({s.requested_cluster}) if s.requested_cluster else clusters,
        )
    forced = GpuKind(g.forced_kind) if g.forced_kind else None
    return GpuRequest(
        workload_id=str(s.id),
        offering=g.offering_name,
        vram_mib=0 if g.exclusive else g.vram_mib,
        cores=0 if g.exclusive else g.cores,
        exclusive_cards=g.cards if g.exclusive else 0,
        shared=g.shared,
        cpu_millicores=s.cpu_millicores,
        memory_mib=s.memory_mib,
        priority=s.priority,
        is_job=s.kind is SessionKind.JOB,
        preemptible=s.preemptible,
        clusters=frozenset({s.requested_cluster}) if s.requested_cluster else clusters,
        forced_kind=forced,
        hourly_rate_micro=g.hourly_rate_micro,
        choices=_model_choices(g),
    )


def hold_estimate(svc: SessionServices, s: Session) -> int:
    """rate × ratio × the shorter of the time left before expiry and the hold window; a new
    session counts its whole chosen expiry (the clock has not started)."""
    g = s.gpu
    assert g is not None
    remaining = None
    if s.expires_at is not None:
        if s.hold_seq == 0 and s.expiry.duration is not None:
            remaining = int(s.expiry.duration.total_seconds())
        else:
            remaining = max(60, int((s.expires_at - svc.clock.now()).total_seconds()))
    rate, ratio = g.hold_basis()
    return credits.estimate_hold_micro(rate, ratio, remaining, svc.hold_window_seconds)


async def _reserve(svc: SessionServices, s: Session, chain: ScopeChain) -> Session:
    """Step 6: reserve the estimated cost; the key makes a retried admission reserve once."""
    seq = s.hold_seq + 1
    try:
        result = await credits.reserve_hold(
            svc.ledger,
            svc.clock,
            svc.ids,
            chain=chain,
            amount_micro=hold_estimate(svc, s),
            idempotency_key=f"session:{s.id}:hold:{seq}",
            memo=f"session {s.name}",
        )
    except DomainError as exc:
        raise _refuse(6, exc) from exc
    return replace(s, hold_id=result.hold.id, hold_seq=seq)


AuditOf = Callable[[Session], AuditEntry]


async def session_create(
    svc: SessionServices, actor: Actor, req: SessionRequest, *, audit: AuditOf | None = None
) -> Session:
    """The eight steps. `audit`, when given, makes the admitted session's audit entry, written
    in the transaction that writes the session (a refusal is the caller's to audit)."""
    access.require_writable(actor)
    async with svc.gate():
        return await _session_create(svc, actor, req, audit)


async def _session_create(svc: SessionServices, actor: Actor, req: SessionRequest, audit: AuditOf | None) -> Session:
    async with svc.uow() as uow:
        resolved = await _resolve(svc, uow, actor, req)
    if not resolved.policy.setting("approval_required"):
        s, effects = await svc.admissions.decide(svc, _Admission(actor, resolved, audit))
        await _run_effects(svc, effects)
        return s
    s = resolved.session
    if s.gpu is not None:
        s = await _reserve(svc, s, resolved.chain)
    reserved = s.hold_id
    try:
        async with svc.uow() as uow:
            s = replace(
                s,
                state=S.PENDING_APPROVAL,
                state_reason="waiting for an admin's approval",
                state_reason_code=RC.WAITING_FOR_APPROVAL.value,
            )
            await uow.sessions.add(s)
            _notify_admins_later(uow, s)
            for w in resolved.warnings:
                await _notify(svc, uow, s.owner_id, "budget_warning", w, s.id)
            _publish_session(uow, s)
            if audit is not None:
                await uow.audit.append(audit(s))
            await uow.commit()
    except BaseException:
        if reserved is not None:
            await credits.release_hold(svc.ledger, svc.clock, hold_id=reserved)
        raise
    return s


@dataclass
class _Admission:
    """One request past steps 1–5, waiting for steps 6 and 7 under the capacity lock."""

    actor: Actor
    resolved: _Resolved
    audit: AuditOf | None = None
    outcome: asyncio.Future[tuple[Session, _Effects]] | None = None


class AdmissionBatcher:
    """Group commit (issue 19). Admissions of this process that wait for the capacity lock
    are decided together, in arrival order, in one transaction: one lock, one capacity save,
    the session rows, their holds and audit entries. Each passes steps 4 (re-checked), 6 and 7
    with the numbers of those decided before it in the batch, as it would have after them in
    series; a refusal refuses only its own request. While one batch is decided the next one
    gathers. If the batch's transaction fails as a whole (a constraint, a lost connection),
    each of its admissions is decided again alone, so one request's failure is its own."""

    def __init__(self, max_batch: int = 64) -> None:
        self.max_batch = max_batch
        self._waiting: list[_Admission] = []
        self._leader: asyncio.Task[None] | None = None
        self.sizes: list[int] = []  # the batches decided, for tests and benches (last 1000)

    async def decide(self, svc: SessionServices, item: _Admission) -> tuple[Session, _Effects]:
        item.outcome = asyncio.get_running_loop().create_future()
        self._waiting.append(item)
        if self._leader is None or self._leader.done():
            self._leader = asyncio.create_task(self._lead(svc), name="admission-batch")
        # the decision goes on if this request is given up: it may already be committed
        return await asyncio.shield(item.outcome)

    async def _lead(self, svc: SessionServices) -> None:
        while self._waiting:
            batch = self._waiting[: self.max_batch]
            del self._waiting[: self.max_batch]
            self.sizes = [*self.sizes[-999:], len(batch)]
            try:
                await decide_batch(svc, batch)
            except BaseException as exc:  # cancelled: nobody may wait for ever
                for item in batch:
                    if item.outcome is not None and not item.outcome.done():
                        item.outcome.set_exception(exc)
                raise


async def decide_batch(svc: SessionServices, batch: Sequence[_Admission]) -> None:
    """Decide `batch` together, or (the transaction failed) each alone; sets every outcome."""
    try:
        outcomes = await _decide_together(svc, batch)
    except Exception as exc:
        if len(batch) == 1:
            outcomes = [exc]
        else:
            log.warning("a batch of %d admissions failed as a whole; deciding each alone", len(batch), exc_info=True)
            outcomes = []
            for item in batch:
                try:
                    outcomes += await _decide_together(svc, [item])
                except Exception as alone:
                    outcomes.append(alone)
    for item, outcome in zip(batch, outcomes, strict=True):
        assert item.outcome is not None
        if item.outcome.done():
            continue
        if isinstance(outcome, BaseException):
            item.outcome.set_exception(outcome)
        else:
            item.outcome.set_result(outcome)


async def _decide_together(
    svc: SessionServices, batch: Sequence[_Admission]
) -> list[tuple[Session, _Effects] | BaseException]:
    outcomes: list[tuple[Session, _Effects] | BaseException] = []
    async with svc.uow() as uow:
        state = await uow.capacity.lock()
        payers = sorted({i.resolved.session.owner_id for i in batch if i.resolved.session.gpu is not None})
        wallets = dict(await uow.holds.lock_wallets(payers)) if payers else {}
        holds: list[HoldRequest] = []
        rows = _NewRows()
        for item in batch:
            effects = _Effects()
            try:
                s, hold = await _decide(svc, uow, state, wallets, item, effects, rows)
            except AdmissionRefused as exc:
                outcomes.append(exc)
                continue
            if hold is not None:
                holds.append(hold)
            outcomes.append((s, effects))
        decided = [(item, o) for item, o in zip(batch, outcomes, strict=True) if not isinstance(o, BaseException)]
        if not decided:
            return outcomes  # every one refused: nothing changed, nothing to commit
        await rows.write(uow)
        await uow.holds.add(holds)
        await uow.capacity.save(state)
        uow.publish_after_commit(CAPACITY_TOPIC, {"reason": "placement"})
        uow.publish_after_commit(QUEUE_TOPIC, {"reason": "placement"})
        entries = []
        for item, (s, _) in decided:
            for w in item.resolved.warnings:
                await _notify(svc, uow, s.owner_id, "budget_warning", w, s.id)
            _publish_session(uow, s)
            if item.audit is not None:
                entries.append(item.audit(s))
        await uow.audit.append_many(entries)
        for user_id in sorted({h.user_id for h in holds}):  # as the ledger announces its holds
            uow.publish_after_commit(wallet_topic(user_id), {"userId": str(user_id)})
        await uow.commit()
    together = _BatchHandOff()
    for item, (s, effects) in decided:
        if s.id in effects.apply:
            effects.handed[s.id] = (s, item.resolved.image)
            if _alone_with_its_hand_off(s, item.resolved.image, effects):
                together.add(s)
                effects.batch = together
    return outcomes


def _alone_with_its_hand_off(s: Session, image: Image | None, effects: _Effects) -> bool:
    """A fresh session whose admission does nothing after commit but hand it off, and whose
    workload needs nothing read (no volume, no registry's pull secret): handed off with the
    rest of its batch. One that preempted or re-admitted others keeps its effects' order."""
    return (
        effects.apply == [s.id]
        and not (effects.settle or effects.pause or effects.delete or effects.release_holds or effects.readmit)
        and not s.mounts
        and (image is None or image.registry_id is None)
        and s.cluster_id is not None
    )


class _BatchHandOff:
    """Step 8 of a batch's fresh sessions at once, when the first of their admissions runs
    its effects: one call per cluster (`AppliesMany`: one write for all of them), in the
    batch's order. Each admission awaits its own session's outcome and fails alone if its
    hand-off failed."""

    def __init__(self) -> None:
        self._specs: dict[str, list[WorkloadSpec]] = {}
        self._task: asyncio.Task[dict[UUID, Exception | None]] | None = None

    def add(self, s: Session) -> None:
        assert s.cluster_id is not None
        self._specs.setdefault(s.cluster_id, []).append(workload_spec(s))

    async def outcome(self, svc: SessionServices, session_id: UUID) -> Exception | None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(svc), name="admission-hand-off")
        # the hand-off goes on if this request is given up: the others wait for it
        return (await asyncio.shield(self._task)).get(session_id)

    async def _run(self, svc: SessionServices) -> dict[UUID, Exception | None]:
        out: dict[UUID, Exception | None] = {}
        for cluster_id, specs in self._specs.items():
            port = svc.clusters.get(cluster_id)
            results: list[Exception | None]
            if port is None:
                results = [RuntimeError(f"no adapter for cluster {cluster_id}")] * len(specs)
            elif isinstance(port, AppliesMany):
                try:
                    results = await port.apply_many(specs)
                except Exception as exc:
                    results = [exc] * len(specs)
            else:  # one call each, at once (as each admission made its own before)
                done = await asyncio.gather(*(port.apply(spec) for spec in specs), return_exceptions=True)
                results = []
                for r in done:
                    if r is not None and not isinstance(r, Exception):
                        raise r  # a cancellation is not one session's failure
                    results.append(r)
            out.update(zip((spec.session_id for spec in specs), results, strict=True))
        return out


@dataclass
class _NewRows:
    """The batch's new session rows, written together: before anything reads sessions in the
    transaction (a policy limit's usage, a drain's re-admission), and at the end."""

    sessions: list[Session] = field(default_factory=list)

    async def write(self, uow: SessionsUnitOfWork) -> None:
        if self.sessions:
            await uow.sessions.add_many(self.sessions)
            self.sessions = []


async def _decide(
    svc: SessionServices,
    uow: SessionsUnitOfWork,
    state: CapacityState,
    wallets: dict[UUID, Balance],
    item: _Admission,
    effects: _Effects,
    rows: _NewRows,
) -> tuple[Session, HoldRequest | None]:
    """Steps 6 and 7 (step 4 re-checked with fresh numbers) for one admission of a batch,
    under the capacity lock; nothing is written or changed for a refused one."""
    resolved = item.resolved
    s = resolved.session
    amount = hold_estimate(svc, s) if s.gpu is not None else 0
    if s.gpu is not None:
        wallet = AccountRef.user(s.owner_id)
        try:
            check_can_pay(wallet, wallets.get(s.owner_id, Balance(wallet)), amount)
        except DomainError as exc:
            raise _refuse(6, exc) from exc
    if s.kind is not SessionKind.JOB and resolved.policy.limits:
        await rows.write(uow)  # the usage counts those decided before it
        try:
            await _check_limits(uow, resolved.policy, resolved.request)
        except DomainError as exc:
            raise _refuse(4, exc) from exc
    allowed = resolved.policy.allowed_clusters
    if s.requested_cluster is not None and allowed is not None and s.requested_cluster not in allowed:
        raise _refuse(4, InvalidValueError("cluster", f"your scope may not use cluster {s.requested_cluster}"))
    request = _request(s, frozenset(allowed) if allowed is not None else None)
    try:
        request.validate()  # before the arrival number is taken: a refusal changes nothing
        admission = scheduling.admit(state.scheduler, state.queue, request, arrival=state.arrival())
    except SchedulingError as exc:
        raise _refuse(7, exc) from exc
    hold = None
    now = svc.clock.now()
    if admission.allocation is not None:
        if s.gpu is not None:
            chain = resolved.chain
            hold = HoldRequest(
                svc.ids.new_id(),
                f"session:{s.id}:hold:{s.hold_seq + 1}",
                s.owner_id,
                amount,
                now,
                Attribution(chain.organization_id, chain.group_id, chain.user_id),
                f"session {s.name}",
            )
            held = wallets.get(s.owner_id, Balance(AccountRef.user(s.owner_id)))
            wallets[s.owner_id] = replace(held, held_micro=held.held_micro + amount)
            s = replace(s, hold_id=hold.hold_id, hold_seq=s.hold_seq + 1)
        s = _with_placement(s, admission.allocation, now)
        effects.apply.append(s.id)
    else:  # queued: holds nothing while it waits (step 6 proved the wallet could pay)
        reason, params = _waiting_reason(state.scheduler, request)
        s = replace(
            s,
            state=S.QUEUED,
            queued_at=now,
            state_reason=reason,
            state_reason_code=RC.WAITING_FOR_CAPACITY.value,
            state_reason_params=params,
        )
    rows.sessions.append(s)
    if admission.preempted or admission.also_admitted:  # they read and change sessions, maybe of this batch
        await rows.write(uow)
        await _apply_admission_side_effects(svc, uow, state, admission.preempted, admission.also_admitted, effects)
    return s, hold


def _drop_hold(s: Session, effects: _Effects) -> Session:
    """A queued request holds no credits while it waits (step 6 proved the wallet could pay);
    the drain that admits it reserves again with fresh numbers."""
    if s.hold_id is not None:
        effects.release_holds.append(s.hold_id)
    return replace(s, hold_id=None)


def _with_placement(s: Session, allocation: Allocation, now: datetime) -> Session:
    p = allocation.placement
    target = S.SCHEDULED
    moved = (
        s.transition(target, now, f"placed on {p.node_id}", RC.PLACED, {"node": p.node_id}) if s.state != target else s
    )
    # a class-of-cards ask is billed at the rate of the card it was placed on
    gpu = s.gpu.placed_on(p.model) if s.gpu is not None else None
    return replace(moved, cluster_id=p.cluster_id, placement=p.to_dict(), gpu=gpu)


async def _apply_admission_side_effects(
    svc: SessionServices,
    uow: SessionsUnitOfWork,
    state: CapacityState,
    preempted: Sequence[Allocation],
    admitted: Sequence[Allocation],
    effects: _Effects,
) -> None:
    now = svc.clock.now()
    for victim in preempted:
        v = await uow.sessions.get(UUID(victim.workload_id), for_update=True)
        if v is None:
            continue
        cluster = v.cluster_id
        v = v.transition(S.PREEMPTED, now, "preempted by a higher-priority request; re-queued", RC.PREEMPTED_REQUEUED)
        # cluster_id stays until the cluster reports the pod gone (then PREEMPTED → QUEUED)
        v = replace(v, placement=None, queued_at=now)
        await uow.sessions.update(v)
        if cluster:
            effects.pause.append((v.id, cluster))
        effects.settle.append(v.id)
        await _notify(svc, uow, v.owner_id, "preempted", f"session {v.name} was preempted and re-queued", v.id)
        _publish_session(uow, v)
    for allocation in admitted:
        q = await uow.sessions.get(UUID(allocation.workload_id), for_update=True)
        if q is None or q.state not in (S.QUEUED, S.PREEMPTED):
            continue
        q = _with_placement(q, allocation, now)
        await uow.sessions.update(q)
        effects.apply.append(q.id)
        effects.readmit.append(q.id)
        _publish_session(uow, q)


# ======================================================================== hand-off and effects


def volume_claim(v: Volume) -> VolumeClaimSpec:
    return VolumeClaimSpec(str(v.id), v.claim_name, v.storage_class, v.size_mib, v.access_mode.value)


def pull_secret(registry: Registry | None) -> PullSecret | None:
    if registry is None or registry.username is None or registry.password_sealed is None:
        return None
    return PullSecret(registry.pull_secret_name, registry.server, registry.username, registry.password_sealed)


def workload_spec(
    s: Session, volumes: Mapping[UUID, Volume] | None = None, registry: Registry | None = None
) -> WorkloadSpec:
    """What the cluster runs; each mounted volume's claim goes with it, so a cluster that
    missed the claim when the volume was created gets it before the pod needs it."""
    placement = Placement.from_dict(s.placement) if s.placement else None
    found = volumes or {}
    return WorkloadSpec(
        session_id=s.id,
        owner=str(s.owner_id),
        image=s.image_reference,
        cpu_millicores=s.cpu_millicores,
        memory_mib=s.memory_mib,
        placement=placement,
        env=without_reserved(s.env),
        shm_mib=s.shm_mib,
        volumes=tuple(
            VolumeMount(
                str(m.volume_id),
                claim_name(m.volume_id),
                m.mount_path,
                m.mode == MountMode.READ_ONLY,
                volume_claim(found[m.volume_id]) if m.volume_id in found else None,
            )
            for m in s.mounts
        ),
        endpoints=tuple(
            Endpoint(name, port, "ssh" if name == "ssh" else "http") for name, port in STANDARD_PORTS.items()
        ),
        is_job=s.kind is SessionKind.JOB,
        command=s.job.command if s.job else (),
        args=s.job.args if s.job else (),
        backoff_limit=s.job.backoff_limit if s.job else 0,
        disk_gib=s.disk_gib,
        pull_secret=pull_secret(registry),
    )


async def _run_effects(svc: SessionServices, effects: _Effects) -> None:
    """After commit. Cluster calls are idempotent; a failed hand-off fails the session.
    Settlements come first: the billing clock stopped at the transition, and a session's hold
    is settled in the state that closes it, before the cluster's report of the pod gone can
    move it on (a preempted session re-queued keeps no hold; one re-placed after its node was
    lost keeps its own)."""
    for sid in effects.settle:
        await settle(svc, sid)
    for sid, cluster_id in effects.pause:
        port = svc.clusters.get(cluster_id)
        if port is not None:
            await port.pause(sid)
    for sid, cluster_id in effects.delete:
        port = svc.clusters.get(cluster_id)
        if port is not None:
            await port.delete(sid)
    for hold_id in effects.release_holds:
        await credits.release_hold(svc.ledger, svc.clock, hold_id=hold_id)
    for sid in effects.readmit:
        await _recheck_readmitted(svc, sid)
    for sid in effects.apply:
        if effects.batch is not None and sid in effects.handed:
            failed = await effects.batch.outcome(svc, sid)
            if failed is not None:
                log.error("hand-off of session %s failed", sid, exc_info=failed)
                await _fail(svc, sid, f"step 8 (hand-off): {failed}")
            continue
        await _hand_off(svc, sid, effects.handed.get(sid))


async def _hand_off(
    svc: SessionServices, session_id: UUID, written: tuple[Session, Image | None] | None = None
) -> None:
    """Step 8. `written`: the session as its admission just committed it and its image (no
    read again; a change since is the cluster's report's or the residue sweep's to settle)."""
    if written is not None and not written[0].mounts and (written[1] is None or written[1].registry_id is None):
        s, image = written
        if s.cluster_id is None:
            return
        port = svc.clusters.get(s.cluster_id)
        names: dict[UUID, Volume] = {}
        registry = None
    else:
        async with svc.uow() as uow:
            found = await uow.sessions.get(session_id)
            if found is None or found.state not in (S.SCHEDULED,) or found.cluster_id is None:
                return
            s = found
            port = svc.clusters.get(found.cluster_id)
            names = {v.id: v for v in await uow.volumes.get_many([m.volume_id for m in s.mounts])}
            image = await uow.catalog.get_image(s.image_id)
            registry = await uow.catalog.get_registry(image.registry_id) if image and image.registry_id else None
    try:
        if port is None:
            raise RuntimeError(f"no adapter for cluster {s.cluster_id}")
        await port.apply(workload_spec(s, names, registry))
    except Exception as exc:  # step 8 failed: nothing must stay allocated or held
        log.exception("hand-off of session %s failed", session_id)
        await _fail(svc, session_id, f"step 8 (hand-off): {exc}")


async def _has_open_hold(svc: SessionServices, s: Session) -> bool:
    """A preempted session's hold was settled when it stopped running: re-admitted, it needs
    a new one (so does a queued request, which holds none while it waits)."""
    if s.hold_id is None:
        return False
    hold = await svc.ledger.get_hold(s.hold_id)
    return hold is not None and hold.status is HoldStatus.OPEN


async def _recheck_readmitted(svc: SessionServices, session_id: UUID) -> None:
    """A queued request admitted by a drain passes steps 4, 5 and 6 again with fresh numbers;
    if one refuses now, the session stops with that step's reason and frees its place."""
    async with svc.uow() as uow:
        s = await uow.sessions.get(session_id)
        if s is None or s.state != S.SCHEDULED:
            return
        user = await uow.tenancy.get_user(s.owner_id)
        chain = await _chain_for(uow, s.owner_id, user.username if user else "", s.group_id, s.organization_id)
    reason = None
    if s.kind is not SessionKind.JOB:
        async with svc.uow() as uow:
            # the session is counted as active while it waits: the limits on what it uses
            # must still hold with it counted (a limit may have been lowered meanwhile)
            decision = await check_policy_limits(
                svc.policies, uow.usage, chain, _resources(s.gpu, s.cpu_millicores, s.memory_mib), counted=True
            )
        if decision.refusal is not None:
            reason = f"step 4 (policy limits): {decision.refusal.message}"
    if reason is None and s.gpu is not None:  # CPU-only work skips the budget and the hold
        gate = await credits.evaluate_budget_gate(svc.budgets, svc.ledger, chain, svc.clock.now())
        if not gate.allowed:
            reason = f"step 5 (budget gate): {gate.message}"
    if reason is None and s.gpu is not None and not await _has_open_hold(svc, s):
        try:
            held = await _reserve(svc, s, chain)
        except AdmissionRefused as exc:
            reason = exc.message
        else:
            async with svc.uow() as uow:
                current = await uow.sessions.get(session_id, for_update=True)
                if current is not None and current.hold_id == s.hold_id:
                    await uow.sessions.update(replace(current, hold_id=held.hold_id, hold_seq=held.hold_seq))
                    await uow.commit()
                elif held.hold_id is not None:
                    await credits.release_hold(svc.ledger, svc.clock, hold_id=held.hold_id)
    if reason is not None:
        await _fail(svc, session_id, reason)


# ======================================================================== lifecycle


async def _load_for_change(uow: SessionsUnitOfWork, actor: Actor, session_id: UUID) -> Session:
    access.require_writable(actor)
    s = await uow.sessions.get(session_id, for_update=True)
    if s is None or not can_see_session(actor, s):
        raise NotFoundError("session")
    return s


async def _release_capacity(svc: SessionServices, uow: SessionsUnitOfWork, s: Session, effects: _Effects) -> None:
    """Give back what the session holds (or take it out of the queue) and drain the queue."""
    state = await uow.capacity.lock()
    wid = str(s.id)
    if state.scheduler.allocation(wid) is not None:
        _, drained = scheduling.release(state.scheduler, state.queue, wid)
        await _apply_admission_side_effects(svc, uow, state, (), drained.admitted, effects)
    elif wid in state.queue:
        scheduling.withdraw(state.queue, wid)
    else:
        return
    await uow.capacity.save(state)
    uow.publish_after_commit(CAPACITY_TOPIC, {"reason": "release"})
    uow.publish_after_commit(QUEUE_TOPIC, {"reason": "release"})


async def session_pause(
    svc: SessionServices, actor: Actor, session_id: UUID, *, drained_node: str | None = None
) -> Session:
    """Frees the GPU at once and stops the billing clock; settings and volumes stay.
    `drained_node`: paused because that node is drained; the session carries DRAINED once
    paused, so that it is resumed elsewhere even if the process that drained it dies."""
    effects = _Effects()
    async with svc.uow() as uow:
        s = await _load_for_change(uow, actor, session_id)
        if s.state in (S.PAUSING, S.PAUSED):
            return s  # idempotent
        now = svc.clock.now()
        node = {"node": drained_node} if drained_node is not None else None
        if s.state in (S.QUEUED, S.PREEMPTED, S.RESUMING):
            s = s.transition(S.PAUSED, now, "paused while waiting", RC.PAUSED_WHILE_WAITING)
        else:
            cluster = s.cluster_id
            if node is not None:
                s = s.transition(S.PAUSING, now, f"pausing: node {drained_node} is drained", RC.DRAINING, node)
            else:
                s = s.transition(S.PAUSING, now, "pausing", RC.PAUSING)
            if cluster:
                effects.pause.append((s.id, cluster))
        await _release_capacity(svc, uow, s, effects)
        s = replace(s, placement=None)
        await uow.sessions.update(s)
        effects.settle.append(s.id)
        _publish_session(uow, s)
        await uow.commit()
    await _run_effects(svc, effects)
    return s


async def session_resume(svc: SessionServices, actor: Actor, session_id: UUID) -> Session:
    """Places again (or queues), with a new hold and fresh policy and budget numbers."""
    async with svc.gate():
        return await _session_resume(svc, actor, session_id)


async def _session_resume(svc: SessionServices, actor: Actor, session_id: UUID) -> Session:
    async with svc.uow() as uow:
        s = await _load_for_change(uow, actor, session_id)
        if s.state not in (S.PAUSED,):
            if s.state in (S.RESUMING, S.QUEUED, S.SCHEDULED, S.STARTING, S.RUNNING):
                return s  # idempotent
            s.transition(S.RESUMING, svc.clock.now())  # raises the typed illegal-transition error
        user = await uow.tenancy.get_user(s.owner_id)
        chain = await _chain_for(uow, s.owner_id, user.username if user else "", s.group_id, s.organization_id)
        policy = await effective_policy(svc.policies, chain)
        request = ResourceRequest(
            gpu_ratio=s.gpu.ratio if s.gpu else Fraction(0),
            model=s.gpu.offering_name if s.gpu else None,
            vram_mib=s.gpu.vram_mib * s.gpu.cards if s.gpu else 0,
            cpu_millicores=s.cpu_millicores,
            memory_mib=s.memory_mib,
        )
        if s.kind is not SessionKind.JOB:
            try:
                (await check_policy_limits(svc.policies, uow.usage, chain, request)).raise_if_refused()
            except DomainError as exc:
                raise _refuse(4, exc) from exc
    if s.gpu is not None:
        gate = await credits.evaluate_budget_gate(svc.budgets, svc.ledger, chain, svc.clock.now())
        if not gate.allowed:
            try:
                gate.raise_if_refused()
            except DomainError as exc:
                raise _refuse(5, exc) from exc
        s = await _reserve(svc, s, chain)
    reserved = s.hold_id if s.gpu is not None else None
    effects = _Effects()
    try:
        async with svc.uow() as uow:
            current = await uow.sessions.get(session_id, for_update=True)
            assert current is not None
            if current.state != S.PAUSED:
                raise SessionError(
                    SessionErrorCode.ILLEGAL_TRANSITION, f"a {current.state.value} session cannot resume", "id"
                )
            s = replace(current, hold_id=s.hold_id, hold_seq=s.hold_seq).transition(
                S.RESUMING, svc.clock.now(), "resuming", RC.RESUMING
            )
            state = await uow.capacity.lock()
            placed_req = _request(
                s, frozenset(policy.allowed_clusters) if policy.allowed_clusters is not None else None
            )
            try:
                admission = scheduling.admit(state.scheduler, state.queue, placed_req, arrival=state.arrival())
            except SchedulingError as exc:
                raise _refuse(7, exc) from exc
            if admission.allocation is not None:
                s = _with_placement(s, admission.allocation, svc.clock.now())
                effects.apply.append(s.id)
            else:
                waiting, params = _waiting_reason(state.scheduler, placed_req)
                s = _drop_hold(
                    s.transition(S.QUEUED, svc.clock.now(), waiting, RC.WAITING_FOR_CAPACITY, params), effects
                )
            await uow.sessions.update(s)
            await _apply_admission_side_effects(svc, uow, state, admission.preempted, admission.also_admitted, effects)
            await uow.capacity.save(state)
            uow.publish_after_commit(CAPACITY_TOPIC, {"reason": "resume"})
            _publish_session(uow, s)
            await uow.commit()
    except BaseException:
        if reserved is not None:
            await credits.release_hold(svc.ledger, svc.clock, hold_id=reserved)
        raise
    await _run_effects(svc, effects)
    return s


async def session_stop(svc: SessionServices, actor: Actor, session_id: UUID, *, reason: str = "stopped") -> Session:
    """Releases everything and settles the hold. Stopping a stopped session changes nothing."""
    async with svc.uow() as uow:
        s = await _load_for_change(uow, actor, session_id)
    return await _stop(svc, s.id, S.STOPPED, reason)


async def _stop(
    svc: SessionServices, session_id: UUID, final: SessionState, reason: str, code: RC = RC.STOPPED
) -> Session:
    effects = _Effects()
    async with svc.uow() as uow:
        s = await uow.sessions.get(session_id, for_update=True)
        if s is None:
            raise NotFoundError("session")
        if s.terminal or s.state == S.STOPPING:
            return s
        now = svc.clock.now()
        # a pod exists (or is being made) only where a cluster was handed the session
        has_pod = s.state in (S.SCHEDULED, S.STARTING, S.RUNNING, S.PAUSING) and s.cluster_id is not None
        if has_pod:
            s = s.transition(S.STOPPING, now, reason, code)
            if s.cluster_id:
                effects.delete.append((s.id, s.cluster_id))
        else:
            if s.state in (S.RESUMING, S.PREEMPTED):
                s = s.transition(S.QUEUED if s.state == S.PREEMPTED else S.PAUSED, now)
            if final not in TRANSITIONS[s.state]:  # e.g. SCHEDULED without a cluster: nothing runs
                s = s.transition(S.STOPPING, now, reason, code)
            s = s.transition(final, now, reason, code)
        await _release_capacity(svc, uow, s, effects)
        s = replace(s, placement=None)
        await uow.sessions.update(s)
        effects.settle.append(s.id)
        _publish_session(uow, s)
        await uow.commit()
    await _run_effects(svc, effects)
    return s


async def _fail(svc: SessionServices, session_id: UUID, reason: str, code: RC = RC.HANDOFF_FAILED) -> None:
    effects = _Effects()
    async with svc.uow() as uow:
        s = await uow.sessions.get(session_id, for_update=True)
        if s is None or s.terminal:
            return
        cluster = s.cluster_id
        now = svc.clock.now()
        if S.FAILED in TRANSITIONS[s.state]:
            s = s.transition(S.FAILED, now, reason, code)
        else:  # queued / paused: nothing runs, so it is stopped with the reason
            s = s.transition(S.STOPPED, now, reason, code)
        await _release_capacity(svc, uow, s, effects)
        s = replace(s, placement=None)
        await uow.sessions.update(s)
        if cluster:
            effects.delete.append((s.id, cluster))
        effects.settle.append(s.id)
        await _notify(svc, uow, s.owner_id, "session_failed", f"session {s.name}: {reason}", s.id)
        _publish_session(uow, s)
        await uow.commit()
    await _run_effects(svc, effects)


async def session_extend(svc: SessionServices, actor: Actor, session_id: UUID, expiry: Expiry) -> Session:
    """Choose a new expiry counted from now, within the policy's maximum session duration."""
    async with svc.uow() as uow:
        s = await _load_for_change(uow, actor, session_id)
        if s.terminal:
            raise SessionError(
                SessionErrorCode.ILLEGAL_TRANSITION, f"a {s.state.value} session cannot be extended", "id"
            )
        user = await uow.tenancy.get_user(s.owner_id)
        chain = await _chain_for(uow, s.owner_id, user.username if user else "", s.group_id, s.organization_id)
        policy = await effective_policy(svc.policies, chain)
        now = svc.clock.now()
        new_expiry = now + expiry.duration if expiry.duration is not None else None
        max_seconds = policy.setting("max_session_seconds")
        if max_seconds is not None:
            limit = s.created_at + timedelta(seconds=max_seconds)
            if new_expiry is None or new_expiry > limit:
                raise SessionError(
                    SessionErrorCode.EXTENSION_OVER_POLICY,
                    f"sessions here may last at most {timedelta(seconds=max_seconds)} in all (until {limit.isoformat()})",
                    "expiry",
                )
        s = replace(s, expiry=expiry, expires_at=new_expiry, updated_at=now)
        await uow.sessions.update(s)
        _publish_session(uow, s)
        await uow.commit()
    return s


async def session_approve(
    svc: SessionServices, actor: Actor, session_id: UUID, *, gpu_kind: GpuKind | None = None
) -> Session:
    """An admin of the session's group approves it, optionally assigning the GPU kind."""
    effects = _Effects()
    async with svc.uow() as uow:
        s = await _load_for_change(uow, actor, session_id)
        if not actor.is_group_admin(s.group_id, s.organization_id):
            raise PermissionDeniedError("only an admin of the session's group may approve it")
        if s.state != S.PENDING_APPROVAL:
            if s.approved_by is not None:
                return s  # idempotent
            raise SessionError(
                SessionErrorCode.APPROVAL_NOT_PENDING, f"session is {s.state.value}, not pending approval", "id"
            )
        now = svc.clock.now()
        s = replace(s, approved_by=actor.user_id)
        if gpu_kind is not None and s.gpu is None:
            raise InvalidValueError("gpuKind", "a CPU-only session has no GPU kind to assign")
        if gpu_kind is not None and s.gpu is not None:
            g = s.gpu
            cards = g.cards if gpu_kind is GpuKind.EXCLUSIVE else 1
            ratio = Fraction(cards) if gpu_kind is GpuKind.EXCLUSIVE else g.ratio
            s = replace(
                s,
                gpu=replace(
                    g,
                    forced_kind=gpu_kind.value,
                    exclusive=gpu_kind is GpuKind.EXCLUSIVE,
                    shared=gpu_kind is GpuKind.SHARED,
                    cards=cards,
                    ratio=ratio,
                ),
            )
        state = await uow.capacity.lock()
        user = await uow.tenancy.get_user(s.owner_id)
        chain = await _chain_for(uow, s.owner_id, user.username if user else "", s.group_id, s.organization_id)
        policy = await effective_policy(svc.policies, chain)
        placed_req = _request(s, frozenset(policy.allowed_clusters) if policy.allowed_clusters is not None else None)
        try:
            admission = scheduling.admit(state.scheduler, state.queue, placed_req, arrival=state.arrival())
        except SchedulingError as exc:
            raise _refuse(7, exc) from exc
        if admission.allocation is not None:
            s = _with_placement(replace(s, state=S.PENDING_APPROVAL), admission.allocation, now)
            effects.apply.append(s.id)
        else:
            waiting, params = _waiting_reason(state.scheduler, placed_req)
            s = _drop_hold(
                s.transition(S.QUEUED, now, f"approved; {waiting}", RC.APPROVED_WAITING_FOR_CAPACITY, params), effects
            )
        await uow.sessions.update(s)
        await _apply_admission_side_effects(svc, uow, state, admission.preempted, admission.also_admitted, effects)
        await uow.capacity.save(state)
        uow.publish_after_commit(CAPACITY_TOPIC, {"reason": "approval"})
        _publish_session(uow, s)
        await uow.commit()
    await _run_effects(svc, effects)
    return s


async def session_reject(svc: SessionServices, actor: Actor, session_id: UUID, *, reason: str) -> Session:
    effects = _Effects()
    async with svc.uow() as uow:
        s = await _load_for_change(uow, actor, session_id)
        if not actor.is_group_admin(s.group_id, s.organization_id):
            raise PermissionDeniedError("only an admin of the session's group may reject it")
        if s.state == S.REJECTED:
            return s
        if s.state != S.PENDING_APPROVAL:
            raise SessionError(
                SessionErrorCode.APPROVAL_NOT_PENDING, f"session is {s.state.value}, not pending approval", "id"
            )
        text = clean_name(reason, "reason", 500)
        s = s.transition(S.REJECTED, svc.clock.now(), text, RC.REJECTED, {"reason": text})
        await uow.sessions.update(s)
        if s.hold_id is not None:
            effects.release_holds.append(s.hold_id)
        await _notify(svc, uow, s.owner_id, "session_rejected", f"session {s.name} was rejected: {text}", s.id)
        _publish_session(uow, s)
        await uow.commit()
    await _run_effects(svc, effects)
    return s


# ======================================================================== billing


async def settle(svc: SessionServices, session_id: UUID) -> None:
    """Charge what the session owes for its RUNNING seconds so far and close its hold when it
    no longer runs. One `Billing` call: the charge, the hold, the balances and the session's
    `charged_micro` commit together, and the due amount is recomputed from the seconds, so
    settling twice (or after a crash) charges nothing more."""
    result = await svc.billing.bill(svc.clock.now(), [session_id], close=True)
    owners = {line.owner_id for line in result.lines if line.charged_micro or line.closed}
    if owners:
        async with svc.uow() as uow:
            for owner in owners:
                uow.publish_after_commit(wallet_topic(owner), {"userId": str(owner)})
            await uow.commit()


# ======================================================================== status reports


async def handle_status_report(svc: SessionServices, cluster_id: str, report: StatusReport) -> Session | None:
    """A cluster's report about one of its workloads. Reports about another cluster's
    sessions are ignored; repeated reports change nothing."""
    return (await handle_status_reports(svc, cluster_id, [report]))[0]


async def handle_status_reports(
    svc: SessionServices, cluster_id: str, reports: Sequence[StatusReport]
) -> list[Session | None]:
    """Several reports of one cluster in one transaction, in the order given (a busy cluster
    reports many pods starting at once; one transaction for all of them costs a fraction of
    one each). The result holds, per report, the session as that report left it."""
    effects = _Effects()
    results: list[Session | None] = []
    async with svc.uow() as uow:
        locked = any(r.phase in (WorkloadPhase.STOPPED, WorkloadPhase.FAILED) for r in reports)
        if locked:
            # a workload that ended may free capacity: take the capacity lock before the
            # session locks, the order admissions take them in (no deadlock between the two)
            await uow.capacity.lock()
        ids = list(dict.fromkeys(r.session_id for r in reports))
        current: dict[UUID, Session] = {
            s.id: s for s in (await uow.sessions.get_many(ids, for_update=True) if ids else [])
        }
        changed = False
        # pods starting and running (most reports) only move their sessions on: written
        # together (one statement per column set), before any other report is applied
        progressed: dict[UUID, int] = {}  # session -> its report's place in `results`

        async def write_progressed() -> None:
            if progressed:
                stored = await uow.sessions.update_many([current[sid] for sid in progressed])
                for s in stored:
                    current[s.id] = results[progressed[s.id]] = s
                    _publish_session(uow, s)
                progressed.clear()

        for report in reports:
            s = current.get(report.session_id)
            if report.phase in _PROGRESS and (s is None or s.id not in progressed):
                new = _progressed(cluster_id, s, report)
                if new is not None and new is not s:
                    current[new.id] = new
                    progressed[new.id] = len(results)
                    changed = True
                results.append(new)
                continue
            await write_progressed()
            s = current.get(report.session_id)
            new = await _apply_report(svc, uow, cluster_id, s, report, effects)
            if new is not None and new is not s:
                current[new.id] = new
                changed = True
            results.append(new)
        await write_progressed()
        if changed or locked:  # committing returns the capacity state to the process's cache
            await uow.commit()
    await _run_effects(svc, effects)
    return results


_PROGRESS = (WorkloadPhase.STARTING, WorkloadPhase.RUNNING)


def _reported_here(cluster_id: str, s: Session | None) -> bool:
    """A report of this cluster is about `s`: placed there, or on its way out of nowhere."""
    return not (
        s is None
        or s.cluster_id not in (cluster_id, None)
        or (s.cluster_id is None and s.state not in (S.PAUSING, S.STOPPING))
    )


def _progressed(cluster_id: str, s: Session | None, report: StatusReport) -> Session | None:
    """A pod starting or running: the session moved on (not yet written), `s` unchanged, or
    None when the report is not about it."""
    if s is None or not _reported_here(cluster_id, s):
        return None
    at = report.observed_at
    if report.phase is WorkloadPhase.STARTING and s.state == S.SCHEDULED:
        return s.transition(S.STARTING, at, "starting", RC.STARTING)
    if report.phase is WorkloadPhase.RUNNING and s.state in (S.SCHEDULED, S.STARTING):
        urls = {e.name: e.url for e in report.endpoints}
        return replace(
            s.transition(S.RUNNING, at, "running", RC.RUNNING),
            endpoints=Endpoints(urls.get("vscode"), urls.get("jupyterlab"), urls.get("terminal"), urls.get("ssh")),
        )
    return s


async def _apply_report(
    svc: SessionServices,
    uow: SessionsUnitOfWork,
    cluster_id: str,
    s: Session | None,
    report: StatusReport,
    effects: _Effects,
) -> Session | None:
    """One report against the session as it stands in this transaction; writes the change."""
    if s is None or not _reported_here(cluster_id, s):
        return None
    at = report.observed_at
    phase = report.phase
    ended = (WorkloadPhase.STOPPED, WorkloadPhase.FAILED, WorkloadPhase.SUCCEEDED)
    if phase in ended and s.state == S.SCHEDULED and at < s.updated_at:
        return s  # about the pod before this placement (a preempted or resumed session): stale
    new = s
    if phase in _PROGRESS:
        new = _progressed(cluster_id, s, report) or s
    elif (
        phase is WorkloadPhase.SUCCEEDED
        and s.kind is SessionKind.JOB
        and s.state in (S.SCHEDULED, S.STARTING, S.RUNNING)
    ):
        # ran to completion: billing stops at the reported end, everything is released
        new = _job_ended(s.transition(S.SUCCEEDED, at, "completed (exit code 0)", RC.COMPLETED), report)
        await _release_capacity(svc, uow, new, effects)
        new = replace(new, placement=None)
        effects.settle.append(s.id)
        effects.delete.append((s.id, cluster_id))  # its exit code and log tail came with the report
        await _notify(svc, uow, s.owner_id, "job_succeeded", f"job {s.name} completed", s.id)
    elif phase in (WorkloadPhase.STOPPED, WorkloadPhase.SUCCEEDED):
        if s.state == S.PAUSING and s.state_reason_code == RC.DRAINING:
            node = s.state_reason_params.get("node", "")
            why = f"paused: node {node} was drained; to be resumed on another node"
            new = s.transition(S.PAUSED, at, why, RC.DRAINED, {"node": node})
        elif s.state == S.PAUSING:
            new = s.transition(S.PAUSED, at, "paused", RC.PAUSED)
        elif s.state == S.STOPPING:
            new = s.transition(S.STOPPED, at, s.state_reason or "stopped")
        elif s.state == S.PREEMPTED:
            new = s.transition(S.QUEUED, at, "preempted; waiting for capacity", RC.PREEMPTED_REQUEUED)
        elif s.state in (S.SCHEDULED, S.STARTING, S.RUNNING):
            final = S.STOPPING
            job = s.kind is SessionKind.JOB
            code = RC.COMPLETED if job else RC.WORKLOAD_STOPPED
            new = s.transition(final, at, "completed" if job else "the workload stopped", code)
            new = new.transition(S.STOPPED, at, new.state_reason, code)
            await _release_capacity(svc, uow, new, effects)
            new = replace(new, placement=None)
            effects.settle.append(s.id)
    elif (
        phase is WorkloadPhase.FAILED
        and report.reason in RELOCATE_REASONS
        and s.state in (S.SCHEDULED, S.STARTING, S.RUNNING)
        and (replaced := await _relocate(svc, uow, cluster_id, s, report, effects)) is not None
    ):
        new = replaced
    elif phase is WorkloadPhase.FAILED and not s.terminal and S.FAILED in TRANSITIONS[s.state]:
        reason = report.message or "the workload failed"
        if s.kind is SessionKind.JOB and report.exit_code is not None:
            reason = f"exit code {report.exit_code}" + (f": {report.message}" if report.message else "")
        new = _job_ended(s.transition(S.FAILED, at, reason, RC.WORKLOAD_FAILED), report)
        await _release_capacity(svc, uow, new, effects)
        new = replace(new, placement=None)
        effects.settle.append(s.id)
        if s.kind is SessionKind.JOB:
            effects.delete.append((s.id, cluster_id))
        await _notify(svc, uow, s.owner_id, "session_failed", f"session {s.name} failed: {new.state_reason}", s.id)
    if new is s:
        return s
    if new.state in (S.STOPPED, S.PAUSED, S.QUEUED) and s.state in (S.STOPPING, S.PAUSING, S.PREEMPTED):
        new = replace(new, cluster_id=None if new.state != S.STOPPED else s.cluster_id)
    new = await uow.sessions.update(new)
    if new.state in (S.STOPPED, S.PAUSED, S.FAILED, S.SUCCEEDED):
        effects.settle.append(new.id)
    _publish_session(uow, new)
    return new


async def workloads_listed(
    svc: SessionServices, cluster_id: str, present: frozenset[UUID], listed_at: datetime, *, grace_seconds: int
) -> list[UUID]:
    """A cluster listed the sessions it has (its inventory report): a session this control
    plane believes RUNNING there that is not among them lost its workload (a GShareSession
    removed without the operator's deletion report) and is placed again, as a vanished pod's
    is. Only sessions running since before the listing by `grace_seconds` and unchanged since
    it are judged (a stale listing never moves a session). Returns the sessions re-placed."""
    async with svc.uow() as uow:
        running, _ = await uow.sessions.search(
            SessionFilter(states=frozenset({S.RUNNING}), cluster_id=cluster_id), 0, 100_000
        )
    cutoff = listed_at - timedelta(seconds=grace_seconds)
    missing = [
        s
        for s in running
        if s.id not in present and s.running_since is not None and s.running_since < cutoff and s.updated_at < listed_at
    ]
    if not missing:
        return []
    log.warning("cluster %s lacks the workloads of %d running session(s): re-placing them", cluster_id, len(missing))
    reports = [
        StatusReport(
            s.id,
            WorkloadPhase.FAILED,
            listed_at,
            message="its workload is gone from the cluster",
            reason="PodLost",
            lost_at=listed_at,
        )
        for s in missing
    ]
    await handle_status_reports(svc, cluster_id, reports)
    return [s.id for s in missing]


# what a cluster reports when a workload lost its place through no fault of its own: the
# session is placed again (DESIGN: node loss and eviction re-place, they do not fail)
RELOCATE_REASONS = frozenset({"NodeLost", "PodLost", "Evicted"})


async def _relocate(
    svc: SessionServices,
    uow: SessionsUnitOfWork,
    cluster_id: str,
    s: Session,
    report: StatusReport,
    effects: _Effects,
) -> Session | None:
    """A session whose node was lost (or whose pod was evicted, or vanished) goes back to the
    queue ahead of every request of its priority and is placed again at once if it fits: its
    billing clock stopped when the node was lost (no second billed that it did not run), its
    hold stays open for the next run, its volumes are untouched, and its owner is told. A lost
    node takes no new work until the cluster reports it again (a node that comes back is not
    double-booked). None when the session holds no place to give back (the caller fails it)."""
    now = svc.clock.now()
    if report.observed_at < s.updated_at:
        return s  # about a pod from before the session's current placement
    state = await uow.capacity.lock()
    wid = str(s.id)
    allocation = state.scheduler.allocation(wid)
    if allocation is not None:
        state.scheduler.release(wid)
    else:  # the node already left the inventory: the placement is one of the conflicts
        conflict = next(((a, m) for a, m in state.conflicts if a.workload_id == wid), None)
        if conflict is None:
            return None
        state.conflicts.remove(conflict)
        state.forgotten.add(wid)
        allocation = conflict[0]
    lost_node = allocation.placement.node_id
    if report.reason == "NodeLost":
        await _cordon_lost_node(uow, state, allocation.placement.cluster_id, lost_node)
    scheduling.requeue_at_head(state.queue, allocation.request)
    lost_at = min(report.lost_at or report.observed_at, now)
    if s.running_since is not None:
        lost_at = max(lost_at, s.running_since)
    why = {"NodeLost": f"node {lost_node} was lost", "Evicted": "its pod was evicted"}.get(
        report.reason, "its pod vanished"
    )
    why_code, why_params = {
        "NodeLost": (RC.NODE_LOST, {"node": lost_node}),
        "Evicted": (RC.EVICTED, {}),
    }.get(report.reason, (RC.POD_VANISHED, {}))
    moved = s.transition(S.PREEMPTED, lost_at, why, why_code, why_params)  # the billing clock stops at lost_at
    moved = replace(
        moved.transition(S.QUEUED, now, f"{why}; re-queued at the head of its priority", why_code, why_params),
        placement=None,
        cluster_id=None,
    )
    await uow.sessions.update(moved)
    drained = state.queue.drain(state.scheduler)
    await _apply_admission_side_effects(svc, uow, state, (), drained.admitted, effects)
    await uow.capacity.save(state)
    uow.publish_after_commit(CAPACITY_TOPIC, {"reason": "relocation"})
    uow.publish_after_commit(QUEUE_TOPIC, {"reason": "relocation"})
    final = await uow.sessions.get(s.id, for_update=True)
    assert final is not None
    if final.cluster_id != cluster_id:
        # waiting, or placed on another cluster: nothing of it may come back to life where it was
        effects.delete.append((s.id, cluster_id))
    where = f"placed again on {Placement.from_dict(final.placement).node_id}" if final.placement else "queued"
    await _notify(
        svc,
        uow,
        s.owner_id,
        "session_replaced",
        f"session {s.name}: {why}; it is {where} (its volumes and credit hold are kept, "
        f"and the time it was not running is not billed)",
        s.id,
    )
    return final


async def _cordon_lost_node(uow: SessionsUnitOfWork, state: CapacityState, cluster_id: str, node_id: str) -> None:
    """Take no new work on a lost node: in this decision and in the stored inventory, until
    the cluster's next inventory report says what the node is."""
    nodes = state.scheduler.inventory.nodes_of(cluster_id)
    if not any(n.id == node_id and n.schedulable for n in nodes):
        return
    state.scheduler.set_cordoned(node_id, True)
    await uow.capacity.replace_nodes(
        cluster_id, [replace(n, schedulable=False) if n.id == node_id else n for n in nodes]
    )


def _job_ended(s: Session, report: StatusReport) -> Session:
    """A job keeps how it ended: the exit code and the last lines of its log."""
    if s.kind is not SessionKind.JOB:
        return s
    job = s.job or JobRun()
    return replace(
        s,
        job=replace(
            job,
            exit_code=report.exit_code if report.exit_code is not None else (0 if s.state is S.SUCCEEDED else None),
            log_tail=clip_log_tail(report.log_tail) if report.log_tail else job.log_tail,
        ),
    )


# ======================================================================== logs

MAX_LOG_LINES = 1000


@dataclass(frozen=True, slots=True)
class LogTail:
    """The last lines of a session's or job's log. `live`: read from the running container
    just now; otherwise kept from when the job ended. `text` is empty with a `reason` when
    there is nothing to show."""

    text: str
    live: bool
    reason: str = ""


async def session_log_tail(svc: SessionServices, actor: Actor, session_id: UUID, *, lines: int = 100) -> LogTail:
    """The log's last `lines` lines, for whoever may see the session (others: not found)."""
    if not 1 <= lines <= MAX_LOG_LINES:
        raise InvalidValueError("lines", f"1 to {MAX_LOG_LINES} lines")
    async with svc.uow() as uow:
        s = await session_get(uow, actor, session_id)
    if s.state in (S.SCHEDULED, S.STARTING, S.RUNNING, S.PAUSING, S.STOPPING) and s.cluster_id:
        port = svc.clusters.get(s.cluster_id)
        if port is not None:
            try:
                text = await port.log_tail(s.id, lines)
            except Exception as exc:  # the cluster may be unreachable: say so, do not fail the query
                log.warning("log of session %s unavailable: %s", s.id, exc)
                return LogTail("", True, "the cluster did not answer")
            if text is not None:
                return LogTail("\n".join(text.splitlines()[-lines:]), True)
            return LogTail("", True, "the container has not started yet")
    if s.job is not None and s.job.log_tail:
        return LogTail("\n".join(s.job.log_tail.splitlines()[-lines:]), False)
    return LogTail("", False, f"no log: the {'job' if s.kind is SessionKind.JOB else 'session'} is {s.state.value}")


# ======================================================================== notifications and events


async def _notify(
    svc: SessionServices,
    uow: SessionsUnitOfWork,
    user_id: UUID,
    kind: str,
    message: str,
    session_id: UUID | None = None,
) -> None:
    n = Notification(svc.ids.new_id(), user_id, kind, message, svc.clock.now(), session_id)
    await uow.notifications.add(n)
    uow.publish_after_commit(notifications_topic(user_id), {"id": str(n.id), "kind": kind, "message": message})


def _notify_admins_later(uow: SessionsUnitOfWork, s: Session) -> None:
    uow.publish_after_commit(APPROVALS_TOPIC, session_event(s))


def _publish_session(uow: SessionsUnitOfWork, s: Session) -> None:
    payload = session_event(s)
    uow.publish_after_commit(session_topic(s.id), payload)
    uow.publish_after_commit(owner_topic(s.owner_id), payload)


async def drain_queue(svc: SessionServices) -> list[UUID]:
    """Admit queued requests that fit now (after capacity was added or freed elsewhere), in
    queue order with backfill; each admitted request passes steps 4 and 5 again."""
    effects = _Effects()
    async with svc.uow() as uow:
        state = await uow.capacity.lock()
        drained = state.queue.drain(state.scheduler)
        if not drained.admitted:
            return []
        await _apply_admission_side_effects(svc, uow, state, (), drained.admitted, effects)
        await uow.capacity.save(state)
        uow.publish_after_commit(CAPACITY_TOPIC, {"reason": "drain"})
        uow.publish_after_commit(QUEUE_TOPIC, {"reason": "drain"})
        await uow.commit()
    await _run_effects(svc, effects)
    return [UUID(a.workload_id) for a in drained.admitted]

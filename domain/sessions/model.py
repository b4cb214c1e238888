"""Sessions: the state machine of DESIGN.md, enforced in one place, and the session aggregate.

    PENDING_APPROVAL → QUEUED → SCHEDULED → STARTING → RUNNING ⇄ (PAUSING → PAUSED → RESUMING)
    → STOPPING → STOPPED, plus REJECTED, FAILED, EXPIRED, PREEMPTED.

A preempted session is paused and re-queued, never destroyed: RUNNING → PREEMPTED → QUEUED.
The billing clock runs exactly while the session is RUNNING (from the cluster's Running report
to the pause/stop/failure report), which `running_since` records.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from enum import StrEnum
from fractions import Fraction
from typing import Any
from uuid import UUID

from domain.sessions.errors import SessionError, SessionErrorCode


class SessionState(StrEnum):
    PENDING_APPROVAL = "PENDING_APPROVAL"
    QUEUED = "QUEUED"
    SCHEDULED = "SCHEDULED"
    STARTING = "STARTING"
    RUNNING = "RUNNING"
    PAUSING = "PAUSING"
    PAUSED = "PAUSED"
    RESUMING = "RESUMING"
    STOPPING = "STOPPING"
    STOPPED = "STOPPED"
    REJECTED = "REJECTED"
    FAILED = "FAILED"
    EXPIRED = "EXPIRED"
    PREEMPTED = "PREEMPTED"
    SUCCEEDED = "SUCCEEDED"  # a batch job that ran to completion (exit code 0)


S = SessionState
TRANSITIONS: dict[SessionState, frozenset[SessionState]] = {
    S.PENDING_APPROVAL: frozenset({S.QUEUED, S.SCHEDULED, S.REJECTED, S.STOPPED}),
    S.QUEUED: frozenset({S.SCHEDULED, S.STOPPED, S.EXPIRED, S.PAUSED}),
    S.SCHEDULED: frozenset({S.STARTING, S.RUNNING, S.FAILED, S.STOPPING, S.PAUSING, S.PREEMPTED, S.SUCCEEDED}),
    S.STARTING: frozenset({S.RUNNING, S.FAILED, S.STOPPING, S.PAUSING, S.PREEMPTED, S.SUCCEEDED}),
    S.RUNNING: frozenset({S.PAUSING, S.STOPPING, S.FAILED, S.PREEMPTED, S.EXPIRED, S.SUCCEEDED}),
    S.PAUSING: frozenset({S.PAUSED, S.STOPPING, S.FAILED}),
    S.PAUSED: frozenset({S.RESUMING, S.STOPPED, S.EXPIRED}),
    S.RESUMING: frozenset({S.QUEUED, S.SCHEDULED, S.STOPPED, S.PAUSED}),
    S.STOPPING: frozenset({S.STOPPED, S.FAILED}),
    S.PREEMPTED: frozenset({S.QUEUED, S.SCHEDULED, S.PAUSED, S.STOPPED}),
    S.STOPPED: frozenset(),
    S.REJECTED: frozenset(),
    S.FAILED: frozenset(),
    S.EXPIRED: frozenset(),
    S.SUCCEEDED: frozenset(),
}
TERMINAL = frozenset({S.STOPPED, S.REJECTED, S.FAILED, S.EXPIRED, S.SUCCEEDED})
# states in which the session holds GPU capacity (a placement exists)
HOLDS_CAPACITY = frozenset({S.SCHEDULED, S.STARTING, S.RUNNING, S.PAUSING, S.STOPPING})
# states in which the session counts against concurrency limits
ACTIVE = frozenset(set(SessionState) - TERMINAL - {S.PAUSED})


def check_transition(current: SessionState, target: SessionState) -> None:
    if target not in TRANSITIONS[current]:
        raise SessionError(
            SessionErrorCode.ILLEGAL_TRANSITION,
            f"a {current.value} session cannot become {target.value}",
            "id",
        )


class Expiry(StrEnum):
    """Cluma's expiry choices."""

    H1 = "1h"
    H4 = "4h"
    D1 = "1d"
    D7 = "7d"
    D30 = "30d"
    NONE = "none"

    @property
    def duration(self) -> timedelta | None:
        return {
            "1h": timedelta(hours=1),
            "4h": timedelta(hours=4),
            "1d": timedelta(days=1),
            "7d": timedelta(days=7),
            "30d": timedelta(days=30),
            "none": None,
        }[self.value]


WARN_AT = Fraction(9, 10)


class SessionKind(StrEnum):
    INTERACTIVE = "interactive"
    JOB = "job"


class MountMode(StrEnum):
    READ_ONLY = "ro"
    READ_WRITE = "rw"


@dataclass(frozen=True, slots=True)
class MountRequest:
    volume_id: UUID
    mount_path: str
    mode: MountMode


@dataclass(frozen=True, slots=True)
class Endpoints:
    """The standard endpoints every session exposes (URLs once the cluster reports them)."""

    vscode: str | None = None
    jupyterlab: str | None = None
    terminal: str | None = None
    ssh: str | None = None

    def to_dict(self) -> dict[str, str | None]:
        return {"vscode": self.vscode, "jupyterlab": self.jupyterlab, "terminal": self.terminal, "ssh": self.ssh}


STANDARD_PORTS = {"vscode": 8080, "jupyterlab": 8888, "terminal": 7681, "ssh": 22}

# what a job's command may carry, and how many lines of its log are kept when it ends
MAX_COMMAND_ITEMS = 64
MAX_COMMAND_ITEM_CHARS = 4096
MAX_COMMAND_CHARS = 32 * 1024
MAX_BACKOFF_LIMIT = 10
LOG_TAIL_LINES = 100
LOG_TAIL_CHARS = 16 * 1024


@dataclass(frozen=True, slots=True)
class JobRun:
    """A batch job's own part: what it runs and how it ended.

    `command` replaces the image's entrypoint and `args` its arguments (Kubernetes' `command`
    and `args`); the pod runs once to completion (`restartPolicy: Never`) and is retried at
    most `backoff_limit` times after a failure. `exit_code` and `log_tail` (the last lines of
    its log) are what the cluster reported when it ended."""

    command: tuple[str, ...] = ()
    args: tuple[str, ...] = ()
    backoff_limit: int = 0
    exit_code: int | None = None
    log_tail: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "command": list(self.command),
            "args": list(self.args),
            "backoff_limit": self.backoff_limit,
            "exit_code": self.exit_code,
            "log_tail": self.log_tail,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> JobRun:
        code = data.get("exit_code")
        return cls(
            tuple(str(c) for c in data.get("command") or ()),
            tuple(str(a) for a in data.get("args") or ()),
            int(data.get("backoff_limit") or 0),
            None if code is None else int(code),
            str(data.get("log_tail") or ""),
        )


def clip_log_tail(text: str) -> str:
    """The last `LOG_TAIL_LINES` lines, at most `LOG_TAIL_CHARS` characters."""
    lines = text.splitlines()[-LOG_TAIL_LINES:]
    clipped = "\n".join(lines)
    return clipped[-LOG_TAIL_CHARS:]


@dataclass(frozen=True, slots=True)
class GpuChoice:
    """One card model a class-of-cards ask may be placed on: the preset's size, ratio and
    the model's rate there."""

    model: str
    vram_mib: int
    cores: int
    ratio: Fraction
    hourly_rate_micro: int

    @property
    def hourly_cost(self) -> Fraction:
        return self.hourly_rate_micro * self.ratio


@dataclass(frozen=True, slots=True)
class GpuAsk:
    """The GPU part of a session request, resolved from offering × preset (or an approver).

    For an offering that names a class of cards, `choices` lists every model it may be
    placed on (`offering_name` is then the class, the queue it waits in). Until it is
    placed, `vram_mib`, `cores`, `ratio` and `hourly_rate_micro` are those of the dearest
    choice; once placed (`placed_model`), those of the card it is on: what it is billed."""

    offering_id: UUID
    offering_name: str
    vram_mib: int
    cores: int
    cards: int
    exclusive: bool
    shared: bool
    ratio: Fraction
    hourly_rate_micro: int
    forced_kind: str | None = None
    choices: tuple[GpuChoice, ...] = ()
    placed_model: str | None = None

    @property
    def dearest(self) -> GpuChoice | None:
        """The choice with the highest hourly cost (the first by model on a tie)."""
        best: GpuChoice | None = None
        for c in self.choices:
            if best is None or c.hourly_cost > best.hourly_cost:
                best = c
        return best

    @property
    def cost_range(self) -> tuple[Fraction, Fraction]:
        """Hourly cost (micro-credits) of the cheapest and the dearest card it may get."""
        if not self.choices:
            cost = self.hourly_rate_micro * self.ratio
            return cost, cost
        costs = [c.hourly_cost for c in self.choices]
        return min(costs), max(costs)

    def hold_basis(self) -> tuple[int, Fraction]:
        """(rate, ratio) a credit hold is computed from: the dearest card of a class (it may
        be placed on any of them, again after a pause or a preemption)."""
        dearest = self.dearest
        if dearest is None:
            return self.hourly_rate_micro, self.ratio
        return dearest.hourly_rate_micro, dearest.ratio

    def placed_on(self, model: str | None) -> GpuAsk:
        """The ask as billed on `model` (itself when it names no class or model)."""
        choice = next((c for c in self.choices if c.model == model), None)
        if choice is None:
            return self
        return replace(
            self,
            vram_mib=choice.vram_mib,
            cores=choice.cores,
            ratio=choice.ratio,
            hourly_rate_micro=choice.hourly_rate_micro,
            placed_model=choice.model,
        )


class StateReasonCode(StrEnum):
    """Why a session is in its state, as a code (the English `state_reason` says the same for
    API clients); parameters by name go beside it."""

    WAITING_FOR_APPROVAL = "WAITING_FOR_APPROVAL"
    WAITING_FOR_CAPACITY = "WAITING_FOR_CAPACITY"
    APPROVED_WAITING_FOR_CAPACITY = "APPROVED_WAITING_FOR_CAPACITY"
    PLACED = "PLACED"  # node
    STARTING = "STARTING"
    RUNNING = "RUNNING"
    PREEMPTED_REQUEUED = "PREEMPTED_REQUEUED"
    PAUSING = "PAUSING"
    PAUSED = "PAUSED"
    PAUSED_WHILE_WAITING = "PAUSED_WHILE_WAITING"
    RESUMING = "RESUMING"
    STOPPED = "STOPPED"
    REJECTED = "REJECTED"  # reason: the approver's words
    EXPIRED = "EXPIRED"
    COMPLETED = "COMPLETED"
    WORKLOAD_STOPPED = "WORKLOAD_STOPPED"
    WORKLOAD_FAILED = "WORKLOAD_FAILED"
    HANDOFF_FAILED = "HANDOFF_FAILED"
    NODE_LOST = "NODE_LOST"  # node
    EVICTED = "EVICTED"
    POD_VANISHED = "POD_VANISHED"
    DRAINING = "DRAINING"  # node: pausing because its node is drained
    DRAINED = "DRAINED"  # node: paused by the drain, to be resumed elsewhere (the residue sweep does if no one did)


@dataclass(frozen=True)
class Session:
    id: UUID
    name: str
    owner_id: UUID
    organization_id: UUID
    group_id: UUID
    kind: SessionKind
    state: SessionState
    image_id: UUID
    image_reference: str
    preset_id: UUID | None
    cpu_millicores: int
    memory_mib: int
    shm_mib: int
    disk_gib: int
    gpu: GpuAsk | None
    expiry: Expiry
    created_at: datetime
    updated_at: datetime
    priority: int = 0
    preemptible: bool = False
    env: dict[str, str] = field(default_factory=dict)
    mounts: tuple[MountRequest, ...] = ()
    template_id: UUID | None = None
    cluster_id: str | None = None
    requested_cluster: str | None = None
    placement: dict[str, Any] | None = None
    hold_id: UUID | None = None
    # holds are numbered: each resume reserves a new one under its own idempotency key
    hold_seq: int = 0
    expires_at: datetime | None = None
    running_since: datetime | None = None
    # seconds RUNNING before `running_since` (closed billing intervals)
    billed_seconds: int = 0
    # what has been charged so far; the due amount is always recomputed from the seconds
    charged_micro: int = 0
    endpoints: Endpoints = Endpoints()
    state_reason: str = ""
    # the reason as a code and its parameters by name (node names, the approver's words...),
    # for clients to say it in their own language; "" when the transition gave no code
    state_reason_code: str = ""
    state_reason_params: Mapping[str, str] = field(default_factory=dict)
    queued_at: datetime | None = None
    started_at: datetime | None = None
    approved_by: UUID | None = None
    job: JobRun | None = None
    # the stored row's version when this value was read; `update` checks and increments it
    version: int = 0

    @property
    def cpu_only(self) -> bool:
        return self.gpu is None

    @property
    def terminal(self) -> bool:
        return self.state in TERMINAL

    def transition(
        self,
        target: SessionState,
        at: datetime,
        reason: str = "",
        code: StateReasonCode | None = None,
        params: Mapping[str, str] | None = None,
    ) -> Session:
        check_transition(self.state, target)
        changes: dict[str, Any] = {
            "state": target,
            "updated_at": at,
            "state_reason": reason,
            "state_reason_code": code.value if code is not None else "",
            "state_reason_params": dict(params or {}),
        }
        if target == S.RUNNING:
            changes["running_since"] = at
            changes["started_at"] = self.started_at or at
        elif self.state == S.RUNNING or self.running_since is not None:
            # the billing clock stops at any exit from RUNNING
            if self.running_since is not None:
                changes["billed_seconds"] = self.billed_seconds + max(0, int((at - self.running_since).total_seconds()))
            changes["running_since"] = None
        if target == S.QUEUED:
            changes["queued_at"] = self.queued_at or at
        return replace(self, **changes)

    def remaining(self, now: datetime) -> timedelta | None:
        """Time left before expiry; None without an expiry or once the session has ended."""
        if self.expires_at is None or self.terminal:
            return None
        return max(timedelta(0), self.expires_at - now)

    def running_seconds(self, now: datetime) -> int:
        """Every second spent RUNNING so far: closed intervals plus the open one."""
        open_interval = int((now - self.running_since).total_seconds()) if self.running_since else 0
        return self.billed_seconds + max(0, open_interval)

    def expiry_warning(self, now: datetime) -> bool:
        """From 90 % of the time between creation and expiry elapsed (extensions move it);
        never for a session that has ended."""
        if self.expires_at is None or self.terminal:
            return False
        total = (self.expires_at - self.created_at).total_seconds()
        return (now - self.created_at).total_seconds() >= total * WARN_AT.numerator / WARN_AT.denominator

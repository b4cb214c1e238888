"""Resource policies per scope (global, organisation, group, user) and their resolution.

Two kinds of field:
- per-person settings (idle timeout, session duration, approval, priority, preemptible) come
  from the most specific scope that sets them: user → group → organisation → global;
- aggregate limits (sessions, GPUs, per-model cards, VRAM, CPU, memory, storage) bound the
  total use of the scope that sets them, and are checked at every level: the user's own use,
  the group's total, the organisation's total, the global total.
Allowed clusters narrow at every level (a group cannot use a cluster its organisation may not).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from fractions import Fraction
from typing import Any
from uuid import UUID

from domain.common.errors import DomainError, InvalidValueError
from domain.policies.errors import PolicyErrorCode, PolicyLimitError


class PolicyScopeKind(StrEnum):
    GLOBAL = "global"
    ORGANIZATION = "organization"
    GROUP = "group"
    USER = "user"


@dataclass(frozen=True, slots=True)
class PolicyScope:
    kind: PolicyScopeKind
    id: UUID | None = None

    def __post_init__(self) -> None:
        if (self.kind is PolicyScopeKind.GLOBAL) != (self.id is None):
            raise InvalidValueError("scope", "the global scope has no id; every other scope has one")

    @classmethod
    def global_(cls) -> PolicyScope:
        return cls(PolicyScopeKind.GLOBAL)

    @classmethod
    def organization(cls, organization_id: UUID) -> PolicyScope:
        return cls(PolicyScopeKind.ORGANIZATION, organization_id)

    @classmethod
    def group(cls, group_id: UUID) -> PolicyScope:
        return cls(PolicyScopeKind.GROUP, group_id)

    @classmethod
    def user(cls, user_id: UUID) -> PolicyScope:
        return cls(PolicyScopeKind.USER, user_id)


GLOBAL_SCOPE = PolicyScope(PolicyScopeKind.GLOBAL)


@dataclass(frozen=True, slots=True)
class ScopeChain:
    """Where a request comes from: the requester, their active group and its organisation.

    Names are only for messages ("group ML-Lab uses …"); ids decide.
    """

    user_id: UUID
    group_id: UUID
    organization_id: UUID
    user_name: str = ""
    group_name: str = ""
    organization_name: str = ""

    def scopes(self) -> tuple[PolicyScope, ...]:
        """Most specific first."""
        return (
            PolicyScope.user(self.user_id),
            PolicyScope.group(self.group_id),
            PolicyScope.organization(self.organization_id),
            GLOBAL_SCOPE,
        )

    def describe(self, scope: PolicyScope) -> str:
        names = {
            PolicyScopeKind.USER: self.user_name,
            PolicyScopeKind.GROUP: self.group_name,
            PolicyScopeKind.ORGANIZATION: self.organization_name,
        }
        if scope.kind is PolicyScopeKind.GLOBAL:
            return "the whole deployment"
        return f"{scope.kind} {names[scope.kind] or scope.id}"


PER_PERSON_FIELDS = (
    "idle_timeout_seconds",
    "max_session_seconds",
    "approval_required",
    "default_priority",
    "preemptible",
)
AGGREGATE_FIELDS = (
    "max_concurrent_sessions",
    "max_gpus",
    "max_vram_mib",
    "max_cpu_millicores",
    "max_memory_mib",
    "storage_quota_mib",
)
# What applies when no scope sets a per-person field (source None = built-in default).
DEFAULT_SETTINGS: dict[str, Any] = {
    "idle_timeout_seconds": None,
    "max_session_seconds": None,
    "approval_required": False,
    "default_priority": 0,
    "preemptible": False,
}


@dataclass(frozen=True)
class ResourcePolicy:
    """A scope's policy; None means "not set here" (inherit a setting, no limit at this level)."""

    scope: PolicyScope
    max_concurrent_sessions: int | None = None
    max_gpus: Fraction | None = None  # sum of ratios (1.0 = one whole card)
    # offering model name -> cap in cards (ratio sum), e.g. {"A100": 4}
    model_caps: Mapping[str, Fraction] = field(default_factory=dict)
    max_vram_mib: int | None = None
    max_cpu_millicores: int | None = None
    max_memory_mib: int | None = None
    storage_quota_mib: int | None = None
    idle_timeout_seconds: int | None = None
    max_session_seconds: int | None = None
    approval_required: bool | None = None
    default_priority: int | None = None
    preemptible: bool | None = None
    allowed_clusters: frozenset[str] | None = None  # None = any cluster
    updated_at: datetime | None = None
    updated_by: UUID | None = None

    def __post_init__(self) -> None:
        errors: list[DomainError] = []
        for name in (*AGGREGATE_FIELDS, "idle_timeout_seconds", "max_session_seconds"):
            value = getattr(self, name)
            if value is not None and value < 0:
                errors.append(InvalidValueError(_camel(name), "cannot be negative"))
        for model, cap in self.model_caps.items():
            if not model or cap < 0:
                errors.append(InvalidValueError("modelCaps", f"invalid cap for {model!r}"))
        if errors:
            raise errors[0]


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(p.title() for p in rest)


@dataclass(frozen=True, slots=True)
class ResourceRequest:
    """What one new session (or volume) would add to every level's usage."""

    gpu_ratio: Fraction = Fraction(0)
    model: str | None = None
    vram_mib: int = 0
    cpu_millicores: int = 0
    memory_mib: int = 0
    storage_mib: int = 0
    sessions: int = 1
    cluster: str | None = None


@dataclass(frozen=True, slots=True)
class Usage:
    """Current use counted against a scope's limits (running and admitted sessions)."""

    sessions: int = 0
    gpus: Fraction = Fraction(0)
    per_model: Mapping[str, Fraction] = field(default_factory=dict)
    vram_mib: int = 0
    cpu_millicores: int = 0
    memory_mib: int = 0
    storage_mib: int = 0


@dataclass(frozen=True, slots=True)
class EffectiveSetting:
    name: str
    value: Any
    source: PolicyScope | None  # None: the built-in default


@dataclass(frozen=True, slots=True)
class EffectiveLimit:
    name: str  # an AGGREGATE_FIELDS name, or "model_caps"
    scope: PolicyScope  # whose total it bounds (the scope that set it)
    value: int | Fraction
    model: str | None = None


@dataclass(frozen=True, slots=True)
class EffectivePolicy:
    chain: ScopeChain
    settings: Mapping[str, EffectiveSetting]
    limits: tuple[EffectiveLimit, ...]
    allowed_clusters: frozenset[str] | None
    # each scope that lists clusters with the ones it lists, most specific first
    allowed_clusters_by_scope: tuple[tuple[PolicyScope, frozenset[str]], ...]

    def setting(self, name: str) -> Any:
        return self.settings[name].value

    @property
    def allowed_clusters_sources(self) -> tuple[PolicyScope, ...]:
        return tuple(scope for scope, _ in self.allowed_clusters_by_scope)


@dataclass(frozen=True, slots=True)
class PolicyRefusal:
    code: PolicyErrorCode
    scope: PolicyScope
    field: str
    message: str
    limit: int | Fraction | None = None
    used: int | Fraction | None = None
    requested: int | Fraction | None = None
    model: str | None = None


@dataclass(frozen=True, slots=True)
class PolicyDecision:
    effective: EffectivePolicy
    refusal: PolicyRefusal | None = None

    @property
    def allowed(self) -> bool:
        return self.refusal is None

    def raise_if_refused(self) -> None:
        r = self.refusal
        if r is not None:
            raise PolicyLimitError(r.code, r.message, r.field, r.limit, r.used, r.requested)


def resolve(chain: ScopeChain, policies: Mapping[PolicyScope, ResourcePolicy]) -> EffectivePolicy:
    scopes = chain.scopes()
    settings: dict[str, EffectiveSetting] = {}
    for name in PER_PERSON_FIELDS:
        settings[name] = EffectiveSetting(name, DEFAULT_SETTINGS[name], None)
        for scope in scopes:
            policy = policies.get(scope)
            if policy is not None and getattr(policy, name) is not None:
                settings[name] = EffectiveSetting(name, getattr(policy, name), scope)
                break
    limits: list[EffectiveLimit] = []
    clusters: frozenset[str] | None = None
    cluster_sources: list[tuple[PolicyScope, frozenset[str]]] = []
    for scope in scopes:
        policy = policies.get(scope)
        if policy is None:
            continue
        for name in AGGREGATE_FIELDS:
            value = getattr(policy, name)
            if value is not None:
                limits.append(EffectiveLimit(name, scope, value))
        for model, cap in sorted(policy.model_caps.items()):
            limits.append(EffectiveLimit("model_caps", scope, cap, model))
        if policy.allowed_clusters is not None:
            clusters = policy.allowed_clusters if clusters is None else clusters & policy.allowed_clusters
            cluster_sources.append((scope, policy.allowed_clusters))
    return EffectivePolicy(chain, settings, tuple(limits), clusters, tuple(cluster_sources))


# limit field -> (Usage attribute, ResourceRequest attribute, unit in messages)
_UNITS = {
    "max_concurrent_sessions": ("sessions", "sessions", "sessions"),
    "max_gpus": ("gpus", "gpu_ratio", "GPUs"),
    "max_vram_mib": ("vram_mib", "vram_mib", "MiB of VRAM"),
    "max_cpu_millicores": ("cpu_millicores", "cpu_millicores", "CPU millicores"),
    "max_memory_mib": ("memory_mib", "memory_mib", "MiB of memory"),
    "storage_quota_mib": ("storage_mib", "storage_mib", "MiB of storage"),
}


@dataclass(frozen=True, slots=True)
class LimitStanding:
    """One aggregate limit against the current use of the scope it bounds: what is left of it
    before the next session (or volume) is refused."""

    limit: EffectiveLimit
    used: int | Fraction

    @property
    def remaining(self) -> int | Fraction:
        """Never below 0 (a limit lowered under the current use leaves nothing, not a debt)."""
        left = self.limit.value - self.used
        return left if left > 0 else 0


def standings(effective: EffectivePolicy, usage: Mapping[PolicyScope, Usage]) -> tuple[LimitStanding, ...]:
    """Every limit of `effective` with the use `check` counts against it, in the same order."""
    out: list[LimitStanding] = []
    for limit in effective.limits:
        used_now = usage.get(limit.scope, Usage())
        if limit.name == "model_caps":
            used: int | Fraction = used_now.per_model.get(limit.model or "", Fraction(0))
        else:
            used = getattr(used_now, _UNITS[limit.name][0])
        out.append(LimitStanding(limit, used))
    return tuple(out)


def format_quantity(value: int | Fraction) -> str:
    """3.75, 4, 0.5; thirds and other non-decimal fractions to three places."""
    if isinstance(value, int) or value.denominator == 1:
        return str(int(value))
    d = value.denominator
    while d % 2 == 0:
        d //= 2
    while d % 5 == 0:
        d //= 5
    if d == 1:
        text = f"{float(value):.6f}".rstrip("0")
        return text.rstrip(".")
    return f"{float(value):.3f}"


def check(
    effective: EffectivePolicy,
    usage: Mapping[PolicyScope, Usage],
    request: ResourceRequest,
    *,
    counted: bool = False,
) -> PolicyDecision:
    """The first limit the request would break, most specific level first. `counted`: the
    request is already part of `usage` (a queued session that a drain admits is counted while
    it waits), so it breaks a limit on what it uses when that usage alone exceeds it."""
    chain = effective.chain
    if (
        request.cluster is not None
        and effective.allowed_clusters is not None
        and request.cluster not in effective.allowed_clusters
    ):
        # the refusal names the scope that excludes the cluster (the most specific one whose
        # list lacks it), not merely one that lists clusters
        source = next(scope for scope, allowed in effective.allowed_clusters_by_scope if request.cluster not in allowed)
        return PolicyDecision(
            effective,
            PolicyRefusal(
                PolicyErrorCode.CLUSTER_NOT_ALLOWED,
                source,
                "allowed_clusters",
                f"cluster {request.cluster} is not among the clusters allowed to {chain.describe(chain.scopes()[0])}",
            ),
        )
    for limit in effective.limits:
        used_now = usage.get(limit.scope, Usage())
        if limit.name == "model_caps":
            if limit.model is None or request.model != limit.model or not request.gpu_ratio:
                continue
            used: int | Fraction = used_now.per_model.get(limit.model, Fraction(0))
            asked: int | Fraction = request.gpu_ratio
            unit = f"{limit.model} cards"
        else:
            used_attr, asked_attr, unit = _UNITS[limit.name]
            used = getattr(used_now, used_attr)
            asked = getattr(request, asked_attr)
            if not asked:
                continue
        if used + (0 if counted else asked) > limit.value:
            return PolicyDecision(
                effective,
                PolicyRefusal(
                    PolicyErrorCode.POLICY_LIMIT_EXCEEDED,
                    limit.scope,
                    limit.name,
                    f"{chain.describe(limit.scope)} uses {format_quantity(used)} of "
                    f"{format_quantity(limit.value)} {unit}; "
                    + (
                        f"{format_quantity(asked)} of them this session's"
                        if counted
                        else f"this asks {format_quantity(asked)}"
                    ),
                    limit.value,
                    used,
                    asked,
                    limit.model,
                ),
            )
    return PolicyDecision(effective)

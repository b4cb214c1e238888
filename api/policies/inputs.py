from __future__ import annotations

from fractions import Fraction

import strawberry

from api.credits.inputs import ScopeInput, policy_scope
from domain.common.errors import InvalidValueError
from domain.policies.model import ResourcePolicy


@strawberry.input(description='A per-model cap, e.g. {model: "A100", cards: "4"}.')
class ModelCapInput:
    model: str
    cards: str = strawberry.field(description='Cards as a ratio sum: "4", "2.5" or "1/3".')


@strawberry.input(
    description="Create or replace the policy of one scope: every field, null = not set at this scope "
    "(GLOBAL: super_admin; organisation: its org_admin; group: its organisation's org_admin; "
    "user: an admin of one of the user's groups)."
)
class PolicySetInput:
    scope: ScopeInput
    max_concurrent_sessions: int | None = None
    max_gpus: str | None = strawberry.field(default=None, description='Sum of GPU ratios: "4", "2.5", "1/3".')
    model_caps: list[ModelCapInput] | None = None
    max_vram_mib: int | None = None
    max_cpu_millicores: int | None = None
    max_memory_mib: int | None = None
    storage_quota_mib: int | None = None
    idle_timeout_seconds: int | None = None
    max_session_seconds: int | None = None
    approval_required: bool | None = None
    default_priority: int | None = None
    preemptible: bool | None = None
    allowed_clusters: list[str] | None = strawberry.field(default=None, description="null: any cluster.")


@strawberry.input
class PolicyDeleteInput:
    scope: ScopeInput


def quantity(value: str, field: str) -> Fraction:
    try:
        return Fraction(value.strip())
    except (ValueError, ZeroDivisionError) as exc:
        raise InvalidValueError(field, f"{value!r} is not a number or a fraction") from exc


def to_policy(i: PolicySetInput) -> ResourcePolicy:
    caps: dict[str, Fraction] = {}
    for cap in i.model_caps or []:
        name = cap.model.strip()
        if name in caps:
            raise InvalidValueError("modelCaps", f"{name!r} is capped twice")
        caps[name] = quantity(cap.cards, "modelCaps")
    return ResourcePolicy(
        scope=policy_scope(i.scope),
        max_concurrent_sessions=i.max_concurrent_sessions,
        max_gpus=quantity(i.max_gpus, "maxGpus") if i.max_gpus is not None else None,
        model_caps=caps,
        max_vram_mib=i.max_vram_mib,
        max_cpu_millicores=i.max_cpu_millicores,
        max_memory_mib=i.max_memory_mib,
        storage_quota_mib=i.storage_quota_mib,
        idle_timeout_seconds=i.idle_timeout_seconds,
        max_session_seconds=i.max_session_seconds,
        approval_required=i.approval_required,
        default_priority=i.default_priority,
        preemptible=i.preemptible,
        allowed_clusters=frozenset(c.strip() for c in i.allowed_clusters) if i.allowed_clusters is not None else None,
    )

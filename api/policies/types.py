"""GraphQL types of resource policies and the effective view (value and source per field)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from fractions import Fraction
from typing import Any
from uuid import UUID

import strawberry
from strawberry import relay

from api.common.ids import to_global
from api.context import Info
from api.credits.types import Scope
from domain.common.errors import DomainError
from domain.policies import services as policies
from domain.policies.model import (
    EffectivePolicy,
    EffectiveSetting,
    PolicyScope,
    PolicyScopeKind,
    ResourcePolicy,
    Usage,
    standings,
)


def quantity_text(value: int | Fraction) -> str:
    """Exact: "4", "2.5", "0.125"; a fraction with no finite decimal as "1/3"."""
    f = Fraction(value)
    if f.denominator == 1:
        return str(f.numerator)
    d = f.denominator
    for p in (2, 5):
        while d % p == 0:
            d //= p
    if d != 1:
        return f"{f.numerator}/{f.denominator}"
    digits = 0
    while (f * 10**digits).denominator != 1:
        digits += 1
    return f"{float(f):.{digits}f}" if digits <= 15 else f"{f.numerator}/{f.denominator}"


def policy_node_id(scope: PolicyScope) -> str:
    return scope.kind.value if scope.id is None else f"{scope.kind.value}:{scope.id}"


def parse_policy_node_id(node_id: str) -> PolicyScope:
    kind, _, owner = node_id.partition(":")
    try:
        return PolicyScope(PolicyScopeKind(kind), UUID(owner) if owner else None)
    except DomainError as exc:
        raise ValueError(node_id) from exc


def camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(p.title() for p in rest)


@strawberry.type(description="A per-model cap in cards (ratio sum), e.g. A100 × 4.")
class ModelCap:
    model: str
    cards: str = strawberry.field(description='Exact: "4", "2.5" or "1/3".')


@strawberry.type(
    name="ResourcePolicy",
    description="A scope's limits and settings; null fields are not set at this scope (settings inherit "
    "from a wider scope, limits do not bound this level).",
)
class ResourcePolicyNode(relay.Node):
    key: relay.NodeID[str]
    max_concurrent_sessions: int | None
    max_vram_mib: int | None
    max_cpu_millicores: int | None
    max_memory_mib: int | None
    storage_quota_mib: int | None
    idle_timeout_seconds: int | None
    max_session_seconds: int | None
    approval_required: bool | None
    default_priority: int | None
    preemptible: bool | None
    allowed_clusters: list[str] | None = strawberry.field(description="null: any cluster.")
    updated_at: datetime | None
    model: strawberry.Private[ResourcePolicy]

    @classmethod
    def of(cls, p: ResourcePolicy) -> ResourcePolicyNode:
        return cls(
            key=policy_node_id(p.scope),
            max_concurrent_sessions=p.max_concurrent_sessions,
            max_vram_mib=p.max_vram_mib,
            max_cpu_millicores=p.max_cpu_millicores,
            max_memory_mib=p.max_memory_mib,
            storage_quota_mib=p.storage_quota_mib,
            idle_timeout_seconds=p.idle_timeout_seconds,
            max_session_seconds=p.max_session_seconds,
            approval_required=p.approval_required,
            default_priority=p.default_priority,
            preemptible=p.preemptible,
            allowed_clusters=sorted(p.allowed_clusters) if p.allowed_clusters is not None else None,
            updated_at=p.updated_at,
            model=p,
        )

    @classmethod
    async def resolve_nodes(cls, *, info: Info, node_ids: Iterable[str], required: bool = False) -> list[Any]:
        actor = info.context.actor
        c = info.context.container
        out: list[ResourcePolicyNode | None] = []
        for raw in node_ids:
            try:
                if actor is None:
                    raise ValueError(raw)
                p = await policies.get_policy(actor, c.credits.policies, c.credits.directory, parse_policy_node_id(raw))
                out.append(cls.of(p) if p is not None else None)
            except (DomainError, ValueError):
                out.append(None)
        return out

    @strawberry.field
    def scope(self) -> Scope:
        return Scope.of(self.model.scope)

    @strawberry.field(description='Sum of GPU ratios (1 = one whole card), exact: "4", "2.5", "1/3".')
    def max_gpus(self) -> str | None:
        v = self.model.max_gpus
        return None if v is None else quantity_text(v)

    @strawberry.field
    def model_caps(self) -> list[ModelCap]:
        return [ModelCap(model=m, cards=quantity_text(v)) for m, v in sorted(self.model.model_caps.items())]

    @strawberry.field(description="The User who last set it.")
    def updated_by(self) -> relay.GlobalID | None:
        who = self.model.updated_by
        return to_global("User", who) if who else None


@strawberry.type(description="A per-person setting: its value and the scope it came from.")
class EffectiveIntSetting:
    value: int | None = strawberry.field(description="null: unlimited / none.")
    source: Scope | None = strawberry.field(description="null: the built-in default.")


@strawberry.type(description="A per-person setting: its value and the scope it came from.")
class EffectiveBooleanSetting:
    value: bool
    source: Scope | None = strawberry.field(description="null: the built-in default.")


@strawberry.type(description="An aggregate limit on the total use of the scope that set it (checked at every level).")
class EffectiveLimit:
    field: str = strawberry.field(description="The ResourcePolicy field, e.g. maxGpus or modelCaps.")
    scope: Scope
    value: str = strawberry.field(description='Exact quantity, e.g. "4" or "2.5".')
    model: str | None = strawberry.field(description="For modelCaps: the offering model.")
    used: str | None = strawberry.field(
        default=None,
        description='What the scope that set the limit uses now (counted as admission counts it), e.g. "2.5".',
    )
    remaining: str | None = strawberry.field(
        default=None,
        description='What is left of the limit before new work is refused (value - used, never below "0").',
    )


def _setting(s: EffectiveSetting) -> Any:
    return Scope.of(s.source) if s.source is not None else None


@strawberry.type(
    name="EffectivePolicy",
    description="What applies to one user working in one group: per-person settings from the most specific "
    "scope that sets them (user → group → organisation → global), and every aggregate limit on the chain.",
)
class EffectivePolicyType:
    model: strawberry.Private[EffectivePolicy]

    @strawberry.field(description="The scopes considered, most specific first: user, group, organisation, global.")
    def chain(self) -> list[Scope]:
        return [Scope.of(s) for s in self.model.chain.scopes()]

    def _int(self, name: str) -> EffectiveIntSetting:
        s = self.model.settings[name]
        return EffectiveIntSetting(value=s.value, source=_setting(s))

    def _bool(self, name: str) -> EffectiveBooleanSetting:
        s = self.model.settings[name]
        return EffectiveBooleanSetting(value=bool(s.value), source=_setting(s))

    @strawberry.field
    def idle_timeout_seconds(self) -> EffectiveIntSetting:
        return self._int("idle_timeout_seconds")

    @strawberry.field
    def max_session_seconds(self) -> EffectiveIntSetting:
        return self._int("max_session_seconds")

    @strawberry.field
    def approval_required(self) -> EffectiveBooleanSetting:
        return self._bool("approval_required")

    @strawberry.field
    def default_priority(self) -> EffectiveIntSetting:
        return self._int("default_priority")

    @strawberry.field
    def preemptible(self) -> EffectiveBooleanSetting:
        return self._bool("preemptible")

    @strawberry.field(
        description="Every aggregate limit on the chain, most specific scope first, with what the scope that set it "
        "uses now and what is left of it."
    )
    async def limits(self, info: Info) -> list[EffectiveLimit]:
        scopes = tuple(dict.fromkeys(limit.scope for limit in self.model.limits))
        usage: Mapping[PolicyScope, Usage] = {}
        if scopes:
            async with info.context.container.uow() as uow:
                usage = await uow.usage.usage(scopes)
        return [
            EffectiveLimit(
                field=camel(x.limit.name),
                scope=Scope.of(x.limit.scope),
                value=quantity_text(x.limit.value),
                model=x.limit.model,
                used=quantity_text(x.used),
                remaining=quantity_text(x.remaining),
            )
            for x in standings(self.model, usage)
        ]

    @strawberry.field(description="Clusters allowed at every level (null: any cluster).")
    def allowed_clusters(self) -> list[str] | None:
        a = self.model.allowed_clusters
        return None if a is None else sorted(a)

    @strawberry.field(description="The scopes whose cluster lists narrowed `allowedClusters`.")
    def allowed_clusters_sources(self) -> list[Scope]:
        return [Scope.of(s) for s in self.model.allowed_clusters_sources]

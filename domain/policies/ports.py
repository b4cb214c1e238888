"""Ports the policies use cases need. Adapters: infra/credits (SQL and in-memory)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol
from uuid import UUID

from domain.policies.model import PolicyScope, ResourcePolicy, Usage


class PolicyRepository(Protocol):
    async def get(self, scope: PolicyScope) -> ResourcePolicy | None: ...

    async def for_scopes(self, scopes: Sequence[PolicyScope]) -> Mapping[PolicyScope, ResourcePolicy]: ...

    async def put(self, policy: ResourcePolicy) -> None:
        """Insert or replace the policy of `policy.scope`."""
        ...

    async def delete(self, scope: PolicyScope) -> bool: ...

    async def all(self) -> Sequence[ResourcePolicy]: ...


class UsageReader(Protocol):
    """Current use per scope; implemented by the sessions/volumes context."""

    async def usage(self, scopes: Sequence[PolicyScope]) -> Mapping[PolicyScope, Usage]: ...


class ScopeDirectory(Protocol):
    """The tenancy facts authorisation needs (structurally the same as the credits Directory)."""

    async def group_organization(self, group_id: UUID) -> UUID | None: ...

    async def user_groups(self, user_id: UUID) -> Mapping[UUID, UUID]:
        """group id -> organisation id for every group the user belongs to."""
        ...

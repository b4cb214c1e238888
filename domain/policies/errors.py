"""Refusals of the policies context. Code values are unique across the project."""

from __future__ import annotations

from enum import StrEnum

from domain.common.errors import DomainError


class PolicyErrorCode(StrEnum):
    POLICY_LIMIT_EXCEEDED = "POLICY_LIMIT_EXCEEDED"
    CLUSTER_NOT_ALLOWED = "CLUSTER_NOT_ALLOWED"


class PolicyLimitError(DomainError):
    """A request refused by a resource policy; carries the numbers of the refusal."""

    def __init__(
        self,
        code: PolicyErrorCode,
        message: str,
        field: str,
        limit: object = None,
        used: object = None,
        requested: object = None,
    ) -> None:
        super().__init__(code, message, field)
        self.limit, self.used, self.requested = limit, used, requested

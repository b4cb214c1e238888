"""Refusals of the policies context. Code values are unique across the project."""

from __future__ import annotations

from enum import StrEnum
from fractions import Fraction

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
        params = {k: _text(v) for k, v in (("limit", limit), ("used", used), ("requested", requested)) if v is not None}
        super().__init__(code, message, field, params)
        self.limit, self.used, self.requested = limit, used, requested


def _text(value: object) -> str:
    """A limit's quantity as the message writes it: whole numbers plainly, fractions of a card
    as a decimal (up to 4 places)."""
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return str(value.numerator)
        return f"{float(value):.4f}".rstrip("0").rstrip(".")
    return str(value)

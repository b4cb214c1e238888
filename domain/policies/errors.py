"""Refusals of the policies context. Code values are unique across the project."""

from __future__ import annotations

from enum import StrEnum


class PolicyErrorCode(StrEnum):
    POLICY_LIMIT_EXCEEDED = "POLICY_LIMIT_EXCEEDED"
    CLUSTER_NOT_ALLOWED = "CLUSTER_NOT_ALLOWED"

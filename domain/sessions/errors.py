from __future__ import annotations

from enum import StrEnum

from domain.common.errors import DomainError


class SessionErrorCode(StrEnum):
    ILLEGAL_TRANSITION = "ILLEGAL_TRANSITION"
    INVALID_EXPIRY = "INVALID_EXPIRY"
    EXTENSION_OVER_POLICY = "EXTENSION_OVER_POLICY"
    MOUNT_NOT_PERMITTED = "MOUNT_NOT_PERMITTED"
    WALLET_NOT_OWN = "WALLET_NOT_OWN"
    GUEST_GPU_REFUSED = "GUEST_GPU_REFUSED"
    APPROVAL_NOT_PENDING = "APPROVAL_NOT_PENDING"
    ENV_RESERVED = "ENV_RESERVED"  # a variable the GPU runtime or gshare itself reads


class SessionError(DomainError):
    pass


class AdmissionRefused(SessionError):
    """A refusal by one admission step: names the step, the scope and the numbers. The code is
    the underlying rule's (e.g. POLICY_LIMIT_EXCEEDED, BUDGET_EXCEEDED, INSUFFICIENT_CREDITS)."""

    def __init__(self, step: int, step_name: str, cause: DomainError) -> None:
        super().__init__(cause.code, f"step {step} ({step_name}): {cause.message}", cause.field, cause.params)
        self.step = step
        self.step_name = step_name
        self.cause = cause

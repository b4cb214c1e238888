"""Control-plane side of the operator's signed callbacks (status reports and inventory)."""

from infra.callbacks.verify import (
    AUDIENCE,
    BODY_HASH_CLAIM,
    CallbackErrorCode,
    CallbackRejected,
    CallbackVerifier,
    ClusterKeyStore,
    InMemoryClusterKeyStore,
    InMemoryReplayCache,
    ReplayCache,
    VerifiedCallback,
    load_public_key,
)

__all__ = [
    "AUDIENCE",
    "BODY_HASH_CLAIM",
    "CallbackErrorCode",
    "CallbackRejected",
    "CallbackVerifier",
    "ClusterKeyStore",
    "InMemoryClusterKeyStore",
    "InMemoryReplayCache",
    "ReplayCache",
    "VerifiedCallback",
    "load_public_key",
]

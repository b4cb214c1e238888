from __future__ import annotations

from datetime import datetime
from enum import Enum

import strawberry

from api.inventory.types import SharingMode
from domain.inventory.clusters import RegisteredCluster as RegisteredClusterModel
from domain.inventory.node_operations import NodeOperation as NodeOperationModel
from domain.inventory.node_operations import NodeOperationState as NodeOperationStateModel
from domain.inventory.node_operations import NodeOperationStep as NodeOperationStepModel


@strawberry.enum(description="How a cluster's placement chooses among cards that fit.")
class PlacementPolicy(Enum):
    BEST_FIT = "best-fit"
    FIRST_FIT = "first-fit"
    GPU_PACKING = "gpu-packing"
    FRAGMENTATION_AWARE = "fragmentation-aware"


NodeOperationStep = strawberry.enum(NodeOperationStepModel, name="NodeOperationStep")
NodeOperationState = strawberry.enum(NodeOperationStateModel, name="NodeOperationState")


def _key_algorithm(pem: str | None) -> str | None:
    if not pem:
        return None
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    from infra.callbacks.verify import load_public_key

    try:
        return "EdDSA" if isinstance(load_public_key(pem), Ed25519PublicKey) else "ES256"
    except ValueError:
        return None


@strawberry.type(description="A cluster registered with gshare (its kubeconfig is never shown).")
class RegisteredCluster:
    id: str
    name: str
    kind: str
    placement_policy: str
    has_kubeconfig: bool
    callback_key_algorithm: str | None = strawberry.field(description="EdDSA or ES256, from the registered key.")
    callback_public_key: str | None
    created_at: datetime | None
    prometheus_url: str | None = strawberry.field(
        default=None, description="Live usage also comes from this Prometheus (null: from the node agents only)."
    )
    has_prometheus_token: bool = strawberry.field(default=False, description="A bearer token is kept (never shown).")

    @classmethod
    def of(cls, c: RegisteredClusterModel) -> RegisteredCluster:
        return cls(
            id=c.id,
            name=c.name,
            kind=c.kind,
            placement_policy=c.placement_policy,
            has_kubeconfig=c.kubeconfig_encrypted is not None,
            callback_key_algorithm=_key_algorithm(c.callback_public_key),
            callback_public_key=c.callback_public_key,
            created_at=c.created_at,
            prometheus_url=c.prometheus_url,
            has_prometheus_token=c.prometheus_token_encrypted is not None,
        )


@strawberry.type
class NodeOperationProgress:
    step: NodeOperationStep  # type: ignore[valid-type]
    message: str
    at: datetime


@strawberry.type(description="A guarded node operation (sharing-mode or replica change) and its progress.")
class NodeOperation:
    id: strawberry.ID
    cluster_id: str
    node_id: str
    mode: SharingMode  # type: ignore[valid-type]
    replicas: int | None
    state: NodeOperationState  # type: ignore[valid-type]
    current_step: NodeOperationStep | None  # type: ignore[valid-type]
    steps: list[NodeOperationProgress]
    drained_sessions: list[str]
    removed_resources: list[str]
    error: str | None
    created_at: datetime
    finished_at: datetime | None

    @classmethod
    def of(cls, op: NodeOperationModel) -> NodeOperation:
        return cls(
            id=strawberry.ID(str(op.id)),
            cluster_id=op.cluster_id,
            node_id=op.node_id,
            mode=op.mode,
            replicas=op.replicas,
            state=op.state,
            current_step=op.current_step,
            steps=[NodeOperationProgress(step=p.step, message=p.message, at=p.at) for p in op.steps],
            drained_sessions=list(op.drained_sessions),
            removed_resources=list(op.removed_resources),
            error=op.error,
            created_at=op.created_at,
            finished_at=op.finished_at,
        )

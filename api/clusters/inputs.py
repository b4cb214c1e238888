from __future__ import annotations

import strawberry

from api.clusters.types import PlacementPolicy
from api.inventory.types import SharingMode


@strawberry.input
class ClusterRegisterInput:
    id: str = strawberry.field(description="A DNS label; the operator's --cluster-id (its callbacks' issuer).")
    name: str
    kubeconfig: str = strawberry.field(description="YAML; stored encrypted, never shown again.")
    callback_public_key: str = strawberry.field(description="The operator's Ed25519 or P-256 public key, PEM.")
    placement_policy: PlacementPolicy = PlacementPolicy.BEST_FIT


@strawberry.input
class ClusterPlacementPolicyUpdateInput:
    cluster_id: str
    placement_policy: PlacementPolicy


@strawberry.input
class ClusterUsageSourceSetInput:
    cluster_id: str
    prometheus_url: str | None = strawberry.field(
        default=None,
        description="The Prometheus that scrapes this cluster's cAdvisor and DCGM/HAMi exporters (null: none).",
    )
    prometheus_bearer_token: str | None = strawberry.field(
        default=None, description="Sent as `Authorization: Bearer …`; stored encrypted, never shown again."
    )


@strawberry.input
class ClusterDeregisterInput:
    cluster_id: str


@strawberry.input
class NodeSharingModeChangeInput:
    cluster_id: str
    node_id: str = strawberry.field(description="`<cluster>/<node name>` or the node name alone.")
    mode: SharingMode  # type: ignore[valid-type]
    replicas: int | None = strawberry.field(default=None, description="Time slices per card (time slicing only).")


@strawberry.input
class NodeCordonSetInput:
    cluster_id: str
    node_id: str = strawberry.field(description="`<cluster>/<node name>` or the node name alone.")
    cordoned: bool = strawberry.field(description="true: take no new sessions; false: take them again.")


@strawberry.input
class NodeDrainInput:
    cluster_id: str
    node_id: str = strawberry.field(description="`<cluster>/<node name>` or the node name alone.")

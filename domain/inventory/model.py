"""Inventory model: clusters, nodes, cards, MIG instances and time-slices (BRICK's three GPU kinds).

Everything here is an immutable value: the inventory as a cluster reports it. What is allocated
where is a `Placement` (also a value); the scheduler keeps the mutable free-capacity state.
All values convert to and from plain data (`to_dict` / `from_dict`) so the database and the
cluster adapters can store and ship them without knowing these classes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any

from domain.inventory.errors import InventoryError, InventoryErrorCode

RESOURCE_GPU = "nvidia.com/gpu"
RESOURCE_GPU_SHARED = "nvidia.com/gpu.shared"
RESOURCE_GPU_MEM = "nvidia.com/gpumem"
RESOURCE_GPU_CORES = "nvidia.com/gpucores"
MIG_RESOURCE_PREFIX = "nvidia.com/mig-"
WHOLE_CARD_CORES = 100
# NVIDIA A100/H100 split compute into 7 slices; a `3g.40gb` instance has 3 of them.
MIG_COMPUTE_SLICES = 7


class SharingMode(StrEnum):
    """How a node's (non-MIG) cards are shared; one mode per node (BRICK)."""

    HAMI = "hami"
    TIMESLICING = "timeslicing"
    EXCLUSIVE = "exclusive"


class GpuKind(StrEnum):
    """What a placement takes; also what an approving admin may force on a request."""

    HAMI = "hami"  # a VRAM/core fraction of a card (or the whole card) on a HAMi node
    MIG = "mig"  # one MIG instance
    SHARED = "shared"  # one time-slice of a card on a time-slicing node
    EXCLUSIVE = "exclusive"  # whole cards


_MIG_PROFILE = re.compile(r"^(\d)g\.(\d+)gb$")


@dataclass(frozen=True, slots=True)
class MigProfile:
    """A MIG profile such as `1g.10gb`: compute slices out of 7 and memory in GiB."""

    name: str
    compute_slices: int
    vram_mib: int

    @classmethod
    def parse(cls, name: str, vram_mib: int | None = None) -> MigProfile:
        match = _MIG_PROFILE.match(name)
        if match is None:
            raise InventoryError(
                f"MIG profile {name!r} is not of the form <n>g.<m>gb",
                "profile",
                InventoryErrorCode.MIG_PROFILE_INVALID,
            )
        slices = int(match.group(1))
        if not 1 <= slices <= MIG_COMPUTE_SLICES:
            raise InventoryError(
                f"MIG profile {name!r} has {slices} compute slices; a card has 1 to 7",
                "profile",
                InventoryErrorCode.MIG_PROFILE_INVALID,
            )
        return cls(name, slices, vram_mib if vram_mib is not None else int(match.group(2)) * 1024)

    @property
    def compute_fraction(self) -> Fraction:
        return Fraction(self.compute_slices, MIG_COMPUTE_SLICES)

    @property
    def cores(self) -> int:
        """Compute as whole percent of the card, rounded down (a request must fit under it)."""
        return self.compute_slices * WHOLE_CARD_CORES // MIG_COMPUTE_SLICES

    @property
    def resource(self) -> str:
        return f"{MIG_RESOURCE_PREFIX}{self.name}"


@dataclass(frozen=True, slots=True)
class MigInstance:
    id: str
    profile: MigProfile

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "profile": self.profile.name, "vram_mib": self.profile.vram_mib}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MigInstance:
        return cls(str(data["id"]), MigProfile.parse(str(data["profile"]), data.get("vram_mib")))


@dataclass(frozen=True, slots=True)
class Card:
    """One physical GPU. `model` is the offering key it is sold as (e.g. `A100-80GB`).

    What a cluster does not publish is not made up here:
    - `identified` is False when `uuid` is gshare's placeholder, not the card's real UUID
      (the NVIDIA device plugin and GPU feature discovery publish counts, not UUIDs; HAMi's
      registration does name each card). Placeholders are never sent to a cluster as a pin.
    - `physical_count` > 1 makes this entry a *MIG group*: that many cards of the node in MIG
      mode whose instances the node lists only as per-profile counts (the mixed strategy's
      `nvidia.com/mig-<profile>`), so which card holds which instance is unknown. `vram_mib`
      and `cores` are then each card's size; the instances belong to the group.
    """

    uuid: str
    model: str
    vram_mib: int
    cores: int = WHOLE_CARD_CORES
    mig_instances: tuple[MigInstance, ...] = ()
    # logical GPUs this card shows on a time-slicing node; 1 elsewhere
    timeslice_replicas: int = 1
    identified: bool = True
    physical_count: int = 1

    @property
    def mig_enabled(self) -> bool:
        return bool(self.mig_instances)

    def to_dict(self) -> dict[str, Any]:
        return {
            "uuid": self.uuid,
            "model": self.model,
            "vram_mib": self.vram_mib,
            "cores": self.cores,
            "mig_instances": [m.to_dict() for m in self.mig_instances],
            "timeslice_replicas": self.timeslice_replicas,
            "identified": self.identified,
            "physical_count": self.physical_count,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Card:
        return cls(
            uuid=str(data["uuid"]),
            model=str(data["model"]),
            vram_mib=int(data["vram_mib"]),
            cores=int(data.get("cores", WHOLE_CARD_CORES)),
            mig_instances=tuple(MigInstance.from_dict(m) for m in data.get("mig_instances", ())),
            timeslice_replicas=int(data.get("timeslice_replicas", 1)),
            identified=bool(data.get("identified", True)),
            physical_count=int(data.get("physical_count", 1)),
        )


@dataclass(frozen=True, slots=True)
class Node:
    id: str
    name: str
    cluster_id: str
    sharing_mode: SharingMode
    cpu_millicores: int
    memory_mib: int
    cards: tuple[Card, ...] = ()
    labels: Mapping[str, str] = field(default_factory=dict)
    cordoned: bool = False
    schedulable: bool = True
    # GPU resources the node lists in capacity/allocatable (name -> count), as last reported;
    # empty when unknown. Compared with what the sharing mode serves to flag stale resources.
    advertised_resources: Mapping[str, int] = field(default_factory=dict)

    @property
    def accepts_work(self) -> bool:
        return self.schedulable and not self.cordoned

    @property
    def is_gpu_node(self) -> bool:
        return bool(self.cards)

    def logical_units(self, card: Card) -> int:
        """Schedulable units a card shows: replicas when time-sliced, instances when MIG."""
        if card.mig_enabled:
            return len(card.mig_instances)
        if self.sharing_mode is SharingMode.TIMESLICING:
            return card.timeslice_replicas
        return 1

    def served_resources(self) -> dict[str, int]:
        """GPU resources this node's mode and cards expose, with their logical counts."""
        served: dict[str, int] = {}
        for card in self.cards:
            if card.mig_enabled:
                for inst in card.mig_instances:
                    served[inst.profile.resource] = served.get(inst.profile.resource, 0) + 1
            elif self.sharing_mode is SharingMode.TIMESLICING:
                served[RESOURCE_GPU_SHARED] = served.get(RESOURCE_GPU_SHARED, 0) + card.timeslice_replicas
            else:
                served[RESOURCE_GPU] = served.get(RESOURCE_GPU, 0) + 1
                if self.sharing_mode is SharingMode.HAMI:
                    served[RESOURCE_GPU_MEM] = served.get(RESOURCE_GPU_MEM, 0) + card.vram_mib
                    served[RESOURCE_GPU_CORES] = served.get(RESOURCE_GPU_CORES, 0) + card.cores
        return served

    @property
    def stale_resources(self) -> tuple[str, ...]:
        """GPU resources still listed in capacity/allocatable that this node no longer serves
        (BRICK's runbook: e.g. `nvidia.com/gpu` left behind after switching to time-slicing)."""
        served = self.served_resources()
        return tuple(
            sorted(
                name
                for name, count in self.advertised_resources.items()
                if name.startswith("nvidia.com/") and count > 0 and name not in served
            )
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "cluster_id": self.cluster_id,
            "sharing_mode": self.sharing_mode.value,
            "cpu_millicores": self.cpu_millicores,
            "memory_mib": self.memory_mib,
            "cards": [c.to_dict() for c in self.cards],
            "labels": dict(self.labels),
            "cordoned": self.cordoned,
            "schedulable": self.schedulable,
            "advertised_resources": dict(self.advertised_resources),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Node:
        return cls(
            id=str(data["id"]),
            name=str(data.get("name", data["id"])),
            cluster_id=str(data["cluster_id"]),
            sharing_mode=SharingMode(data.get("sharing_mode", SharingMode.HAMI)),
            cpu_millicores=int(data["cpu_millicores"]),
            memory_mib=int(data["memory_mib"]),
            cards=tuple(Card.from_dict(c) for c in data.get("cards", ())),
            labels={str(k): str(v) for k, v in dict(data.get("labels", {})).items()},
            cordoned=bool(data.get("cordoned", False)),
            schedulable=bool(data.get("schedulable", True)),
            advertised_resources={str(k): int(v) for k, v in dict(data.get("advertised_resources", {})).items()},
        )


DEFAULT_PLACEMENT_POLICY = "best-fit"


@dataclass(frozen=True, slots=True)
class Cluster:
    id: str
    name: str
    placement_policy: str = DEFAULT_PLACEMENT_POLICY

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "placement_policy": self.placement_policy}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Cluster:
        return cls(
            str(data["id"]),
            str(data.get("name", data["id"])),
            str(data.get("placement_policy", DEFAULT_PLACEMENT_POLICY)),
        )


@dataclass(frozen=True, slots=True)
class Inventory:
    """Every cluster, node and card the deployment knows. Validated on construction."""

    clusters: tuple[Cluster, ...]
    nodes: tuple[Node, ...]

    def __post_init__(self) -> None:
        _validate(self)

    def cluster(self, cluster_id: str) -> Cluster:
        for c in self.clusters:
            if c.id == cluster_id:
                return c
        raise InventoryError(f"no cluster {cluster_id!r}", "cluster_id")

    def node(self, node_id: str) -> Node:
        for n in self.nodes:
            if n.id == node_id:
                return n
        raise InventoryError(f"no node {node_id!r}", "node_id")

    def nodes_of(self, cluster_id: str) -> tuple[Node, ...]:
        return tuple(n for n in self.nodes if n.cluster_id == cluster_id)

    def models(self) -> tuple[str, ...]:
        return tuple(sorted({c.model for n in self.nodes for c in n.cards}))

    def replace_node(self, node: Node) -> Inventory:
        return Inventory(self.clusters, tuple(node if n.id == node.id else n for n in self.nodes))

    def to_dict(self) -> dict[str, Any]:
        return {
            "clusters": [c.to_dict() for c in self.clusters],
            "nodes": [n.to_dict() for n in self.nodes],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Inventory:
        return cls(
            tuple(Cluster.from_dict(c) for c in data.get("clusters", ())),
            tuple(Node.from_dict(n) for n in data.get("nodes", ())),
        )


def _validate(inv: Inventory) -> None:
    cluster_ids = [c.id for c in inv.clusters]
    if len(set(cluster_ids)) != len(cluster_ids):
        raise InventoryError("cluster ids must be unique", "clusters")
    known = set(cluster_ids)
    node_ids: set[str] = set()
    card_ids: set[str] = set()
    model_sizes: dict[str, tuple[int, int]] = {}
    for node in inv.nodes:
        if node.id in node_ids:
            raise InventoryError(f"node id {node.id!r} is listed twice", "nodes")
        node_ids.add(node.id)
        if node.cluster_id not in known:
            raise InventoryError(f"node {node.id!r} names unknown cluster {node.cluster_id!r}")
        if node.cpu_millicores < 0 or node.memory_mib < 0:
            raise InventoryError(f"node {node.id!r} has negative CPU or memory")
        for card in node.cards:
            if card.uuid in card_ids:
                raise InventoryError(f"card {card.uuid!r} is listed twice", "cards")
            card_ids.add(card.uuid)
            if card.vram_mib <= 0 or card.cores <= 0:
                raise InventoryError(f"card {card.uuid!r} needs positive VRAM and cores")
            size = (card.vram_mib, card.cores)
            # one model, one card size: the offering's tiers are computed from it
            if model_sizes.setdefault(card.model, size) != size:
                raise InventoryError(f"cards of model {card.model!r} differ in VRAM or cores")
            if card.timeslice_replicas < 1:
                raise InventoryError(f"card {card.uuid!r} needs at least one time-slice replica")
            if card.physical_count < 1 or (card.physical_count > 1 and not card.mig_enabled):
                raise InventoryError(f"card {card.uuid!r}: only a MIG group stands for several cards")
            if card.mig_enabled:
                if node.sharing_mode is SharingMode.TIMESLICING:
                    raise InventoryError(f"card {card.uuid!r}: MIG cards are not time-sliced in this model")
                slices = sum(m.profile.compute_slices for m in card.mig_instances)
                vram = sum(m.profile.vram_mib for m in card.mig_instances)
                if slices > MIG_COMPUTE_SLICES * card.physical_count or vram > card.vram_mib * card.physical_count:
                    raise InventoryError(
                        f"card {card.uuid!r}: MIG instances exceed the card",
                        code=InventoryErrorCode.MIG_PROFILE_INVALID,
                    )
                for inst in card.mig_instances:
                    if inst.id in card_ids:
                        raise InventoryError(f"MIG instance id {inst.id!r} is listed twice")
                    card_ids.add(inst.id)


@dataclass(frozen=True, slots=True)
class CardShare:
    """What one placement takes from one card: a fraction, a MIG instance, a slice or the card."""

    card_uuid: str
    vram_mib: int
    cores: int
    mig_instance_id: str | None = None
    timeslice: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "card_uuid": self.card_uuid,
            "vram_mib": self.vram_mib,
            "cores": self.cores,
            "mig_instance_id": self.mig_instance_id,
            "timeslice": self.timeslice,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CardShare:
        mig = data.get("mig_instance_id")
        return cls(
            str(data["card_uuid"]),
            int(data["vram_mib"]),
            int(data["cores"]),
            None if mig is None else str(mig),
            bool(data.get("timeslice", False)),
        )


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a workload runs and what it holds there. `ratio` is what it is billed for
    (DESIGN "Ratio and billing"): max(VRAM share, core share) of one card, 1 per exclusive
    card, 1/replicas per time-slice; a MIG placement bills the request's own ratio.

    A CPU-only placement has no `kind`, no shares and ratio 0: it takes CPU and memory on
    its node only. `model` is the card model placed on (None for CPU-only, and for
    placements stored before requests could name a class of cards)."""

    cluster_id: str
    node_id: str
    kind: GpuKind | None
    shares: tuple[CardShare, ...]
    ratio: Fraction
    cpu_millicores: int
    memory_mib: int
    model: str | None = None

    @property
    def cpu_only(self) -> bool:
        return self.kind is None

    @property
    def card_uuids(self) -> tuple[str, ...]:
        return tuple(s.card_uuid for s in self.shares)

    @property
    def vram_mib(self) -> int:
        return sum(s.vram_mib for s in self.shares)

    @property
    def cores(self) -> int:
        return sum(s.cores for s in self.shares)

    @property
    def mig_instance_id(self) -> str | None:
        return self.shares[0].mig_instance_id if self.shares else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "cluster_id": self.cluster_id,
            "node_id": self.node_id,
            "kind": None if self.kind is None else self.kind.value,
            "shares": [s.to_dict() for s in self.shares],
            "ratio": str(self.ratio),
            "cpu_millicores": self.cpu_millicores,
            "memory_mib": self.memory_mib,
            "model": self.model,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Placement:
        kind = data.get("kind")
        model = data.get("model")
        return cls(
            cluster_id=str(data["cluster_id"]),
            node_id=str(data["node_id"]),
            kind=None if kind is None else GpuKind(kind),
            shares=tuple(CardShare.from_dict(s) for s in data.get("shares", ())),
            ratio=Fraction(str(data["ratio"])),
            cpu_millicores=int(data["cpu_millicores"]),
            memory_mib=int(data["memory_mib"]),
            model=None if model is None else str(model),
        )


def card_index(inventory: Inventory) -> dict[str, tuple[Node, Card]]:
    """Card uuid -> (node, card)."""
    return {card.uuid: (node, card) for node in inventory.nodes for card in node.cards}


def iter_cards(nodes: Iterable[Node]) -> Iterable[tuple[Node, Card]]:
    for node in nodes:
        for card in node.cards:
            yield node, card

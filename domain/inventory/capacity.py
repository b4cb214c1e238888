"""Capacity views (BRICK's dashboard): Total / Used / Available per GPU resource and per model,
counted physically (cards) and logically (schedulable units: a time-sliced card counts
`replicas`, a MIG card counts its instances)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction

from domain.inventory.model import (
    RESOURCE_GPU,
    RESOURCE_GPU_SHARED,
    Card,
    GpuKind,
    Inventory,
    Node,
    Placement,
    SharingMode,
)


@dataclass(frozen=True, slots=True)
class Counts:
    total: int
    used: int

    @property
    def available(self) -> int:
        return self.total - self.used


@dataclass(frozen=True, slots=True)
class CapacityRow:
    """One row of a capacity view.

    `resource` is the Kubernetes resource name; HAMi and exclusive cards are both
    `nvidia.com/gpu`, told apart by `kind`. `shared` marks rows whose units are shared between
    workloads (HAMi fractions, time-slices). A physical card is *used* as soon as anything runs
    on it. `ratio_used` is the sum of placed ratios in whole-card equivalents, which is what
    HAMi fractions really consume.
    """

    resource: str
    kind: GpuKind
    model: str | None
    shared: bool
    physical: Counts
    logical: Counts
    ratio_used: Fraction


@dataclass(slots=True)
class _Acc:
    phys_total: int = 0
    phys_used: int = 0
    log_total: int = 0
    log_used: int = 0
    ratio_used: Fraction = field(default_factory=Fraction)


def _card_kind(node: Node, card: Card) -> GpuKind:
    if card.mig_enabled:
        return GpuKind.MIG
    if node.sharing_mode is SharingMode.TIMESLICING:
        return GpuKind.SHARED
    if node.sharing_mode is SharingMode.HAMI:
        return GpuKind.HAMI
    return GpuKind.EXCLUSIVE


def _main_profile(card: Card) -> str:
    """The resource of the MIG profile taking most of the card (by instance memory; the first
    listed among equals)."""
    share: dict[str, int] = {}
    for inst in card.mig_instances:
        share[inst.profile.resource] = share.get(inst.profile.resource, 0) + inst.profile.vram_mib
    return max(share, key=lambda r: share[r])


def _usage(
    placements: Iterable[Placement],
) -> tuple[dict[str, int], dict[str, Fraction], dict[str, Fraction]]:
    """Per card: units taken and ratio used; per taken MIG instance: its ratio."""
    units: dict[str, int] = {}
    mig_taken: dict[str, Fraction] = {}
    ratio: dict[str, Fraction] = {}
    for p in placements:
        per_card = p.ratio / len(p.shares) if p.shares else Fraction(0)
        for s in p.shares:
            ratio[s.card_uuid] = ratio.get(s.card_uuid, Fraction(0)) + per_card
            if s.mig_instance_id is not None:
                mig_taken[s.mig_instance_id] = per_card
            units[s.card_uuid] = units.get(s.card_uuid, 0) + 1
    return units, mig_taken, ratio


def _rows(
    inventory: Inventory, placements: Iterable[Placement], by_model: bool, cluster_id: str | None
) -> list[CapacityRow]:
    units, mig_taken, ratio = _usage(placements)
    acc: dict[tuple[str, GpuKind, str | None], _Acc] = {}
    for node in inventory.nodes:
        if cluster_id is not None and node.cluster_id != cluster_id:
            continue
        for card in node.cards:
            kind = _card_kind(node, card)
            model = card.model if by_model else None
            used_units = units.get(card.uuid, 0)
            if kind is GpuKind.MIG:
                # each profile is its own resource and each instance one logical unit
                # (hardware-isolated); the card itself is counted physically once, in the row
                # of the profile it is mostly split into (so the physical column adds up to the
                # cards there are, as the per-model totals do), used once any instance is taken
                taken_here = 0
                for inst in card.mig_instances:
                    a = acc.setdefault((inst.profile.resource, kind, model), _Acc())
                    taken = inst.id in mig_taken
                    taken_here += taken
                    a.log_total += 1
                    a.log_used += taken
                    a.ratio_used += mig_taken.get(inst.id, Fraction(0))
                home = acc[(_main_profile(card), kind, model)]
                home.phys_total += card.physical_count
                home.phys_used += min(card.physical_count, taken_here)
                continue
            resource = RESOURCE_GPU_SHARED if kind is GpuKind.SHARED else RESOURCE_GPU
            a = acc.setdefault((resource, kind, model), _Acc())
            a.phys_total += 1
            a.phys_used += used_units > 0
            a.log_total += node.logical_units(card)
            a.log_used += used_units if kind is GpuKind.SHARED else int(used_units > 0)
            a.ratio_used += ratio.get(card.uuid, Fraction(0))
    order = {GpuKind.EXCLUSIVE: 0, GpuKind.HAMI: 1, GpuKind.SHARED: 2, GpuKind.MIG: 3}
    rows = [
        CapacityRow(
            resource=resource,
            kind=kind,
            model=model,
            shared=kind in (GpuKind.HAMI, GpuKind.SHARED),
            physical=Counts(a.phys_total, a.phys_used),
            logical=Counts(a.log_total, a.log_used),
            ratio_used=a.ratio_used,
        )
        for (resource, kind, model), a in acc.items()
    ]
    rows.sort(key=lambda r: (r.model or "", order[r.kind], r.resource))
    return rows


def capacity_by_resource(
    inventory: Inventory, placements: Iterable[Placement], cluster_id: str | None = None
) -> list[CapacityRow]:
    """One row per (resource, kind) across all models (`model` is None)."""
    return _rows(inventory, placements, by_model=False, cluster_id=cluster_id)


def capacity_by_model(
    inventory: Inventory, placements: Iterable[Placement], cluster_id: str | None = None
) -> list[CapacityRow]:
    """One row per (model, resource, kind)."""
    return _rows(inventory, placements, by_model=True, cluster_id=cluster_id)


@dataclass(frozen=True, slots=True)
class ModelTotals:
    """Per model, every kind together: physical cards and logical units."""

    model: str
    physical: Counts
    logical: Counts
    ratio_used: Fraction


def model_totals(
    inventory: Inventory, placements: Iterable[Placement], cluster_id: str | None = None
) -> list[ModelTotals]:
    units, mig_taken, ratio = _usage(placements)
    acc: dict[str, _Acc] = {}
    for node in inventory.nodes:
        if cluster_id is not None and node.cluster_id != cluster_id:
            continue
        for card in node.cards:
            a = acc.setdefault(card.model, _Acc())
            used = units.get(card.uuid, 0)
            a.phys_total += card.physical_count
            # a MIG group's taken instances may share a card: at most this many are touched
            a.phys_used += min(card.physical_count, used)
            a.log_total += node.logical_units(card)
            if card.mig_enabled:
                a.log_used += sum(1 for i in card.mig_instances if i.id in mig_taken)
            elif node.sharing_mode is SharingMode.TIMESLICING:
                a.log_used += used
            else:
                a.log_used += used > 0
            a.ratio_used += ratio.get(card.uuid, Fraction(0))
    return [
        ModelTotals(m, Counts(a.phys_total, a.phys_used), Counts(a.log_total, a.log_used), a.ratio_used)
        for m, a in sorted(acc.items())
    ]

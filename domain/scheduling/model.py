"""What a workload asks for (`GpuRequest`), the ratio arithmetic, and what it got (`Allocation`).

A request asks for one card model, or for any of several (`ModelChoice`s: an offering that
names a class of cards, resolved by the catalog to the models that qualify, each with its
own size and rate); the scheduler picks the model. A request with `cpu_only` asks for CPU
and memory on some node and nothing else.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any

from domain.inventory.model import GpuKind, Placement
from domain.scheduling.errors import JobCapacityRefused, SchedulingError, SchedulingErrorCode


class RequestMode(StrEnum):
    FRACTION = "fraction"  # a VRAM/core share: HAMi fraction or a MIG instance
    SHARED = "shared"  # one time-slice
    EXCLUSIVE = "exclusive"  # N whole cards on one node
    CPU = "cpu"  # no GPU: CPU and memory on a node (CPU nodes first)


# The queue that CPU-only requests wait in (queues are per offering; CPU work has none).
CPU_QUEUE = "cpu"


@dataclass(frozen=True, slots=True)
class ModelChoice:
    """One card model a request may run on: the fraction's size on that model's card (0 for
    whole cards and time-slices) and the model's whole-card hourly rate."""

    model: str
    vram_mib: int = 0
    cores: int = 0
    hourly_rate_micro: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "vram_mib": self.vram_mib,
            "cores": self.cores,
            "hourly_rate_micro": self.hourly_rate_micro,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ModelChoice:
        return cls(
            str(data["model"]),
            int(data.get("vram_mib", 0)),
            int(data.get("cores", 0)),
            int(data.get("hourly_rate_micro", 0)),
        )


def fraction_ratio(vram_mib: int, cores: int, card_vram_mib: int, card_cores: int) -> Fraction:
    """ratio = max(VRAM share, core share) of one card."""
    return max(Fraction(vram_mib, card_vram_mib), Fraction(cores, card_cores))


def exclusive_ratio(cards: int) -> Fraction:
    return Fraction(cards)


def timeslice_ratio(replicas: int) -> Fraction:
    return Fraction(1, replicas)


@dataclass(frozen=True, slots=True)
class GpuRequest:
    """A workload's demand.

    `offering` is the card model key, or, when `choices` are given, the name of the
    offering (a class of cards) the request waits under; `choices` then lists every model
    it may run on with its size and rate. A fractional request gives `vram_mib` and `cores`
    (percent of a card); `exclusive_cards` asks for N whole cards; `shared` asks for one
    time-slice. `forced_kind` is what an approving admin assigned and overrides the rest
    (EXCLUSIVE takes max(1, exclusive_cards) cards). `clusters` restricts placement (None = any).
    `hourly_rate_micro` is the offering's whole-card rate, used to price preemption victims.
    `cpu_only` asks for no GPU at all (`offering` is then `CPU_QUEUE`).
    """

    workload_id: str
    offering: str
    vram_mib: int = 0
    cores: int = 0
    exclusive_cards: int = 0
    shared: bool = False
    cpu_millicores: int = 0
    memory_mib: int = 0
    priority: int = 0
    is_job: bool = False
    preemptible: bool = False
    clusters: frozenset[str] | None = None
    forced_kind: GpuKind | None = None
    hourly_rate_micro: int = 0
    cpu_only: bool = False
    choices: tuple[ModelChoice, ...] = ()
    # derived once (placement reads them many times per decision)
    _mode: RequestMode = field(init=False, repr=False, compare=False)
    _options: tuple[ModelChoice, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_mode", self._derive_mode())
        options: tuple[ModelChoice, ...]
        if self.cpu_only:
            options = ()
        elif self.choices:
            options = self.choices
        else:
            options = (ModelChoice(self.offering, self.vram_mib, self.cores, self.hourly_rate_micro),)
        object.__setattr__(self, "_options", options)

    @property
    def options(self) -> tuple[ModelChoice, ...]:
        """The card models this request may run on, with the size it takes on each."""
        return self._options

    def choice(self, model: str | None) -> ModelChoice | None:
        for option in self.options:
            if option.model == model:
                return option
        return None

    def rate_for(self, model: str | None) -> int:
        """The whole-card rate on `model` (the request's own rate when the model is unknown)."""
        option = self.choice(model) if model is not None else None
        return self.hourly_rate_micro if option is None else option.hourly_rate_micro

    @property
    def mode(self) -> RequestMode:
        return self._mode

    def _derive_mode(self) -> RequestMode:
        if self.cpu_only:
            return RequestMode.CPU
        if self.forced_kind is GpuKind.EXCLUSIVE:
            return RequestMode.EXCLUSIVE
        if self.forced_kind is GpuKind.SHARED:
            return RequestMode.SHARED
        if self.forced_kind in (GpuKind.MIG, GpuKind.HAMI):
            return RequestMode.FRACTION
        if self.exclusive_cards > 0:
            return RequestMode.EXCLUSIVE
        if self.shared:
            return RequestMode.SHARED
        return RequestMode.FRACTION

    @property
    def cards_wanted(self) -> int:
        return max(1, self.exclusive_cards) if self._mode is RequestMode.EXCLUSIVE else 1

    def validate(self) -> None:
        """Refuse what can never be placed as asked (a job on shared capacity, negative sizes);
        raises a `SchedulingError`. Whether it fits now is the scheduler's question."""
        if self.cpu_millicores < 0 or self.memory_mib < 0:
            raise SchedulingError(SchedulingErrorCode.GPU_REQUEST_INVALID, "CPU and memory cannot be negative")
        if self.cpu_only:
            if self.exclusive_cards or self.shared or self.vram_mib or self.cores or self.choices or self.forced_kind:
                raise SchedulingError(
                    SchedulingErrorCode.GPU_REQUEST_INVALID,
                    "a CPU-only request asks for no GPU",
                    "cpu_only",
                )
            return
        options = self._options
        if len(options) > 1 and len({c.model for c in options}) != len(options):
            raise SchedulingError(SchedulingErrorCode.GPU_REQUEST_INVALID, "a card model is listed twice", "choices")
        if self.exclusive_cards < 0:
            raise SchedulingError(
                SchedulingErrorCode.GPU_REQUEST_INVALID,
                "exclusive card count cannot be negative",
                "exclusive_cards",
            )
        if self.is_job:
            if self.mode is RequestMode.SHARED:
                raise JobCapacityRefused(
                    SchedulingErrorCode.JOB_TIMESLICE_REFUSED,
                    "jobs run on exclusive cards only: time-sliced GPUs share one card's "
                    "memory without isolation, so a job is never placed on them",
                    "shared" if self.forced_kind is None else "forced_kind",
                )
            if self.forced_kind is GpuKind.MIG:
                raise JobCapacityRefused(
                    SchedulingErrorCode.JOB_MIG_REFUSED,
                    "jobs run on exclusive cards only: a MIG instance cannot take part in "
                    "multi-GPU (NCCL) training and a process can use only one instance",
                    "forced_kind",
                )
            if self.mode is RequestMode.FRACTION:
                raise JobCapacityRefused(
                    SchedulingErrorCode.JOB_FRACTION_REFUSED,
                    "jobs run on exclusive cards only: ask for one or more whole cards",
                    "exclusive_cards",
                )
        if self.mode is RequestMode.FRACTION:
            for option in self.options:
                if option.vram_mib <= 0 or option.cores <= 0:
                    raise SchedulingError(
                        SchedulingErrorCode.GPU_REQUEST_INVALID,
                        "a fractional GPU request needs a positive VRAM and core share",
                        "vram_mib" if option.vram_mib <= 0 else "cores",
                    )

    def to_dict(self) -> dict[str, Any]:
        return {
            "workload_id": self.workload_id,
            "offering": self.offering,
            "vram_mib": self.vram_mib,
            "cores": self.cores,
            "exclusive_cards": self.exclusive_cards,
            "shared": self.shared,
            "cpu_millicores": self.cpu_millicores,
            "memory_mib": self.memory_mib,
            "priority": self.priority,
            "is_job": self.is_job,
            "preemptible": self.preemptible,
            "clusters": None if self.clusters is None else sorted(self.clusters),
            "forced_kind": None if self.forced_kind is None else self.forced_kind.value,
            "hourly_rate_micro": self.hourly_rate_micro,
            "cpu_only": self.cpu_only,
            "choices": [c.to_dict() for c in self.choices],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GpuRequest:
        clusters = data.get("clusters")
        forced = data.get("forced_kind")
        return cls(
            workload_id=str(data["workload_id"]),
            offering=str(data["offering"]),
            vram_mib=int(data.get("vram_mib", 0)),
            cores=int(data.get("cores", 0)),
            exclusive_cards=int(data.get("exclusive_cards", 0)),
            shared=bool(data.get("shared", False)),
            cpu_millicores=int(data.get("cpu_millicores", 0)),
            memory_mib=int(data.get("memory_mib", 0)),
            priority=int(data.get("priority", 0)),
            is_job=bool(data.get("is_job", False)),
            preemptible=bool(data.get("preemptible", False)),
            clusters=None if clusters is None else frozenset(str(c) for c in clusters),
            forced_kind=None if forced is None else GpuKind(forced),
            hourly_rate_micro=int(data.get("hourly_rate_micro", 0)),
            cpu_only=bool(data.get("cpu_only", False)),
            choices=tuple(ModelChoice.from_dict(c) for c in data.get("choices", ())),
        )


@dataclass(frozen=True, slots=True)
class Allocation:
    """A placed workload: its request and where it went."""

    request: GpuRequest
    placement: Placement

    @property
    def workload_id(self) -> str:
        return self.request.workload_id

    @property
    def hourly_cost_micro(self) -> Fraction:
        """What running it costs per hour (the placed model's rate × ratio): what preempting
        it saves."""
        return self.request.rate_for(self.placement.model) * self.placement.ratio

    def to_dict(self) -> dict[str, Any]:
        return {"request": self.request.to_dict(), "placement": self.placement.to_dict()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Allocation:
        return cls(GpuRequest.from_dict(data["request"]), Placement.from_dict(data["placement"]))

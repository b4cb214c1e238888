"""Offerings that name a class of cards (issue 17): which offerings a class admits, the
hourly cost range a preset has over the class, and a class ask that is held at the dearest
card and billed at the card it is placed on."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from fractions import Fraction
from uuid import uuid4

from domain.catalog.model import (
    CardClass,
    CudaVersion,
    GpuTier,
    Image,
    ImageScope,
    Offering,
    Preset,
    class_cost_range,
    class_members,
)
from domain.sessions.model import GpuAsk, GpuChoice

NOW = datetime(2026, 12, 1, tzinfo=UTC)


def offering(name: str, vram: int, rate: int, cuda: str = "11.0", *, card_class: CardClass | None = None) -> Offering:
    return Offering(
        uuid4(),
        "NVIDIA",
        name,
        vram,
        100,
        CudaVersion.parse(cuda),
        rate,
        "nvidia.com/gpu",
        NOW,
        card_class=card_class,
    )


A100 = offering("A100-80GB", 81920, 2_000_000)
H100 = offering("H100-80GB", 81920, 4_000_000, "12.0")
L40 = offering("L40S-48GB", 49152, 1_500_000)
A30 = offering("A30-24GB", 24576, 700_000)
OFF = replace(offering("V100-off", 40960, 1), enabled=False)
CATALOG = (A100, H100, L40, A30, OFF)


def preset(tier: GpuTier, cards: int = 0) -> Preset:
    return Preset(uuid4(), tier.value, 4000, 16384, 50, 1024, tier, NOW, gpu_count=cards)


def test_a_class_admits_enabled_single_models_with_the_vram_it_names() -> None:
    big = offering("any-40GiB", 40960, 0, card_class=CardClass())
    assert [o.name for o in class_members(big, CATALOG)] == ["A100-80GB", "H100-80GB", "L40S-48GB"]
    named = offering("A100-or-A30", 1, 0, card_class=CardClass(("A100-80GB", "A30-24GB")))
    assert [o.name for o in class_members(named, CATALOG)] == ["A100-80GB", "A30-24GB"]
    # a class is never a member of a class, and a single model admits nothing
    assert class_members(big, (*CATALOG, named)) == class_members(big, CATALOG)
    assert class_members(A100, CATALOG) == []


def test_the_image_narrows_a_class_to_the_cards_it_can_drive() -> None:
    big = offering("any-40GiB", 40960, 0, card_class=CardClass())
    old = Image(uuid4(), "torch", "nvcr.io/nvidia/pytorch:23.01", CudaVersion(11, 8), ImageScope.GLOBAL, NOW)
    assert [o.name for o in class_members(big, CATALOG, old)] == ["A100-80GB", "L40S-48GB"]


def test_a_preset_costs_a_range_over_the_class() -> None:
    members = class_members(offering("any-40GiB", 40960, 0, card_class=CardClass()), CATALOG)
    quarter = class_cost_range(members, preset(GpuTier.L))
    assert quarter is not None
    assert (quarter.low_micro, quarter.high_micro) == (1_500_000 // 4, 4_000_000 // 4)
    two = class_cost_range(members, preset(GpuTier.EXCLUSIVE, 2))
    assert two is not None and (two.low_micro, two.high_micro) == (3_000_000, 8_000_000)
    assert class_cost_range(members, preset(GpuTier.NONE)) is None
    assert class_cost_range([], preset(GpuTier.L)) is None


def test_a_class_ask_is_held_at_the_dearest_card_and_billed_on_the_placed_one() -> None:
    choices = (
        GpuChoice("A100-80GB", 20480, 25, Fraction(1, 4), 2_000_000),
        GpuChoice("H100-80GB", 20480, 25, Fraction(1, 4), 4_000_000),
        GpuChoice("L40S-48GB", 12288, 25, Fraction(1, 4), 1_500_000),
    )
    ask = GpuAsk(uuid4(), "any-40GiB", 20480, 25, 1, False, False, Fraction(1, 4), 4_000_000, choices=choices)
    assert ask.dearest == choices[1]
    assert ask.hold_basis() == (4_000_000, Fraction(1, 4))
    assert ask.cost_range == (Fraction(1_500_000, 4), Fraction(1_000_000))
    placed = ask.placed_on("L40S-48GB")
    assert placed.placed_model == "L40S-48GB"
    assert (placed.vram_mib, placed.hourly_rate_micro, placed.ratio) == (12288, 1_500_000, Fraction(1, 4))
    # the hold stays at the dearest: a pause or preemption may place it on another card
    assert placed.hold_basis() == (4_000_000, Fraction(1, 4))
    # one model: the ask itself
    single = GpuAsk(uuid4(), "A100-80GB", 20480, 25, 1, False, False, Fraction(1, 4), 2_000_000)
    assert single.placed_on("A100-80GB") is single and single.hold_basis() == (2_000_000, Fraction(1, 4))
    assert single.cost_range == (Fraction(500_000), Fraction(500_000))


async def test_a_class_offerings_members_are_the_enabled_models_it_admits_by_name() -> None:
    from domain.catalog import services as c
    from tests.unit.tenancy.world import World

    w = await World.build()

    async def create(name: str, vram: int, rate: int, **kw: object) -> Offering:
        return await c.offering_create(
            w.uow, w.root, w.ids, w.clock, vendor="NVIDIA", name=name, vram_mib=vram, min_cuda="11.0",
            hourly_rate_micro=rate, **kw,  # type: ignore[arg-type]
        )  # fmt: skip

    h100 = await create("H100-80GB", 81920, 4_000_000)
    a100 = await create("A100-80GB", 81920, 2_000_000)
    await create("A30-24GB", 24576, 700_000)  # too little VRAM for the class
    await create("V100-40GB", 40960, 1, enabled=False)  # not offered
    big = await create("any-40GiB", 40960, 0, card_models=[])
    assert await c.offering_members(w.uow, w.root, big) == [a100, h100]  # by name; never the class itself
    assert await c.offering_members(w.uow, w.member, big) == [a100, h100]
    assert await c.offering_members(w.uow, w.root, a100) == []  # a single model admits nothing

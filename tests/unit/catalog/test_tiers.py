"""Exact tier arithmetic: VRAM and core limits and the billing ratio of a preset on a card."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.catalog.errors import CatalogError, CatalogErrorCode
from domain.catalog.model import (
    CudaVersion,
    GpuTier,
    Image,
    ImageScope,
    Offering,
    Preset,
    check_cuda_compatible,
    check_image_reference,
    gpu_limits,
    hourly_cost_micro,
)

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def offering(vram_mib: int = 81920, rate: int = 4_000_000, min_cuda: str = "12.0") -> Offering:
    return Offering(
        uuid.uuid4(), "NVIDIA", "A100-80GB", vram_mib, 100, CudaVersion.parse(min_cuda), rate, "nvidia.com/gpu", NOW
    )


def preset(tier: GpuTier, count: int = 1, vram: int | None = None, cores: int | None = None) -> Preset:
    return Preset(uuid.uuid4(), f"p-{tier}", 4000, 16384, 50, 1024, tier, NOW, count, vram, cores)


def test_an_80_gib_card_at_tier_l_gives_20_gib_25_cores_ratio_a_quarter() -> None:
    limits = gpu_limits(offering(), preset(GpuTier.L))
    assert limits is not None
    assert (limits.vram_mib, limits.cores, limits.cards, limits.ratio) == (20480, 25, 1, Fraction(1, 4))
    assert not limits.exclusive


@pytest.mark.parametrize(
    ("tier", "vram", "cores", "ratio"),
    [
        (GpuTier.XL, 40960, 50, Fraction(1, 2)),
        (GpuTier.L, 20480, 25, Fraction(1, 4)),
        (GpuTier.M, 10240, 12, Fraction(1, 8)),
        (GpuTier.S, 5120, 6, Fraction(1, 16)),
    ],
)
def test_each_tier_on_an_80_gib_card(tier: GpuTier, vram: int, cores: int, ratio: Fraction) -> None:
    limits = gpu_limits(offering(), preset(tier))
    assert limits is not None
    assert (limits.vram_mib, limits.cores, limits.ratio) == (vram, cores, ratio)


def test_tier_s_on_a_24_gib_card_bills_a_sixteenth_although_cores_round_down() -> None:
    limits = gpu_limits(offering(vram_mib=24576), preset(GpuTier.S))
    assert limits is not None
    assert (limits.vram_mib, limits.cores, limits.ratio) == (1536, 6, Fraction(1, 16))


def test_exclusive_two_cards_is_ratio_two() -> None:
    limits = gpu_limits(offering(), preset(GpuTier.EXCLUSIVE, count=2))
    assert limits is not None
    assert (limits.cards, limits.ratio, limits.exclusive) == (2, Fraction(2), True)
    assert hourly_cost_micro(offering(rate=4_000_000), limits) == 8_000_000


def test_custom_share_takes_the_larger_of_vram_and_core_share() -> None:
    limits = gpu_limits(offering(), preset(GpuTier.CUSTOM, vram=16384, cores=30))
    assert limits is not None
    assert limits.ratio == Fraction(30, 100)  # 16 GiB is 1/5 of the card, 30 % of cores is more
    assert hourly_cost_micro(offering(rate=4_000_000), limits) == 1_200_000


def test_custom_share_larger_than_the_card_is_refused() -> None:
    with pytest.raises(CatalogError) as exc:
        gpu_limits(offering(vram_mib=24576), preset(GpuTier.CUSTOM, vram=40000, cores=50))
    assert exc.value.code == CatalogErrorCode.PRESET_EXCEEDS_CARD


def test_cpu_only_preset_has_no_gpu_and_costs_nothing() -> None:
    assert gpu_limits(offering(), preset(GpuTier.NONE, count=0)) is None
    assert hourly_cost_micro(offering(), None) == 0


@given(st.integers(min_value=1024, max_value=200_000), st.sampled_from([GpuTier.XL, GpuTier.L, GpuTier.M, GpuTier.S]))
def test_tier_limits_never_exceed_the_share(vram: int, tier: GpuTier) -> None:
    limits = gpu_limits(offering(vram_mib=vram), preset(tier))
    assert limits is not None
    share = {
        GpuTier.XL: Fraction(1, 2),
        GpuTier.L: Fraction(1, 4),
        GpuTier.M: Fraction(1, 8),
        GpuTier.S: Fraction(1, 16),
    }[tier]
    assert limits.vram_mib <= vram * share
    assert limits.cores <= 100 * share
    assert limits.ratio == share


@pytest.mark.parametrize(("text", "parsed"), [("12.4", (12, 4)), ("11", (11, 0)), (" 12.2.1 ", (12, 2))])
def test_cuda_versions_parse(text: str, parsed: tuple[int, int]) -> None:
    v = CudaVersion.parse(text)
    assert (v.major, v.minor) == parsed


@pytest.mark.parametrize("text", ["", "twelve", "12.x", "v12", "12..4", "-1"])
def test_cuda_versions_that_are_not_versions_are_refused(text: str) -> None:
    with pytest.raises(CatalogError) as exc:
        CudaVersion.parse(text, "minCuda")
    assert (exc.value.code, exc.value.field) == (CatalogErrorCode.INVALID_CUDA_VERSION, "minCuda")


def test_cuda_ordering_is_numeric_not_textual() -> None:
    assert CudaVersion.parse("11.8") < CudaVersion.parse("12.0") < CudaVersion.parse("12.10")


def test_image_below_min_cuda_is_refused_with_both_versions_named() -> None:
    image = Image(uuid.uuid4(), "old", "nvcr.io/nvidia/cuda:11.8.0-base", CudaVersion(11, 8), ImageScope.GLOBAL, NOW)
    with pytest.raises(CatalogError) as exc:
        check_cuda_compatible(image, offering(min_cuda="12.0"))
    assert exc.value.code == CatalogErrorCode.CUDA_TOO_OLD
    assert "11.8" in exc.value.message and "12.0" in exc.value.message
    check_cuda_compatible(image, offering(min_cuda="11.0"))


@pytest.mark.parametrize(
    "ref", ["python:3.12", "nvcr.io/nvidia/pytorch:24.05-py3", "localhost:5000/a/b", "ghcr.io/x/y@sha256:" + "a" * 64]
)
def test_image_references_accepted(ref: str) -> None:
    assert check_image_reference(ref) == ref


@pytest.mark.parametrize("ref", ["", "a//b", "has space", "a:b:c", "x" * 600])
def test_image_references_refused(ref: str) -> None:
    with pytest.raises(CatalogError):
        check_image_reference(ref)

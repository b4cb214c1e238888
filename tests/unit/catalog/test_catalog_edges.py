"""The catalog's rules at their edges: a class admits a card of exactly its VRAM and an image of
exactly the CUDA a card needs, a class's rate must be 0 on create and update, shares of 1 %,
shared memory equal to memory, a preset keeping its own name, and the refusals' exact words
(kills mutmut's survivors of domain/catalog, issue 20)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from domain.catalog import services as c
from domain.catalog.errors import CatalogError
from domain.catalog.model import (
    CardClass,
    CudaVersion,
    GpuTier,
    Image,
    ImageScope,
    check_cuda_compatible,
    class_members,
)
from tests.unit.catalog.test_card_classes import NOW, offering
from tests.unit.catalog.test_offerings_presets import preset
from tests.unit.tenancy.world import World, refusal

CLASS_RATE = "a class of cards is billed at the rate of the card it is placed on: give 0"


def test_a_class_admits_a_card_of_exactly_its_vram_and_an_image_of_exactly_the_cuda_it_needs() -> None:
    from uuid import uuid4

    cls = offering("any-40GiB", 40960, 0, card_class=CardClass())
    exact = offering("A40-40GB", 40960, 1, "12.0")
    assert class_members(cls, [exact]) == [exact]
    image = Image(uuid4(), "cu12", "nvcr.io/nvidia/cuda:12.0-base", CudaVersion(12, 0), ImageScope.GLOBAL, NOW)
    assert class_members(cls, [exact], image) == [exact]
    assert class_members(cls, [exact], replace(image, cuda_version=CudaVersion(11, 8))) == []


def test_an_image_without_cuda_is_refused_saying_so() -> None:
    from uuid import uuid4

    image = Image(uuid4(), "plain", "ubuntu:24.04", None, ImageScope.GLOBAL, NOW)
    with pytest.raises(CatalogError) as err:
        check_cuda_compatible(image, offering("A100-80GB", 81920, 1, "11.8"))
    assert err.value.message == "image plain has no CUDA; A100-80GB needs CUDA 11.8 or newer"


@pytest.fixture
async def w() -> World:
    return await World.build()


async def test_a_class_of_cards_is_priced_0_on_create_and_on_update(w: World) -> None:
    args = dict(vendor="NVIDIA", vram_mib=40960, min_cuda="11.0")
    assert await refusal(
        c.offering_create(w.uow, w.root, w.ids, w.clock, name="cls", hourly_rate_micro=1, card_models=[], **args)  # type: ignore[arg-type]
    ) == ("INVALID_VALUE", "hourlyRate", CLASS_RATE)
    cls = await c.offering_create(
        w.uow, w.root, w.ids, w.clock, name="cls", hourly_rate_micro=0, card_models=[], **args
    )  # type: ignore[arg-type]
    assert cls.description == ""
    for rate in (1, 5):
        assert await refusal(c.offering_update(w.uow, w.root, cls.id, hourly_rate_micro=rate)) == (
            "INVALID_VALUE", "hourlyRate", CLASS_RATE,
        )  # fmt: skip
    assert (await c.offering_update(w.uow, w.root, cls.id, hourly_rate_micro=0)).hourly_rate_micro == 0
    one = await c.offering_create(w.uow, w.root, w.ids, w.clock, name="one", hourly_rate_micro=3, **args)  # type: ignore[arg-type]
    assert (await c.offering_update(w.uow, w.root, one.id, hourly_rate_micro=0)).hourly_rate_micro == 0
    assert (await c.offering_update(w.uow, w.root, one.id, hourly_rate_micro=7)).hourly_rate_micro == 7


async def test_preset_edges(w: World) -> None:
    assert (await preset(w, "f0", tier=GpuTier.L, gpu_count=0)).gpu_count == 1  # a share of one card
    custom = await preset(w, "c1", tier=GpuTier.CUSTOM, custom_vram_mib=1024, custom_cores=1)
    assert (custom.custom_cores, custom.description) == (1, "")
    assert (await preset(w, "eq", shm_mib=4096, memory_mib=4096)).shm_mib == 4096
    p = await preset(w, "keep")
    assert (await c.preset_update(w.uow, w.root, p.id, shm_mib=p.memory_mib)).shm_mib == p.memory_mib
    assert (await c.preset_update(w.uow, w.root, p.id, name="keep")).name == "keep"  # its own name is not taken
    assert await refusal(c.preset_update(w.uow, w.root, p.id, name="EQ")) == (
        "DUPLICATE", "name", "a preset named EQ already exists",
    )  # fmt: skip


def _seal(password: str) -> bytes:
    return b"sealed:" + password.encode()


async def test_registry_addresses_and_credentials_at_their_bounds(w: World) -> None:
    async def create(name: str, url: str, **kw: object) -> object:
        return await c.registry_create(w.uow, w.root, w.ids, w.clock, name=name, url=url, **kw)  # type: ignore[arg-type]

    address = "registry.example/X"
    assert (await create("r1", address)).url == address  # type: ignore[attr-defined]
    assert (await create("r2", "https://X/")).url == "https://X"  # type: ignore[attr-defined]
    longest = "a" * 251 + ".org"
    assert (await create("r3", longest)).url == longest  # type: ignore[attr-defined]
    for bad in ("https:///", "https://a b://c", "a" * 252 + ".org"):
        code, field, _ = await refusal(create("bad", bad))
        assert (code, field) == ("INVALID_VALUE", "url"), bad
    made = await create("r4", "nvcr.io", username="X" * 255, password="X" * 4096, seal=_seal)
    assert made.username == "X" * 255  # type: ignore[attr-defined]
    assert await refusal(create("r5", "nvcr.io", username="u" * 256, password="p", seal=_seal)) == (
        "INVALID_VALUE", "username", "a registry user name is 1-255 characters, without ':' or controls",
    )  # fmt: skip
    assert await refusal(create("r6", "nvcr.io", username="u", password="p" * 4097, seal=_seal)) == (
        "INVALID_VALUE", "password", "a registry password or token is 1-4096 characters, one line",
    )  # fmt: skip


async def test_an_image_without_a_description_and_a_bad_cuda_version_on_its_field(w: World) -> None:
    args = dict(name="img", reference="nvcr.io/nvidia/cuda:12.4-base", scope=ImageScope.GLOBAL)
    image = await c.image_create(w.uow, w.root, w.ids, w.clock, cuda_version="12.4", **args)  # type: ignore[arg-type]
    assert image.description == ""
    code, field, _ = await refusal(
        c.image_create(w.uow, w.root, w.ids, w.clock, cuda_version="twelve", **{**args, "name": "img2"})  # type: ignore[arg-type]
    )
    assert field == "cudaVersion", code
    code, field, _ = await refusal(c.image_update(w.uow, w.root, image.id, cuda_version="twelve"))
    assert field == "cudaVersion", code


def test_a_class_cost_range_skips_only_the_cards_a_preset_does_not_fit() -> None:
    from uuid import uuid4

    from domain.catalog.model import Preset, RateRange, class_cost_range

    small = offering("A30-24GB", 24576, 700_000)
    big, bigger = offering("A100-80GB", 81920, 2_000_000), offering("H100-80GB", 81920, 4_000_000)
    custom = Preset(uuid4(), "c", 4000, 16384, 50, 1024, GpuTier.CUSTOM, NOW, 1, 40960, 50)
    # 40 GiB of 80: half a card; the A30 (24 GiB) is left out, the cards after it are not
    assert class_cost_range([small, big, bigger], custom) == RateRange(1_000_000, 2_000_000)


def test_an_image_reference_is_at_most_512_characters() -> None:
    from domain.catalog.model import check_image_reference

    ref = "nvcr.io/" + "a" * (512 - len("nvcr.io/"))
    assert check_image_reference(ref) == ref
    with pytest.raises(CatalogError):
        check_image_reference(ref + "a")


async def test_a_resource_name_may_use_every_allowed_character(w: World) -> None:
    name = "abcdefghijklmnopqrstuvwxyz.0123456789-/gpu"
    made = await c.offering_create(
        w.uow, w.root, w.ids, w.clock, vendor="N", name="all", vram_mib=1, min_cuda="11.0", hourly_rate_micro=1,
        resource_name=name,
    )  # fmt: skip
    assert made.resource_name == name


async def test_a_preset_update_keeps_the_gpu_shape_unless_the_tier_changes(w: World) -> None:
    whole = await preset(w, "whole", tier=GpuTier.EXCLUSIVE, gpu_count=2)
    same = await c.preset_update(w.uow, w.root, whole.id, custom_cores=5)  # not a tier change: 2 cards kept
    assert (same.tier, same.gpu_count, same.custom_cores) == (GpuTier.EXCLUSIVE, 2, None)
    custom = await preset(w, "custom", tier=GpuTier.CUSTOM, custom_vram_mib=1024, custom_cores=10)
    moved = await c.preset_update(w.uow, w.root, custom.id, tier=GpuTier.L)  # the custom shares go with the tier
    assert (moved.tier, moved.gpu_count, moved.custom_vram_mib, moved.custom_cores) == (GpuTier.L, 1, None, None)


def test_a_custom_share_may_take_the_whole_card_and_no_more() -> None:
    from fractions import Fraction
    from uuid import uuid4

    from domain.catalog.model import GpuLimits, Preset, gpu_limits

    card = offering("A100-80GB", 81920, 2_000_000)

    def custom(vram: int | None, cores: int | None) -> Preset:
        return Preset(uuid4(), "c", 4000, 16384, 50, 1024, GpuTier.CUSTOM, NOW, 1, vram, cores)

    assert gpu_limits(card, custom(81920, 100)) == GpuLimits(81920, 100, 1, Fraction(1), True)
    assert gpu_limits(card, custom(20480, 10)) == GpuLimits(20480, 10, 1, Fraction(1, 4), False)
    assert gpu_limits(card, custom(None, 10)) == GpuLimits(0, 10, 1, Fraction(1, 10), False)
    assert gpu_limits(card, custom(8192, None)) == GpuLimits(8192, 0, 1, Fraction(1, 10), False)
    for vram, cores in ((81921, 100), (81920, 101)):
        with pytest.raises(CatalogError) as err:
            gpu_limits(card, custom(vram, cores))
        assert (err.value.code, err.value.field, err.value.message) == (
            "PRESET_EXCEEDS_CARD", "presetId",
            f"preset c asks {vram} MiB / {cores}% but one A100-80GB card has 81920 MiB / 100%",
        )  # fmt: skip


def test_a_bad_cuda_version_names_the_cuda_version_field_by_default() -> None:
    with pytest.raises(CatalogError) as err:
        CudaVersion.parse("twelve")
    assert err.value.field == "cudaVersion"


async def test_shared_memory_is_bounded_by_the_presets_memory(w: World) -> None:
    assert await refusal(preset(w, "tiny", memory_mib=1, shm_mib=2)) == (
        "INVALID_VALUE", "shmMib", "shared memory cannot exceed the preset's memory",
    )  # fmt: skip
    # no memory at all is its own refusal, not also one of shared memory
    assert await refusal(preset(w, "none", memory_mib=0, shm_mib=2)) == (
        "INVALID_VALUE", "memoryMib", "memoryMib must be greater than zero (got 0)",
    )  # fmt: skip

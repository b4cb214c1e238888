"""Catalog use cases on in-memory repositories: offerings and presets (super_admin only),
with the exact refusal of each bad field and nothing written when refused."""

from __future__ import annotations

from uuid import UUID

import pytest

from domain.catalog import services as c
from domain.catalog.model import CardClass, CudaVersion, GpuTier, Offering, Preset
from domain.tenancy.services import Page
from tests.unit.tenancy.world import NOW, World, refusal


@pytest.fixture
async def w() -> World:
    return await World.build()


async def offering(w: World, name: str = "A100", **kw: object) -> Offering:
    args: dict[str, object] = dict(
        vendor="NVIDIA", name=name, vram_mib=81920, min_cuda="11.8", hourly_rate_micro=3_000_000
    )
    args.update(kw)
    return await c.offering_create(w.uow, w.root, w.ids, w.clock, **args)  # type: ignore[arg-type]


async def test_an_offering_is_created_with_every_field_cleaned(w: World) -> None:
    o = await offering(
        w, " A100  80GB ", vendor=" NVIDIA ", description=" big ", resource_name=" nvidia.com/mig-1g.10gb "
    )
    assert o == Offering(
        o.id,
        "NVIDIA",
        "A100 80GB",
        81920,
        100,
        CudaVersion(11, 8),
        3_000_000,
        "nvidia.com/mig-1g.10gb",
        NOW,
        "big",
        True,
    )
    assert w.state.offerings == {o.id: o}
    assert o.shareable is False and (await offering(w, "H100")).shareable is True
    off = await offering(w, "V100", enabled=False, hourly_rate_micro=0)
    assert (off.enabled, off.hourly_rate_micro) == (False, 0)


async def test_offering_refusals(w: World) -> None:
    await offering(w)
    assert await refusal(offering(w, "a100")) == ("DUPLICATE", "name", "an offering named a100 already exists")
    assert await refusal(
        c.offering_create(
            w.uow, w.org_admin, w.ids, w.clock, vendor="N", name="X", vram_mib=1, min_cuda="12", hourly_rate_micro=1
        )
    ) == ("PERMISSION_DENIED", None, "only a super_admin may do this")
    assert await refusal(offering(w, "B", cores=50)) == (
        "INVALID_VALUE",
        "cores",
        "cores describe a whole card and must be 100",
    )
    assert await refusal(offering(w, "B", min_cuda="twelve")) == (
        "INVALID_CUDA_VERSION", "minCuda", "'twelve' is not a CUDA version (expected MAJOR.MINOR, e.g. 12.4)",
    )  # fmt: skip
    assert await refusal(offering(w, "B", vram_mib=0)) == (
        "INVALID_VALUE",
        "vramMib",
        "vramMib must be greater than zero (got 0)",
    )
    assert await refusal(offering(w, "B", hourly_rate_micro=-1)) == (
        "INVALID_VALUE", "hourlyRate", "hourlyRate must not be negative (got -1)",
    )  # fmt: skip
    for bad in ("gpu", "/gpu", "nvidia.com/", "Nvidia.com/gpu", "a/b/c"):
        assert await refusal(offering(w, "B", resource_name=bad)) == (
            "INVALID_VALUE", "resourceName", f"{bad!r} is not a Kubernetes extended resource name (e.g. nvidia.com/gpu)",
        )  # fmt: skip
    several = await refusal(
        offering(w, "", vendor="", vram_mib=-1, cores=1, min_cuda="x", hourly_rate_micro=-5, resource_name="x"),
        errors=True,
    )
    assert several == [
        ("INVALID_VALUE", "vendor"),
        ("INVALID_VALUE", "name"),
        ("INVALID_VALUE", "vramMib"),
        ("INVALID_VALUE", "cores"),
        ("INVALID_CUDA_VERSION", "minCuda"),
        ("INVALID_VALUE", "hourlyRate"),
        ("INVALID_VALUE", "resourceName"),
    ]
    assert len(w.state.offerings) == 1


async def test_disabled_offerings_are_for_super_admins_only(w: World) -> None:
    a = await offering(w, "A100")
    v = await offering(w, "V100", enabled=False)
    h = await offering(w, "H100")
    listed, total = await c.offerings_list(w.uow, w.member, Page())
    assert ([o.name for o in listed], total) == (["A100", "H100"], 2)
    listed, total = await c.offerings_list(w.uow, w.root, Page(offset=1, limit=1))
    assert ([o.name for o in listed], total) == (["H100"], 3)
    assert await c.offering_get(w.uow, w.member, a.id) == a
    assert await c.offering_get(w.uow, w.root, v.id) == v
    assert await refusal(c.offering_get(w.uow, w.member, v.id)) == ("NOT_FOUND", "id", "offering not found")
    assert await refusal(c.offering_get(w.uow, w.root, UUID(int=4))) == ("NOT_FOUND", "id", "offering not found")
    assert h.enabled


async def test_offering_update_and_delete(w: World) -> None:
    a = await offering(w, "A100")
    await offering(w, "H100")
    u = await c.offering_update(
        w.uow, w.root, a.id, name=" A100 SXM ", min_cuda="12.2", hourly_rate_micro=0, description=" d ", enabled=False
    )
    assert (u.name, u.min_cuda, u.hourly_rate_micro, u.description, u.enabled) == (
        "A100 SXM",
        CudaVersion(12, 2),
        0,
        "d",
        False,
    )
    assert w.state.offerings[a.id] == u and (u.vram_mib, u.cores, u.vendor) == (81920, 100, "NVIDIA")
    kept = await c.offering_update(w.uow, w.root, a.id, enabled=True)
    assert (kept.name, kept.enabled, kept.description) == ("A100 SXM", True, "d")
    assert await refusal(c.offering_update(w.uow, w.root, a.id, name="h100")) == (
        "DUPLICATE", "name", "an offering named h100 already exists",
    )  # fmt: skip
    assert (await c.offering_update(w.uow, w.root, a.id, name="a100 sxm")).name == "a100 sxm"  # its own name
    several = await refusal(
        c.offering_update(w.uow, w.root, a.id, name=" ", min_cuda="?", hourly_rate_micro=-1), errors=True
    )
    assert several == [("INVALID_VALUE", "name"), ("INVALID_CUDA_VERSION", "minCuda"), ("INVALID_VALUE", "hourlyRate")]
    assert await refusal(c.offering_update(w.uow, w.org_admin, a.id, name="x")) == (
        "PERMISSION_DENIED", None, "only a super_admin may do this",
    )  # fmt: skip
    assert w.state.offerings[a.id].name == "a100 sxm"
    assert await refusal(c.offering_delete(w.uow, w.org_admin, a.id)) == (
        "PERMISSION_DENIED",
        None,
        "only a super_admin may do this",
    )
    current = w.state.offerings[a.id]
    assert await c.offering_delete(w.uow, w.root, a.id) == current
    assert a.id not in w.state.offerings
    assert await refusal(c.offering_delete(w.uow, w.root, a.id)) == ("NOT_FOUND", "id", "offering not found")


async def preset(w: World, name: str = "p", **kw: object) -> Preset:
    args: dict[str, object] = dict(
        name=name, cpu_millicores=2000, memory_mib=4096, disk_gib=10, shm_mib=512, tier=GpuTier.L
    )
    args.update(kw)
    return await c.preset_create(w.uow, w.root, w.ids, w.clock, **args)  # type: ignore[arg-type]


async def test_presets_of_each_tier(w: World) -> None:
    cpu = await preset(w, " CPU  small ", tier=GpuTier.NONE, description=" d ")
    assert cpu == Preset(cpu.id, "CPU small", 2000, 4096, 10, 512, GpuTier.NONE, NOW, 0, None, None, "d")
    assert cpu.cpu_only
    frac = await preset(w, "quarter", tier=GpuTier.L, gpu_count=1)
    assert (frac.gpu_count, frac.custom_vram_mib, frac.custom_cores, frac.cpu_only) == (1, None, None, False)
    assert (await preset(w, "eighth", tier=GpuTier.M)).gpu_count == 1
    whole = await preset(w, "two cards", tier=GpuTier.EXCLUSIVE, gpu_count=2)
    assert (whole.gpu_count, whole.custom_vram_mib) == (2, None)
    assert (await preset(w, "sixteen", tier=GpuTier.EXCLUSIVE, gpu_count=16)).gpu_count == 16
    custom = await preset(w, "custom", tier=GpuTier.CUSTOM, custom_vram_mib=12000, custom_cores=30)
    assert (custom.gpu_count, custom.custom_vram_mib, custom.custom_cores) == (1, 12000, 30)
    edge = await preset(w, "edge", tier=GpuTier.CUSTOM, custom_vram_mib=1, custom_cores=100, shm_mib=4096, disk_gib=0)
    assert (edge.custom_cores, edge.shm_mib, edge.disk_gib) == (100, 4096, 0)
    listed, total = await c.presets_list(w.uow, w.member, Page(limit=3))
    assert ([p.name for p in listed], total) == (["sixteen", "two cards", "custom"], 7)
    assert await c.preset_get(w.uow, w.member, cpu.id) == cpu
    assert await refusal(c.preset_get(w.uow, w.member, UUID(int=6))) == ("NOT_FOUND", "id", "preset not found")


async def test_preset_refusals(w: World) -> None:
    await preset(w, "taken")
    assert await refusal(preset(w, "TAKEN")) == ("DUPLICATE", "name", "a preset named TAKEN already exists")
    assert await refusal(c.preset_create(w.uow, w.member, w.ids, w.clock, name="x", cpu_millicores=1, memory_mib=1, disk_gib=0, shm_mib=0, tier=GpuTier.NONE)) == (
        "PERMISSION_DENIED", None, "only a super_admin may do this",
    )  # fmt: skip
    cpu_gpu = "a CPU-only preset cannot ask for GPU resources"
    assert await refusal(preset(w, "x", tier=GpuTier.NONE, gpu_count=1)) == (
        "TIER_ON_CPU_ONLY_PRESET",
        "gpuCount",
        cpu_gpu,
    )
    assert await refusal(preset(w, "x", tier=GpuTier.NONE, custom_vram_mib=5), errors=False) == (
        "TIER_ON_CPU_ONLY_PRESET", "customVramMib", cpu_gpu,
    )  # fmt: skip
    assert await refusal(preset(w, "x", tier=GpuTier.NONE, custom_cores=5)) == (
        "TIER_ON_CPU_ONLY_PRESET",
        "customCores",
        cpu_gpu,
    )
    whole = "an exclusive preset needs 1–16 whole cards"
    for n in (None, 0, 17):
        assert await refusal(preset(w, "x", tier=GpuTier.EXCLUSIVE, gpu_count=n)) == (
            "INVALID_VALUE",
            "gpuCount",
            whole,
        )
    assert await refusal(preset(w, "x", tier=GpuTier.S, gpu_count=2)) == (
        "INVALID_VALUE", "gpuCount", "a fractional preset takes a share of one card",
    )  # fmt: skip
    assert await refusal(preset(w, "x", tier=GpuTier.XL, custom_cores=10)) == (
        "INVALID_VALUE", "customVramMib", "tier XL sets its own share; use tier CUSTOM for explicit limits",
    )  # fmt: skip
    custom = await refusal(preset(w, "x", tier=GpuTier.CUSTOM), errors=True)
    assert custom == [("INVALID_VALUE", "customVramMib"), ("INVALID_VALUE", "customCores")]
    bad_share = await refusal(preset(w, "x", tier=GpuTier.CUSTOM, custom_vram_mib=0, custom_cores=101), errors=True)
    assert bad_share == [("INVALID_VALUE", "customVramMib"), ("INVALID_VALUE", "customCores")]
    assert await refusal(preset(w, "x", tier=GpuTier.CUSTOM, custom_vram_mib=10, custom_cores=0)) == (
        "INVALID_VALUE", "customCores", "a custom preset needs a core share of 1–100 percent",
    )  # fmt: skip
    assert await refusal(preset(w, "x", tier=GpuTier.CUSTOM, custom_vram_mib=-1, custom_cores=5)) == (
        "INVALID_VALUE", "customVramMib", "a custom preset needs a VRAM share in MiB",
    )  # fmt: skip
    assert await refusal(preset(w, "x", shm_mib=4097)) == (
        "INVALID_VALUE", "shmMib", "shared memory cannot exceed the preset's memory",
    )  # fmt: skip
    fields = await refusal(preset(w, "", cpu_millicores=0, memory_mib=0, disk_gib=-1, shm_mib=-1), errors=True)
    assert fields == [
        ("INVALID_VALUE", "name"),
        ("INVALID_VALUE", "cpuMillicores"),
        ("INVALID_VALUE", "memoryMib"),
        ("INVALID_VALUE", "diskGib"),
        ("INVALID_VALUE", "shmMib"),
    ]
    assert [p.name for p in w.state.presets.values()] == ["taken"]


async def test_preset_update_keeps_what_is_not_named(w: World) -> None:
    p = await preset(w, "base", tier=GpuTier.CUSTOM, custom_vram_mib=1000, custom_cores=10)
    await preset(w, "other")
    u = await c.preset_update(
        w.uow,
        w.root,
        p.id,
        name=" renamed ",
        cpu_millicores=3000,
        memory_mib=8192,
        disk_gib=0,
        shm_mib=0,
        description=" x ",
    )
    assert (u.name, u.cpu_millicores, u.memory_mib, u.disk_gib, u.shm_mib, u.description) == (
        "renamed",
        3000,
        8192,
        0,
        0,
        "x",
    )
    assert (u.tier, u.gpu_count, u.custom_vram_mib, u.custom_cores) == (GpuTier.CUSTOM, 1, 1000, 10)
    assert w.state.presets[p.id] == u and u.created_at == NOW
    cores = await c.preset_update(w.uow, w.root, p.id, custom_cores=20)
    assert (cores.custom_vram_mib, cores.custom_cores) == (1000, 20)
    vram = await c.preset_update(w.uow, w.root, p.id, custom_vram_mib=2000)
    assert (vram.custom_vram_mib, vram.custom_cores) == (2000, 20)
    # a new tier starts from its own defaults, not the old shares
    whole = await c.preset_update(w.uow, w.root, p.id, tier=GpuTier.EXCLUSIVE, gpu_count=4)
    assert (whole.tier, whole.gpu_count, whole.custom_vram_mib, whole.custom_cores) == (
        GpuTier.EXCLUSIVE,
        4,
        None,
        None,
    )
    more = await c.preset_update(w.uow, w.root, p.id, gpu_count=8)
    assert (more.tier, more.gpu_count) == (GpuTier.EXCLUSIVE, 8)
    assert await refusal(c.preset_update(w.uow, w.root, p.id, tier=GpuTier.EXCLUSIVE)) == (
        "INVALID_VALUE", "gpuCount", "an exclusive preset needs 1–16 whole cards",
    )  # fmt: skip
    assert await refusal(c.preset_update(w.uow, w.root, p.id, tier=GpuTier.CUSTOM), errors=True) == [
        ("INVALID_VALUE", "customVramMib"),
        ("INVALID_VALUE", "customCores"),
    ]
    frac = await c.preset_update(w.uow, w.root, p.id, tier=GpuTier.S)
    assert (frac.tier, frac.gpu_count) == (GpuTier.S, 1)
    assert await refusal(c.preset_update(w.uow, w.root, p.id, shm_mib=9000)) == (
        "INVALID_VALUE", "shmMib", "shared memory cannot exceed the preset's memory",
    )  # fmt: skip
    assert await refusal(c.preset_update(w.uow, w.root, p.id, name="OTHER")) == (
        "DUPLICATE", "name", "a preset named OTHER already exists",
    )  # fmt: skip
    several = await refusal(
        c.preset_update(w.uow, w.root, p.id, name="", cpu_millicores=0, memory_mib=-1, disk_gib=-1, shm_mib=-1),
        errors=True,
    )
    assert several == [
        ("INVALID_VALUE", "name"),
        ("INVALID_VALUE", "cpuMillicores"),
        ("INVALID_VALUE", "memoryMib"),
        ("INVALID_VALUE", "diskGib"),
        ("INVALID_VALUE", "shmMib"),
    ]
    assert await refusal(c.preset_update(w.uow, w.org_admin, p.id, name="x")) == (
        "PERMISSION_DENIED", None, "only a super_admin may do this",
    )  # fmt: skip
    assert w.state.presets[p.id] == frac
    assert await refusal(c.preset_delete(w.uow, w.org_admin, p.id)) == (
        "PERMISSION_DENIED",
        None,
        "only a super_admin may do this",
    )
    assert await c.preset_delete(w.uow, w.root, p.id) == frac and p.id not in w.state.presets
    assert await refusal(c.preset_delete(w.uow, w.root, p.id)) == ("NOT_FOUND", "id", "preset not found")


async def test_a_class_offering_s_models_are_updated_and_cleaned(w: World) -> None:
    cls = await offering(w, "any-40GiB", vram_mib=40960, hourly_rate_micro=0, card_models=["A100"])
    u = await c.offering_update(w.uow, w.root, cls.id, card_models=[" H100 ", "A100", "H100"])
    assert u.card_class is not None and u.card_class.models == ("A100", "H100")
    assert w.state.offerings[cls.id] == u
    assert (await c.offering_update(w.uow, w.root, cls.id, card_models=[])).card_class == CardClass(())
    assert await refusal(c.offering_update(w.uow, w.root, cls.id, card_models=["A100", " "])) == (
        "INVALID_VALUE", "cardClass.models", "a model name cannot be empty",
    )  # fmt: skip
    one = await offering(w, "A100")
    assert await refusal(c.offering_update(w.uow, w.root, one.id, card_models=["H100"])) == (
        "INVALID_VALUE", "cardClass", "only a class of cards names models: this offering is one card model",
    )  # fmt: skip

"""The demo catalog seeded into an empty embedded database (turn off with GSHARE_DEMO=false).

It goes through the same use cases an admin would call, so it obeys every rule."""

from __future__ import annotations

import logging

from domain.catalog import services as catalog
from domain.catalog.model import GpuTier, ImageScope
from domain.common.money import MICRO_PER_CREDIT
from domain.tenancy import services as tenancy
from domain.tenancy.model import Actor
from infra.bootstrap import Container

log = logging.getLogger(__name__)

OFFERINGS = [
    # vendor, name, VRAM MiB, min CUDA, credits per hour for a whole card
    ("NVIDIA", "A100-80GB", 81920, "11.0", 4),
    ("NVIDIA", "H100-80GB", 81920, "12.0", 8),
    ("NVIDIA", "A30-24GB", 24576, "11.0", 2),
]
PRESETS = [
    # name, CPU millicores, memory MiB, disk GiB, shm MiB, tier, cards
    ("CPU small", 2000, 4096, 20, 512, GpuTier.NONE, 0),
    ("GPU S (1/16)", 2000, 8192, 50, 1024, GpuTier.S, 1),
    ("GPU M (1/8)", 4000, 16384, 50, 2048, GpuTier.M, 1),
    ("GPU L (1/4)", 8000, 32768, 100, 4096, GpuTier.L, 1),
    ("GPU XL (1/2)", 16000, 65536, 100, 8192, GpuTier.XL, 1),
    ("GPU 1 card", 16000, 131072, 200, 16384, GpuTier.EXCLUSIVE, 1),
    ("GPU 2 cards", 32000, 262144, 400, 32768, GpuTier.EXCLUSIVE, 2),
]
IMAGES: list[tuple[str, str, str | None]] = [
    ("PyTorch 24.05", "nvcr.io/nvidia/pytorch:24.05-py3", "12.4"),
    ("TensorFlow 24.05", "nvcr.io/nvidia/tensorflow:24.05-tf2-py3", "12.4"),
    ("CUDA 11.8 base", "nvcr.io/nvidia/cuda:11.8.0-base-ubuntu22.04", "11.8"),
    ("Jupyter SciPy (CPU)", "quay.io/jupyter/scipy-notebook:2024-05-27", None),
]


async def seed_demo(container: Container) -> bool:
    """Seed once: returns False (and changes nothing) when the catalog already has offerings."""
    c = container
    async with c.uow() as uow:
        _, offerings = await uow.catalog.list_offerings(0, 1)
        if offerings:
            return False
        admins, _ = await uow.tenancy.list_users(org_ids=None, group_ids=None, search="admin", offset=0, limit=1)
        admin = next((u for u in admins if u.is_super_admin), None)
        system = Actor(user_id=admin.id if admin else c.ids.new_id(), username="system", is_super_admin=True)
        for vendor, name, vram, cuda, rate in OFFERINGS:
            await catalog.offering_create(
                uow,
                system,
                c.ids,
                c.clock,
                vendor=vendor,
                name=name,
                vram_mib=vram,
                min_cuda=cuda,
                hourly_rate_micro=rate * MICRO_PER_CREDIT,
            )
        for name, cpu, mem, disk, shm, tier, cards in PRESETS:
            await catalog.preset_create(
                uow,
                system,
                c.ids,
                c.clock,
                name=name,
                cpu_millicores=cpu,
                memory_mib=mem,
                disk_gib=disk,
                shm_mib=shm,
                tier=tier,
                gpu_count=cards if tier == GpuTier.EXCLUSIVE else None,
            )
        registry = await catalog.registry_create(uow, system, c.ids, c.clock, name="NVIDIA NGC", url="nvcr.io")
        for name, ref, cuda in IMAGES:
            await catalog.image_create(
                uow,
                system,
                c.ids,
                c.clock,
                name=name,
                reference=ref,
                cuda_version=cuda,
                scope=ImageScope.GLOBAL,
                registry_id=registry.id if ref.startswith("nvcr.io") else None,
            )
        from domain.volumes.model import AccessMode, StorageClass

        await uow.volumes.put_storage_class(
            StorageClass(
                "nfs", "Shared NFS (ReadWriteMany)", True, (AccessMode.READ_WRITE_ONCE, AccessMode.READ_WRITE_MANY)
            )
        )
        await uow.volumes.put_storage_class(StorageClass("local", "Node-local SSD (ReadWriteOnce)", False))
        org = await tenancy.organization_create(uow, system, c.ids, c.clock, name="Demo University", slug="demo")
        for group in ("ML-Lab", "Vision"):
            await tenancy.group_create(uow, system, c.ids, c.clock, organization_id=org.id, name=group)
        await uow.commit()
    log.info("seeded the demo catalog (set GSHARE_DEMO=false to start empty)")
    return True

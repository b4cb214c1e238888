"""A volume's claims on the clusters: created on every cluster with the deployment's storage
quota, a cluster that refuses left for the hand-off, phases recorded as each cluster reports
them, deleted everywhere (kills mutmut's unreached mutants of provision_volume,
deprovision_volume and claims_reported, issue 20)."""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import timedelta
from typing import Any
from uuid import uuid4

import pytest

from domain.policies.model import GLOBAL_SCOPE, ResourcePolicy
from domain.volumes import services as v
from domain.volumes.model import AccessMode, ClaimPhase, ClaimState, StorageClass, Volume
from tests.unit.sessions.world import SessionsWorld
from tests.unit.tenancy.world import NOW


class Claims:
    """A cluster's volume side of `ClusterPort`: records each claim, answers a phase (or fails)."""

    def __init__(self, cluster_id: str, answer: str | None = "Bound", fail: Exception | None = None) -> None:
        self.cluster_id = cluster_id
        self.answer, self.fail = answer, fail
        self.applied: list[tuple[Any, int | None]] = []
        self.deleted: list[str] = []

    async def apply_volume(self, claim: Any, storage_quota_mib: int | None) -> str | None:
        self.applied.append((claim, storage_quota_mib))
        if self.fail is not None:
            raise self.fail
        return self.answer

    async def delete_volume(self, claim_name: str) -> None:
        self.deleted.append(claim_name)
        if self.fail is not None:
            raise self.fail


class AllClusters:
    def __init__(self, *ports: Claims) -> None:
        self.ports = ports

    def all(self) -> list[Claims]:
        return list(self.ports)


@pytest.fixture
async def w() -> SessionsWorld:
    world = await SessionsWorld.build(credits_=0)
    await world.t.uow.volumes.put_storage_class(
        StorageClass("standard", "", True, (AccessMode.READ_WRITE_ONCE, AccessMode.READ_WRITE_MANY))
    )
    return world


async def volume(w: SessionsWorld) -> Volume:
    return await v.volume_create(w.t.uow, w.actor("member"), w.t.ids, w.t.clock, w.policies, name="data", size_mib=512)


async def test_a_claim_goes_to_every_cluster_with_the_global_storage_quota_and_its_phases_are_kept(
    w: SessionsWorld, caplog: pytest.LogCaptureFixture
) -> None:
    await w.policies.put(ResourcePolicy(GLOBAL_SCOPE, storage_quota_mib=4096))
    vol = await volume(w)
    bound, pending, silent = Claims("c1"), Claims("c2", "Pending"), Claims("c3", None)
    odd, down = Claims("c4", "Terminating"), Claims("c5", fail=RuntimeError("exceeded quota"))
    svc = replace(w.svc, clusters=AllClusters(down, bound, pending, silent, odd))  # type: ignore[arg-type]
    with caplog.at_level(logging.WARNING, logger="domain.volumes.services"):
        answers = await v.provision_volume(svc, vol)
    assert answers == {"c1": ClaimPhase.BOUND, "c2": ClaimPhase.PENDING, "c3": None, "c4": None}
    claim, quota = bound.applied[0]
    assert (claim.volume_id, claim.claim_name, claim.storage_class, claim.size_mib, claim.access_mode) == (
        str(vol.id), f"vol-{vol.id}", "standard", 512, "ReadWriteOnce",
    )  # fmt: skip
    assert quota == 4096 and all(p.applied == [(claim, 4096)] for p in (pending, silent, odd, down))
    assert [r.getMessage() for r in caplog.records] == [f"cluster c5 did not take the claim of volume {vol.id}"]
    error = caplog.records[0].exc_info  # the cluster's error goes with it
    assert error and error[0] is RuntimeError and str(error[1]) == "exceeded quota"
    stored = await w.t.uow.volumes.get(vol.id)
    assert stored is not None
    assert stored.claims == {"c1": ClaimState(ClaimPhase.BOUND, NOW), "c2": ClaimState(ClaimPhase.PENDING, NOW)}
    assert stored.phase is ClaimPhase.PENDING


async def test_without_a_global_policy_the_claim_has_no_quota_and_an_unanswered_claim_writes_nothing(
    w: SessionsWorld,
) -> None:
    vol = await volume(w)
    silent = Claims("c1", None)
    svc = replace(w.svc, clusters=AllClusters(silent))  # type: ignore[arg-type]
    assert await v.provision_volume(svc, vol) == {"c1": None}
    assert silent.applied[0][1] is None
    stored = await w.t.uow.volumes.get(vol.id)
    assert stored is not None and stored.claims == {}


async def test_a_deleted_volume_loses_its_claim_on_every_cluster_even_when_one_refuses(
    w: SessionsWorld, caplog: pytest.LogCaptureFixture
) -> None:
    vol = await volume(w)
    down, up = Claims("c1", fail=RuntimeError("unreachable")), Claims("c2")
    svc = replace(w.svc, clusters=AllClusters(down, up))  # type: ignore[arg-type]
    with caplog.at_level(logging.WARNING, logger="domain.volumes.services"):
        await v.deprovision_volume(svc, vol)
    assert down.deleted == up.deleted == [f"vol-{vol.id}"]
    assert [r.getMessage() for r in caplog.records] == [f"cluster c1 kept the claim of deleted volume {vol.id}"]
    error = caplog.records[0].exc_info
    assert error and error[0] is RuntimeError and str(error[1]) == "unreachable"


async def test_reported_phases_are_recorded_and_those_gshare_does_not_show_are_skipped(w: SessionsWorld) -> None:
    vol = await volume(w)
    later = NOW + timedelta(hours=1)
    phases = {vol.id: "Bound", uuid4(): "Lost"}  # the second: no such volume
    assert await v.claims_reported(w.t.uow, "c1", phases, later) == 1
    stored = await w.t.uow.volumes.get(vol.id)
    assert stored is not None and stored.claims == {"c1": ClaimState(ClaimPhase.BOUND, later)}
    assert await v.claims_reported(w.t.uow, "c1", {vol.id: "Bound"}, later) == 0  # no change
    assert await v.claims_reported(w.t.uow, "c2", {vol.id: "Terminating"}, later) == 0  # not a phase shown
    assert await v.claims_reported(w.t.uow, "c2", {}, later) == 0
    assert await v.claims_reported(w.t.uow, "c1", {vol.id: "Lost"}, later) == 1
    stored = await w.t.uow.volumes.get(vol.id)
    assert stored is not None and stored.phase is ClaimPhase.LOST

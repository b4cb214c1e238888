"""Registering, changing and deregistering Kubernetes clusters (the core's checks), on
in-memory records and a stand-in for the sealing port."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

import pytest

from domain.common.clock import FrozenClock
from domain.common.errors import DomainError, ValidationErrors
from domain.inventory import clusters as c
from domain.inventory.clusters import RegisteredCluster
from domain.tenancy.model import Actor

ROOT = Actor(UUID(int=1), "root", is_super_admin=True)
ADMIN = Actor(UUID(int=2), "oa", org_admin_of=frozenset({UUID(int=9)}))
NOW = datetime(2026, 5, 1, tzinfo=UTC)
KEY = "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA\n-----END PUBLIC KEY-----"


class Records:
    def __init__(self) -> None:
        self.rows: dict[str, RegisteredCluster] = {}
        self.busy: set[str] = set()
        self.locked: list[str] = []

    async def get(self, cluster_id: str, *, for_update: bool = False) -> RegisteredCluster | None:
        if for_update:
            self.locked.append(cluster_id)
        return self.rows.get(cluster_id)

    async def name_taken(self, name: str, *, other_than: str | None = None) -> bool:
        return any(r.name == name and r.id != other_than for r in self.rows.values())

    async def add(self, cluster: RegisteredCluster) -> None:
        self.rows[cluster.id] = cluster

    async def update(self, cluster: RegisteredCluster) -> None:
        self.rows[cluster.id] = cluster

    async def remove(self, cluster_id: str) -> None:
        del self.rows[cluster_id]

    async def list(self) -> list[RegisteredCluster]:
        return sorted(self.rows.values(), key=lambda r: r.id)

    async def has_workloads(self, cluster_id: str) -> bool:
        return cluster_id in self.busy


class Secrets:
    def kubeconfig_problem(self, kubeconfig: str) -> str | None:
        return None if kubeconfig.startswith("apiVersion: v1") else "not a kubeconfig: no apiVersion"

    def callback_key_problem(self, pem: str) -> str | None:
        return None if "BEGIN PUBLIC KEY" in pem else "not a PEM public key"

    def encrypt(self, kubeconfig: str) -> bytes:
        return b"sealed:" + kubeconfig.encode()


async def register(records: Records, actor: Actor = ROOT, **kw: str) -> RegisteredCluster:
    args = dict(
        cluster_id="gpu-a",
        name="GPU A",
        placement_policy="best-fit",
        kubeconfig="apiVersion: v1",
        callback_public_key=KEY,
    )
    args.update(kw)
    return await c.cluster_register(records, Secrets(), FrozenClock(NOW), actor, **args)


def refused(err: DomainError) -> tuple[str, str | None, str]:
    return (err.code.value, err.field, err.message)


async def test_a_cluster_is_registered_with_its_kubeconfig_sealed() -> None:
    records = Records()
    got = await register(records, cluster_id="  gpu-a ", name="  GPU A  ", callback_public_key=f"\n{KEY}\n\n")
    assert got == RegisteredCluster(
        "gpu-a", "GPU A", "kubernetes", "best-fit", b"sealed:apiVersion: v1", KEY + "\n", NOW
    )
    assert records.rows == {"gpu-a": got}
    for policy in ("first-fit", "fragmentation-aware"):
        assert (
            await register(records, cluster_id=f"c-{policy[:5]}", name=policy, placement_policy=policy)
        ).placement_policy == policy
    assert (await register(records, cluster_id="a" * 63, name="n" * 100)).id == "a" * 63
    assert (await register(records, cluster_id="0", name="zero")).id == "0"


async def test_registration_refusals_name_every_bad_field() -> None:
    records = Records()
    with pytest.raises(DomainError) as denied:
        await register(records, ADMIN)
    assert refused(denied.value) == ("PERMISSION_DENIED", None, "only a super_admin may do this")
    dns = "a cluster id is a DNS label: a-z, 0-9 and '-', at most 63"
    for bad in ("", "-a", "a-", "A1", "a" * 64, "a_b", "a.b"):
        with pytest.raises(DomainError) as err:
            await register(records, cluster_id=bad)
        assert refused(err.value) == ("INVALID_VALUE", "id", dns)
    for bad in ("", "   ", "n" * 101):
        with pytest.raises(DomainError) as err:
            await register(records, name=bad)
        assert refused(err.value) == ("INVALID_VALUE", "name", "a name has 1 to 100 characters")
    with pytest.raises(DomainError) as err:
        await register(records, placement_policy="round-robin")
    assert refused(err.value) == (
        "INVALID_VALUE",
        "placementPolicy",
        "placement policy must be one of best-fit, first-fit, fragmentation-aware",
    )
    with pytest.raises(DomainError) as err:
        await register(records, kubeconfig="{}")
    assert refused(err.value) == ("INVALID_VALUE", "kubeconfig", "not a kubeconfig: no apiVersion")
    with pytest.raises(DomainError) as err:
        await register(records, callback_public_key="ssh-ed25519 AAAA")
    assert refused(err.value) == ("INVALID_VALUE", "callbackPublicKey", "not a PEM public key")
    with pytest.raises(ValidationErrors) as several:
        await register(records, cluster_id="", name="", placement_policy="x", kubeconfig="", callback_public_key="")
    assert [(e.field, e.code.value) for e in several.value.errors] == [
        ("id", "INVALID_VALUE"),
        ("name", "INVALID_VALUE"),
        ("placementPolicy", "INVALID_VALUE"),
        ("kubeconfig", "INVALID_VALUE"),
        ("callbackPublicKey", "INVALID_VALUE"),
    ]
    assert records.rows == {}
    await register(records)
    with pytest.raises(DomainError) as dup:
        await register(records, name="Other")
    assert refused(dup.value) == ("DUPLICATE", "id", "a cluster with id 'gpu-a' is already registered")
    with pytest.raises(DomainError) as dup_name:
        await register(records, cluster_id="gpu-b")
    assert refused(dup_name.value) == ("DUPLICATE", "name", "a cluster named 'GPU A' is already registered")
    with pytest.raises(ValidationErrors) as both:
        await register(records)
    assert [e.field for e in both.value.errors] == ["id", "name"]
    assert list(records.rows) == ["gpu-a"]


async def test_the_placement_policy_is_changed_under_a_lock() -> None:
    records = Records()
    before = await register(records)
    after = await c.cluster_placement_policy_update(records, ROOT, cluster_id="gpu-a", placement_policy="first-fit")
    assert after == replace(before, placement_policy="first-fit") and records.rows["gpu-a"] == after
    assert records.locked == ["gpu-a"]
    with pytest.raises(DomainError) as err:
        await c.cluster_placement_policy_update(records, ROOT, cluster_id="gpu-a", placement_policy="worst-fit")
    assert refused(err.value)[:2] == ("INVALID_VALUE", "placementPolicy")
    with pytest.raises(DomainError) as missing:
        await c.cluster_placement_policy_update(records, ROOT, cluster_id="nope", placement_policy="best-fit")
    assert refused(missing.value) == ("NOT_FOUND", "clusterId", "cluster not found")
    with pytest.raises(DomainError) as denied:
        await c.cluster_placement_policy_update(records, ADMIN, cluster_id="gpu-a", placement_policy="best-fit")
    assert refused(denied.value)[0] == "PERMISSION_DENIED"
    assert records.rows["gpu-a"].placement_policy == "first-fit"


async def test_a_cluster_is_deregistered_only_when_nothing_runs_on_it() -> None:
    records = Records()
    cluster = await register(records)
    records.busy.add("gpu-a")
    with pytest.raises(DomainError) as busy:
        await c.cluster_deregister(records, ROOT, cluster_id="gpu-a")
    assert refused(busy.value) == (
        "CONFLICT",
        "clusterId",
        "cluster 'gpu-a' still has sessions placed on it; pause or stop them first",
    )
    records.busy.clear()
    with pytest.raises(DomainError) as denied:
        await c.cluster_deregister(records, ADMIN, cluster_id="gpu-a")
    assert refused(denied.value)[0] == "PERMISSION_DENIED"
    assert await c.clusters_list(records, ROOT) == [cluster]
    with pytest.raises(DomainError):
        await c.clusters_list(records, ADMIN)
    assert await c.cluster_deregister(records, ROOT, cluster_id="gpu-a") == cluster
    assert records.rows == {} and records.locked == ["gpu-a", "gpu-a"]
    with pytest.raises(DomainError) as missing:
        await c.cluster_deregister(records, ROOT, cluster_id="gpu-a")
    assert refused(missing.value) == ("NOT_FOUND", "clusterId", "cluster not found")
    # a simulated cluster (not registered by kubeconfig) is not deregistered this way
    records.rows["demo"] = replace(cluster, id="demo", kind="simulated")
    with pytest.raises(DomainError) as simulated:
        await c.cluster_deregister(records, ROOT, cluster_id="demo")
    assert refused(simulated.value) == ("NOT_FOUND", "clusterId", "cluster not found")
    assert "demo" in records.rows


async def test_a_clusters_prometheus_is_set_with_its_token_sealed_and_cleared() -> None:
    records = Records()
    cluster = await register(records)
    records.locked.clear()

    async def usage(url: str | None, token: str | None = None, actor: Actor = ROOT, cid: str = "gpu-a") -> Any:
        return await c.cluster_usage_source_set(
            records, Secrets(), actor, cluster_id=cid, prometheus_url=url, bearer_token=token
        )

    set_ = await usage("  http://prometheus.monitoring:9090/api  ", "  t0ken  ")
    assert set_ == replace(
        cluster, prometheus_url="http://prometheus.monitoring:9090/api", prometheus_token_encrypted=b"sealed:t0ken"
    )
    assert records.rows["gpu-a"] == set_ and records.locked == ["gpu-a"]
    # a new URL without a token keeps none (the old one is not carried over)
    assert (await usage("https://[fd00::1]:9090")).prometheus_token_encrypted is None
    assert (await usage("https://p", "   ")).prometheus_token_encrypted is None
    # no URL (or a blank one): back to the node agents, no token kept even if one is given
    for url in (None, "", "   "):
        await usage("https://p", "t")
        cleared = await usage(url, "t")
        assert (cleared.prometheus_url, cleared.prometheus_token_encrypted) == (None, None)
    # at most 2000 characters of URL, 8192 of token
    longest = "http://p/" + "a" * 1991
    assert (await usage(longest, "t" * 8192)).prometheus_url == longest
    assert records.rows["gpu-a"].prometheus_token_encrypted == b"sealed:" + b"t" * 8192


@pytest.mark.parametrize(
    "url",
    [
        "ftp://p:9090",
        "http://",
        "http://user:secret@p:9090",
        "http://p:9090/api?token=x",
        "http://p:9090/#x",
        "http://p:9090/a b",
        "http://p_9090",
        "prometheus:9090",
        "http://p/" + "a" * 1992,
    ],
)
async def test_a_bad_prometheus_url_is_refused_and_changes_nothing(url: str) -> None:
    records = Records()
    cluster = await register(records)
    with pytest.raises(DomainError) as err:
        await c.cluster_usage_source_set(records, Secrets(), ROOT, cluster_id="gpu-a", prometheus_url=url)
    assert refused(err.value) == (
        "INVALID_VALUE", "prometheusUrl", "a Prometheus URL is http(s)://host[:port][/path], without credentials",
    )  # fmt: skip
    assert records.rows["gpu-a"] == cluster


@pytest.mark.parametrize("token", ["two words", "tab\there", "line\nbreak", "t" * 8193])
async def test_a_bad_bearer_token_is_refused_and_changes_nothing(token: str) -> None:
    records = Records()
    cluster = await register(records)
    with pytest.raises(DomainError) as err:
        await c.cluster_usage_source_set(
            records, Secrets(), ROOT, cluster_id="gpu-a", prometheus_url="http://p:9090", bearer_token=token
        )
    assert refused(err.value) == (
        "INVALID_VALUE", "prometheusBearerToken", "a bearer token is one word of at most 8192 characters",
    )  # fmt: skip
    assert records.rows["gpu-a"] == cluster


async def test_the_usage_source_is_set_by_a_super_admin_on_a_registered_cluster_only() -> None:
    records = Records()
    cluster = await register(records)
    records.rows["demo"] = replace(cluster, id="demo", kind="simulated")
    for actor, cid, want in [
        (ADMIN, "gpu-a", ("PERMISSION_DENIED", None, "only a super_admin may do this")),
        (ROOT, "nope", ("NOT_FOUND", "clusterId", "cluster not found")),
        (ROOT, "demo", ("NOT_FOUND", "clusterId", "cluster not found")),
    ]:
        with pytest.raises(DomainError) as err:
            await c.cluster_usage_source_set(records, Secrets(), actor, cluster_id=cid, prometheus_url="http://p")
        assert refused(err.value) == want
    assert records.rows["demo"].prometheus_url is None and records.rows["gpu-a"] == cluster

"""Cluster registration through GraphQL: typed refusals naming the field, the kubeconfig sealed
at rest, the adapter connected at once, policy update, deregistration, audit."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from sqlalchemy import select

from infra.db.models.inventory import ClusterRow
from tests.integration.k8s_e2e.conftest import REGISTER, E2ECluster, public_pem, register
from tests.k8s.apiserver import KubeApiServer
from tests.support.api import Gql, World


async def test_registration_seals_the_kubeconfig_and_connects_the_cluster(
    e2e: E2ECluster, admin: Gql, container: Any
) -> None:
    async with container.uow() as uow:
        row = await uow.session.scalar(select(ClusterRow).where(ClusterRow.id == e2e.id))
        uow.session.expunge(row)
    assert row is not None and row.kind == "kubernetes" and row.kubeconfig_encrypted
    assert b"cp-" + e2e.id.encode() not in row.kubeconfig_encrypted  # the token is not readable at rest
    assert b"server" not in row.kubeconfig_encrypted
    assert "PUBLIC KEY" in (row.callback_public_key or "")
    assert container.clusters.get(e2e.id) is not None
    # the first inventory was read through the adapter
    async with container.uow() as uow:
        nodes = (await uow.capacity.inventory()).nodes_of(e2e.id)
    assert sorted(n.name for n in nodes) == ["n-ex", "n-hami", "n-mig", "n-ts"]

    listed = await admin("{ registeredClusters { id kind hasKubeconfig callbackKeyAlgorithm placementPolicy } }")
    mine = [c for c in listed["registeredClusters"] if c["id"] == e2e.id]
    assert mine == [
        {
            "id": e2e.id,
            "kind": "kubernetes",
            "hasKubeconfig": True,
            "callbackKeyAlgorithm": "EdDSA",
            "placementPolicy": "best-fit",
        }
    ]

    data = await admin(
        """mutation($input: ClusterPlacementPolicyUpdateInput!) {
          clusterPlacementPolicyUpdate(input: $input) { cluster { placementPolicy } errors { code field } } }""",
        input={"clusterId": e2e.id, "placementPolicy": "FRAGMENTATION_AWARE"},
    )
    assert data["clusterPlacementPolicyUpdate"] == {"cluster": {"placementPolicy": "fragmentation-aware"}, "errors": []}
    async with container.uow() as uow:
        clusters = {c.id: c for c, _ in await uow.capacity.clusters()}
    assert clusters[e2e.id].placement_policy == "fragmentation-aware"

    audit = await admin("{ auditLog(first: 50) { edges { node { operation targetId success resultCode } } } }")
    ops = [(e["node"]["operation"], e["node"]["targetId"]) for e in audit["auditLog"]["edges"]]
    assert ("clusterRegister", e2e.id) in ops and ("clusterPlacementPolicyUpdate", e2e.id) in ops


async def test_refusals_name_their_field(
    e2e: E2ECluster, admin: Gql, kube_api: KubeApiServer, tmp_path: Path, world: World, cp_http: Any
) -> None:
    key = Ed25519PrivateKey.generate()
    duplicate = await register(admin, kube_api, tmp_path, e2e.id, key)
    assert [(e["code"], e["field"]) for e in duplicate["errors"]] == [("DUPLICATE", "id"), ("DUPLICATE", "name")]

    bad_pem = await register(
        admin, kube_api, tmp_path, "e2e-other", key, callbackPublicKey="-----BEGIN PUBLIC KEY-----\nnope\n"
    )
    assert [(e["code"], e["field"]) for e in bad_pem["errors"]] == [("INVALID_VALUE", "callbackPublicKey")]

    rsa_like = await register(
        admin,
        kube_api,
        tmp_path,
        "e2e-other",
        key,
        callbackPublicKey=public_pem(ec.generate_private_key(ec.SECP384R1())),
    )
    assert [(e["code"], e["field"]) for e in rsa_like["errors"]] == [("INVALID_VALUE", "callbackPublicKey")]

    bad_kubeconfig = await register(admin, kube_api, tmp_path, "e2e-other", key, kubeconfig="clusters: [")
    assert [(e["code"], e["field"]) for e in bad_kubeconfig["errors"]] == [("INVALID_VALUE", "kubeconfig")]

    exec_kubeconfig = await register(
        admin,
        kube_api,
        tmp_path,
        "e2e-other",
        key,
        kubeconfig=(
            "clusters: [{name: a, cluster: {server: 'https://k'}}]\n"
            "contexts: [{name: a, context: {cluster: a, user: u}}]\n"
            "users: [{name: u, user: {exec: {command: /bin/sh}}}]\n"
        ),
    )
    assert [(e["code"], e["field"]) for e in exec_kubeconfig["errors"]] == [("INVALID_VALUE", "kubeconfig")]

    several = await register(admin, kube_api, tmp_path, "Not A Label", key, kubeconfig="[]")
    assert {e["field"] for e in several["errors"]} == {"id", "kubeconfig"}

    member = Gql(cp_http, world.tokens["member"])
    refused = await member(REGISTER, input={"id": "e2e-m", "name": "m", "kubeconfig": "x", "callbackPublicKey": "y"})
    assert [e["code"] for e in refused["clusterRegister"]["errors"]] == ["PERMISSION_DENIED"]

    audit = await admin("{ auditLog(first: 30) { edges { node { operation success resultCode } } } }")
    failures = [
        e["node"]
        for e in audit["auditLog"]["edges"]
        if e["node"]["operation"] == "clusterRegister" and not e["node"]["success"]
    ]
    assert {f["resultCode"] for f in failures} >= {"DUPLICATE", "INVALID_VALUE", "PERMISSION_DENIED"}


async def test_deregistration(e2e: E2ECluster, admin: Gql, container: Any) -> None:
    data = await admin(
        "mutation($id: String!) { clusterDeregister(input: {clusterId: $id}) { clusterId errors { code field } } }",
        id=e2e.id,
    )
    assert data["clusterDeregister"] == {"clusterId": e2e.id, "errors": []}
    assert container.clusters.get(e2e.id) is None
    async with container.uow() as uow:
        assert (await uow.capacity.inventory()).nodes_of(e2e.id) == ()
    again = await admin(
        "mutation($id: String!) { clusterDeregister(input: {clusterId: $id}) { clusterId errors { code field } } }",
        id=e2e.id,
    )
    assert again["clusterDeregister"]["errors"] == [{"code": "NOT_FOUND", "field": "clusterId"}]


async def test_concurrent_registrations_of_one_id_register_it_once(
    admin: Gql, kube_api: KubeApiServer, tmp_path: Path, container: Any
) -> None:
    import asyncio
    import uuid

    from tests.integration.k8s_e2e.conftest import forget_cluster

    cluster_id = f"e2e-race-{uuid.uuid4().hex[:6]}"
    keys = [Ed25519PrivateKey.generate() for _ in range(6)]
    try:
        results = await asyncio.gather(*(register(admin, kube_api, tmp_path, cluster_id, k) for k in keys))
        ok = [r for r in results if not r["errors"]]
        assert len(ok) == 1
        assert all(r["errors"][0]["code"] == "DUPLICATE" for r in results if r["errors"])
        winner = keys[results.index(ok[0])]
        async with container.uow() as uow:
            row = await uow.session.scalar(select(ClusterRow).where(ClusterRow.id == cluster_id))
            assert row is not None and row.callback_public_key == public_pem(winner)
    finally:
        await forget_cluster(container, cluster_id)


async def test_a_restarted_control_plane_connects_registered_clusters(e2e: E2ECluster, container: Any) -> None:
    from infra.clusters.wiring import disconnect_cluster, start_kubernetes_clusters

    await disconnect_cluster(container, e2e.id)
    assert container.clusters.get(e2e.id) is None
    await start_kubernetes_clusters(container)
    port = container.clusters.get(e2e.id)
    assert port is not None
    inventory = await port.read_inventory()  # the decrypted kubeconfig reaches the API server
    assert len(inventory.nodes) == 4

"""Registering Kubernetes clusters: a super_admin gives gshare a cluster's kubeconfig (kept
encrypted at rest) and its operator's public callback key, picks the placement policy, changes
it later, or deregisters the cluster.

The core checks the request and decides; parsing a kubeconfig or a PEM key, encrypting and
storing are the ports' business (`ClusterSecrets`, `ClusterRecords`), so this module stays
plain Python.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Protocol

from domain.common.clock import Clock
from domain.common.errors import (
    CommonErrorCode,
    DomainError,
    DuplicateError,
    InvalidValueError,
    NotFoundError,
    ValidationErrors,
)
from domain.tenancy import access
from domain.tenancy.model import Actor

PLACEMENT_POLICIES = ("best-fit", "first-fit", "fragmentation-aware")
KIND_KUBERNETES = "kubernetes"
# a cluster id is a DNS label: it appears in node ids (`<cluster>/<node>`) and JWT issuers
_CLUSTER_ID = re.compile(r"^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$")


@dataclass(frozen=True, slots=True)
class RegisteredCluster:
    """A cluster as registered. `kubeconfig_encrypted` never leaves the infra/API boundary
    decrypted; `callback_public_key` is a PEM public key (Ed25519 or P-256)."""

    id: str
    name: str
    kind: str
    placement_policy: str
    kubeconfig_encrypted: bytes | None
    callback_public_key: str | None
    created_at: datetime | None = None
    # the Prometheus fallback of live usage (sites that scrape cAdvisor and DCGM/HAMi already)
    prometheus_url: str | None = None
    prometheus_token_encrypted: bytes | None = None


class ClusterSecrets(Protocol):
    """Checks and seals what a registration carries."""

    def kubeconfig_problem(self, kubeconfig: str) -> str | None:
        """Why the text is not a usable kubeconfig (None when it is)."""
        ...

    def callback_key_problem(self, pem: str) -> str | None:
        """Why the text is not an Ed25519 / P-256 public key in PEM (None when it is)."""
        ...

    def encrypt(self, kubeconfig: str) -> bytes: ...


class ClusterRecords(Protocol):
    async def get(self, cluster_id: str, *, for_update: bool = False) -> RegisteredCluster | None: ...

    async def name_taken(self, name: str, *, other_than: str | None = None) -> bool: ...

    async def add(self, cluster: RegisteredCluster) -> None: ...

    async def update(self, cluster: RegisteredCluster) -> None: ...

    async def remove(self, cluster_id: str) -> None: ...

    async def list(self) -> list[RegisteredCluster]: ...

    async def has_workloads(self, cluster_id: str) -> bool:
        """Whether anything is still placed on, or running in, the cluster."""
        ...


_PROMETHEUS_URL = re.compile(r"^https?://[A-Za-z0-9.\-\[\]:]+(/[^\s?#@]*)?$")


def _check_policy(policy: str) -> DomainError | None:
    if policy not in PLACEMENT_POLICIES:
        return InvalidValueError("placementPolicy", f"placement policy must be one of {', '.join(PLACEMENT_POLICIES)}")
    return None


async def cluster_register(
    records: ClusterRecords,
    secrets: ClusterSecrets,
    clock: Clock,
    actor: Actor,
    *,
    cluster_id: str,
    name: str,
    placement_policy: str,
    kubeconfig: str,
    callback_public_key: str,
) -> RegisteredCluster:
    access.require_super_admin(actor)
    errors: list[DomainError] = []
    cid = cluster_id.strip()
    display = name.strip()
    if not _CLUSTER_ID.match(cid):
        errors.append(InvalidValueError("id", "a cluster id is a DNS label: a-z, 0-9 and '-', at most 63"))
    if not display or len(display) > 100:
        errors.append(InvalidValueError("name", "a name has 1 to 100 characters"))
    problem = _check_policy(placement_policy)
    if problem is not None:
        errors.append(problem)
    why = secrets.kubeconfig_problem(kubeconfig)
    if why is not None:
        errors.append(InvalidValueError("kubeconfig", why))
    why = secrets.callback_key_problem(callback_public_key)
    if why is not None:
        errors.append(InvalidValueError("callbackPublicKey", why))
    if not errors:
        if await records.get(cid) is not None:
            errors.append(DuplicateError("id", f"a cluster with id {cid!r} is already registered"))
        if await records.name_taken(display):
            errors.append(DuplicateError("name", f"a cluster named {display!r} is already registered"))
    if errors:
        raise errors[0] if len(errors) == 1 else ValidationErrors(errors)
    cluster = RegisteredCluster(
        id=cid,
        name=display,
        kind=KIND_KUBERNETES,
        placement_policy=placement_policy,
        kubeconfig_encrypted=secrets.encrypt(kubeconfig),
        callback_public_key=callback_public_key.strip() + "\n",
        created_at=clock.now(),
    )
    await records.add(cluster)
    return cluster


async def cluster_placement_policy_update(
    records: ClusterRecords, actor: Actor, *, cluster_id: str, placement_policy: str
) -> RegisteredCluster:
    access.require_super_admin(actor)
    problem = _check_policy(placement_policy)
    if problem is not None:
        raise problem
    cluster = await records.get(cluster_id, for_update=True)
    if cluster is None:
        raise NotFoundError("cluster", "clusterId")
    updated = replace(cluster, placement_policy=placement_policy)
    await records.update(updated)
    return updated


async def cluster_usage_source_set(
    records: ClusterRecords,
    secrets: ClusterSecrets,
    actor: Actor,
    *,
    cluster_id: str,
    prometheus_url: str | None,
    bearer_token: str | None = None,
) -> RegisteredCluster:
    """Point a cluster's live usage at its Prometheus (None: back to the node agents only). The
    bearer token is sealed like the kubeconfig and never shown again; leaving it out keeps none."""
    access.require_super_admin(actor)
    url = (prometheus_url or "").strip() or None
    if url is not None and (not _PROMETHEUS_URL.match(url) or len(url) > 2000):
        raise InvalidValueError(
            "prometheusUrl", "a Prometheus URL is http(s)://host[:port][/path], without credentials"
        )
    token = (bearer_token or "").strip() or None
    if token is not None and (len(token) > 8192 or any(ch.isspace() for ch in token)):
        raise InvalidValueError("prometheusBearerToken", "a bearer token is one word of at most 8192 characters")
    cluster = await records.get(cluster_id, for_update=True)
    if cluster is None or cluster.kind != KIND_KUBERNETES:
        raise NotFoundError("cluster", "clusterId")
    updated = replace(
        cluster,
        prometheus_url=url,
        prometheus_token_encrypted=secrets.encrypt(token) if url is not None and token is not None else None,
    )
    await records.update(updated)
    return updated


async def cluster_deregister(records: ClusterRecords, actor: Actor, *, cluster_id: str) -> RegisteredCluster:
    """Forget a cluster. Refused while sessions are placed on it (pause or stop them first):
    their capacity and billing must not lose the cluster they run on."""
    access.require_super_admin(actor)
    cluster = await records.get(cluster_id, for_update=True)
    if cluster is None or cluster.kind != KIND_KUBERNETES:
        raise NotFoundError("cluster", "clusterId")
    if await records.has_workloads(cluster_id):
        raise DomainError(
            CommonErrorCode.CONFLICT,
            f"cluster {cluster_id!r} still has sessions placed on it; pause or stop them first",
            "clusterId",
        )
    await records.remove(cluster_id)
    return cluster


async def clusters_list(records: ClusterRecords, actor: Actor) -> list[RegisteredCluster]:
    access.require_super_admin(actor)
    return await records.list()

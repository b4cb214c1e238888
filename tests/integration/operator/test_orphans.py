"""Orphans (issue 14, Build: "Pods that the control plane no longer knows are removed by the
operator"): a session pod, service, ingress or secret the operator labelled for a session whose
GShareSession no longer exists (its owner reference stripped: deleted with
propagationPolicy=Orphan while the operator was down, or left by an older operator) is deleted
on the operator's start and by its periodic pass; the children of a live session are kept."""

from __future__ import annotations

import copy

from kubernetes_asyncio import client

from tests.integration.operator.conftest import NS, OperatorFactory, Receiver, eventually
from tests.integration.operator.test_operator import GPU_REQUESTS, apply_session, session
from tests.k8s.apiserver import KubeApiServer
from tests.k8s.kubelet import Kubelet

CHILDREN = (("pods", "{}"), ("services", "{}"), ("ingresses", "{}"), ("secrets", "{}-access"))


def _orphan_copies(cluster: KubeApiServer, live: str, gone: str) -> None:
    """The live session's children, copied under another session's name, with no owner."""
    for plural, pattern in CHILDREN:
        obj = copy.deepcopy(cluster.get(plural, pattern.format(live), NS))
        assert obj is not None, plural
        meta = obj["metadata"]
        for key in ("uid", "resourceVersion", "creationTimestamp", "ownerReferences", "managedFields"):
            meta.pop(key, None)
        meta["name"] = pattern.format(gone)
        meta["labels"] = {k: (gone if v == live else v) for k, v in (meta.get("labels") or {}).items()}
        obj.pop("status", None)
        cluster.seed(obj)


async def test_children_of_a_session_that_no_longer_exists_are_deleted(
    cluster: KubeApiServer,
    kube_client: client.ApiClient,
    operators: OperatorFactory,
    kubelet: Kubelet,
    receiver: Receiver,
) -> None:
    first = await operators.start("op-orphans-1")
    await apply_session(kube_client, session("s-live", GPU_REQUESTS["hami"]))
    await eventually(lambda: "Running" in receiver.phases("s-live"))
    await first.controller.wait_idle()
    await operators.stop(first)

    # while no operator runs: children left for a session that is gone
    _orphan_copies(cluster, "s-live", "s-gone")
    assert cluster.get("pods", "s-gone", NS) is not None

    second = await operators.start("op-orphans-2", resync=1.0)
    for plural, pattern in CHILDREN:
        await eventually(lambda p=plural, n=pattern.format("s-gone"): cluster.get(p, n, NS) is None, within=10)
    for plural, pattern in CHILDREN:  # the live session's are untouched
        assert cluster.get(plural, pattern.format("s-live"), NS) is not None, plural

    # and later, without any event naming it: the periodic pass finds the next one
    await second.controller.wait_idle()
    _orphan_copies(cluster, "s-live", "s-gone-later")
    await eventually(lambda: cluster.get("pods", "s-gone-later", NS) is None, within=10)
    assert cluster.get("pods", "s-live", NS) is not None
    assert receiver.phases("s-live")[-1] == "Running"

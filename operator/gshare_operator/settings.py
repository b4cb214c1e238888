"""Operator settings from command-line arguments, falling back to environment variables."""

from __future__ import annotations

import argparse
import os
import socket
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class OperatorSettings:
    cluster_id: str
    namespace: str = "gshare-sessions"
    kubeconfig: str | None = None
    in_cluster: bool = False
    callback_url: str | None = None
    private_key_path: str | None = None
    lease_namespace: str = "gshare-system"
    lease_name: str = "gshare-operator"
    identity: str = ""
    leader_election: bool = True
    lease_duration: float = 15.0
    renew_deadline: float = 10.0
    retry_period: float = 2.0
    ingress_domain: str | None = None
    ingress_class: str | None = None
    ingress_tls_secret: str | None = None
    inventory_interval: float = 300.0
    node_selector: str | None = None
    resync: float = 300.0
    workers: int = 4
    pod_grace_seconds: int = 10
    node_lost_after: float = 60.0
    log_level: str = "INFO"
    # HAMi's and the device plugins' names on this cluster (HAMi chart `schedulerName`,
    # `resourceName`, `resourceMem`, `resourceCores`; the time-sliced resource is
    # `nvidia.com/gpu.shared` with renameByDefault, `nvidia.com/gpu` without)
    hami_scheduler_name: str = "hami-scheduler"
    hami_gpu_resource: str = "nvidia.com/gpu"
    hami_memory_resource: str = "nvidia.com/gpumem"
    hami_cores_resource: str = "nvidia.com/gpucores"
    timeslice_resource: str = "nvidia.com/gpu.shared"


ENV = {
    "cluster_id": "GSHARE_CLUSTER_ID",
    "namespace": "GSHARE_OPERATOR_NAMESPACE",
    "kubeconfig": "KUBECONFIG",
    "callback_url": "GSHARE_CALLBACK_URL",
    "private_key_path": "GSHARE_CALLBACK_KEY_PATH",
    "lease_namespace": "GSHARE_OPERATOR_LEASE_NAMESPACE",
    "lease_name": "GSHARE_OPERATOR_LEASE_NAME",
    "identity": "POD_NAME",
    "ingress_domain": "GSHARE_INGRESS_DOMAIN",
    "ingress_class": "GSHARE_INGRESS_CLASS",
    "ingress_tls_secret": "GSHARE_INGRESS_TLS_SECRET",
    "inventory_interval": "GSHARE_INVENTORY_INTERVAL",
    "node_selector": "GSHARE_INVENTORY_NODE_SELECTOR",
    "resync": "GSHARE_OPERATOR_RESYNC",
    "workers": "GSHARE_OPERATOR_WORKERS",
    "node_lost_after": "GSHARE_NODE_LOST_AFTER",
    "log_level": "GSHARE_LOG_LEVEL",
    "hami_scheduler_name": "GSHARE_HAMI_SCHEDULER_NAME",
    "hami_gpu_resource": "GSHARE_HAMI_GPU_RESOURCE",
    "hami_memory_resource": "GSHARE_HAMI_MEMORY_RESOURCE",
    "hami_cores_resource": "GSHARE_HAMI_CORES_RESOURCE",
    "timeslice_resource": "GSHARE_TIMESLICE_RESOURCE",
}


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="gshare operator",
        description="Reconcile GShareSessions into pods and report to the gshare control plane.",
    )
    p.add_argument("--cluster-id", help=f"this cluster's id (${ENV['cluster_id']})")
    p.add_argument("--namespace", help="namespace of sessions (default gshare-sessions)")
    p.add_argument("--kubeconfig", help="kubeconfig file (default: in-cluster config)")
    p.add_argument("--in-cluster", action="store_true", help="use the pod's service account")
    p.add_argument("--callback-url", help="control plane callback base URL")
    p.add_argument("--private-key", dest="private_key_path", help="PEM key signing callbacks")
    p.add_argument("--lease-namespace")
    p.add_argument("--lease-name")
    p.add_argument("--identity", help="leader-election identity (default: pod name)")
    p.add_argument("--no-leader-election", dest="leader_election", action="store_false", default=None)
    p.add_argument("--ingress-domain")
    p.add_argument("--ingress-class")
    p.add_argument("--ingress-tls-secret")
    p.add_argument("--inventory-interval", type=float)
    p.add_argument("--node-selector", help="label selector of nodes in the inventory")
    p.add_argument("--resync", type=float)
    p.add_argument("--workers", type=int)
    p.add_argument("--node-lost-after", type=float, help="seconds a node may be NotReady before its sessions fail")
    p.add_argument("--log-level")
    p.add_argument("--hami-scheduler-name", help="HAMi's scheduler (default hami-scheduler)")
    p.add_argument("--hami-gpu-resource", help="HAMi's card resource (default nvidia.com/gpu)")
    p.add_argument("--hami-memory-resource", help="HAMi's memory resource (default nvidia.com/gpumem)")
    p.add_argument("--hami-cores-resource", help="HAMi's cores resource (default nvidia.com/gpucores)")
    p.add_argument("--timeslice-resource", help="the time-sliced resource (default nvidia.com/gpu.shared)")
    return p


def load_settings(argv: Sequence[str] | None = None, environ: Mapping[str, str] | None = None) -> OperatorSettings:
    env = os.environ if environ is None else environ
    args = vars(parser().parse_args(list(argv) if argv is not None else None))
    values: dict[str, object] = {}
    for field, name in ENV.items():
        value = args.get(field)
        if value is None and env.get(name):
            value = env[name]
        if value is not None:
            values[field] = value
    for numeric in ("inventory_interval", "resync", "node_lost_after"):
        if numeric in values:
            values[numeric] = float(str(values[numeric]))
    if "workers" in values:
        values["workers"] = int(str(values["workers"]))
    if args.get("leader_election") is not None:
        values["leader_election"] = args["leader_election"]
    if not values.get("cluster_id"):
        raise SystemExit(f"gshare operator: --cluster-id or {ENV['cluster_id']} is required")
    if values.get("callback_url") and not values.get("private_key_path"):
        raise SystemExit("gshare operator: a callback URL needs --private-key")
    in_cluster = bool(args.get("in_cluster")) or (
        not values.get("kubeconfig") and bool(env.get("KUBERNETES_SERVICE_HOST"))
    )
    values["in_cluster"] = in_cluster
    if in_cluster:
        values.pop("kubeconfig", None)
    if not values.get("identity"):
        values["identity"] = f"{socket.gethostname()}-{uuid.uuid4().hex[:6]}"
    return OperatorSettings(**values)  # type: ignore[arg-type]

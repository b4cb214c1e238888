"""Operator settings from command-line arguments, falling back to environment variables."""

from __future__ import annotations

import argparse
import os
import socket
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import Field, dataclass, field, fields
from typing import Any


def _opt(default: Any, description: str, *, env: str | None = None, flag: str | None = None) -> Any:
    """A setting with its environment variable, its command-line option and what it means (the
    operator keeps its own settings: it runs on the clusters and must not import infra;
    `python -m cli.settings_docs` documents these too)."""
    return field(default=default, metadata={"env": env, "flag": flag, "description": description})


@dataclass(frozen=True)
class OperatorSettings:
    cluster_id: str = _opt(
        "",
        "this cluster's id, as registered in the control plane (required)",
        env="GSHARE_CLUSTER_ID",
        flag="--cluster-id",
    )
    namespace: str = _opt(
        "gshare-sessions",
        "namespace of the session resources and pods",
        env="GSHARE_OPERATOR_NAMESPACE",
        flag="--namespace",
    )
    kubeconfig: str | None = _opt(
        None,
        "kubeconfig file (default: in-cluster when `KUBERNETES_SERVICE_HOST` is set)",
        env="KUBECONFIG",
        flag="--kubeconfig",
    )
    in_cluster: bool = _opt(False, "use the pod's service account", flag="--in-cluster")
    callback_url: str | None = _opt(
        None,
        "the control plane's callback base URL (unset: nothing is reported)",
        env="GSHARE_CALLBACK_URL",
        flag="--callback-url",
    )
    private_key_path: str | None = _opt(
        None,
        "PEM key signing callbacks (required with a callback URL)",
        env="GSHARE_CALLBACK_KEY_PATH",
        flag="--private-key",
    )
    lease_namespace: str = _opt(
        "gshare-system",
        "namespace of the leader-election Lease",
        env="GSHARE_OPERATOR_LEASE_NAMESPACE",
        flag="--lease-namespace",
    )
    lease_name: str = _opt(
        "gshare-operator",
        "name of the leader-election Lease",
        env="GSHARE_OPERATOR_LEASE_NAME",
        flag="--lease-name",
    )
    identity: str = _opt(
        "",
        "leader-election identity (default: the pod name, else hostname + random suffix)",
        env="POD_NAME",
        flag="--identity",
    )
    leader_election: bool = _opt(True, "run without electing a leader among replicas", flag="--no-leader-election")
    lease_duration: float = 15.0
    renew_deadline: float = 10.0
    retry_period: float = 2.0
    ingress_domain: str | None = _opt(
        None,
        "domain of session ingresses (no ingress without it)",
        env="GSHARE_INGRESS_DOMAIN",
        flag="--ingress-domain",
    )
    ingress_class: str | None = _opt(
        None, "ingress class of session ingresses", env="GSHARE_INGRESS_CLASS", flag="--ingress-class"
    )
    ingress_tls_secret: str | None = _opt(
        None, "TLS secret of session ingresses", env="GSHARE_INGRESS_TLS_SECRET", flag="--ingress-tls-secret"
    )
    inventory_interval: float = _opt(
        300.0,
        "seconds between full inventory reports (changes are sent at once)",
        env="GSHARE_INVENTORY_INTERVAL",
        flag="--inventory-interval",
    )
    node_selector: str | None = _opt(
        None,
        "label selector of the nodes in the inventory (default: all)",
        env="GSHARE_INVENTORY_NODE_SELECTOR",
        flag="--node-selector",
    )
    resync: float = _opt(300.0, "seconds between full reconciles", env="GSHARE_OPERATOR_RESYNC", flag="--resync")
    workers: int = _opt(4, "sessions reconciled at once", env="GSHARE_OPERATOR_WORKERS", flag="--workers")
    pod_grace_seconds: int = 10
    node_lost_after: float = _opt(
        60.0,
        "seconds a node may be gone or NotReady before its sessions fail",
        env="GSHARE_NODE_LOST_AFTER",
        flag="--node-lost-after",
    )
    log_level: str = _opt("INFO", "log level", env="GSHARE_LOG_LEVEL", flag="--log-level")
    # HAMi's and the device plugins' names on this cluster (HAMi chart `schedulerName`,
    # `resourceName`, `resourceMem`, `resourceCores`; the time-sliced resource is
    # `nvidia.com/gpu.shared` with renameByDefault, `nvidia.com/gpu` without)
    hami_scheduler_name: str = _opt(
        "hami-scheduler", "HAMi's scheduler name", env="GSHARE_HAMI_SCHEDULER_NAME", flag="--hami-scheduler-name"
    )
    hami_gpu_resource: str = _opt(
        "nvidia.com/gpu", "HAMi's card resource", env="GSHARE_HAMI_GPU_RESOURCE", flag="--hami-gpu-resource"
    )
    hami_memory_resource: str = _opt(
        "nvidia.com/gpumem",
        "HAMi's memory resource",
        env="GSHARE_HAMI_MEMORY_RESOURCE",
        flag="--hami-memory-resource",
    )
    hami_cores_resource: str = _opt(
        "nvidia.com/gpucores",
        "HAMi's cores resource",
        env="GSHARE_HAMI_CORES_RESOURCE",
        flag="--hami-cores-resource",
    )
    timeslice_resource: str = _opt(
        "nvidia.com/gpu.shared",
        "the time-sliced GPU resource",
        env="GSHARE_TIMESLICE_RESOURCE",
        flag="--timeslice-resource",
    )
    # SSH from outside the cluster through the ingress controller's TCP services (ingress-nginx
    # `--tcp-services-configmap`): each session's SSH gets a port of the range in that ConfigMap
    ssh_host: str | None = _opt(
        None,
        "public address of the ingress controller's TCP ports (sessions' SSH URLs); unset = SSH stays in-cluster",
        env="GSHARE_SSH_HOST",
        flag="--ssh-host",
    )
    ssh_tcp_services: str = _opt(
        "gshare-system/tcp-services",
        "the ingress controller's TCP services ConfigMap (<namespace>/<name>) the SSH ports are written to",
        env="GSHARE_SSH_TCP_SERVICES",
        flag="--ssh-tcp-services",
    )
    ssh_ports: str = _opt(
        "30000-30999", "the ports SSH sessions are given (<first>-<last>)", env="GSHARE_SSH_PORTS", flag="--ssh-ports"
    )


ENV = {f.name: f.metadata["env"] for f in fields(OperatorSettings) if f.metadata.get("env")}


def documented() -> list[Field[Any]]:
    """The settings a person sets (the rest are internal timings)."""
    return [f for f in fields(OperatorSettings) if f.metadata.get("description")]


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="gshare operator",
        description="Reconcile GShareSessions into pods and report to the gshare control plane.",
    )
    meta = {f.name: f.metadata for f in fields(OperatorSettings)}

    def helptext(name: str) -> str:
        env = meta[name].get("env")
        return str(meta[name]["description"]) + (f" (${env})" if env else "")

    p.add_argument("--cluster-id", help=helptext("cluster_id"))
    p.add_argument("--namespace", help=helptext("namespace"))
    p.add_argument("--kubeconfig", help=helptext("kubeconfig"))
    p.add_argument("--in-cluster", action="store_true", help=helptext("in_cluster"))
    p.add_argument("--callback-url", help=helptext("callback_url"))
    p.add_argument("--private-key", dest="private_key_path", help=helptext("private_key_path"))
    p.add_argument("--lease-namespace", help=helptext("lease_namespace"))
    p.add_argument("--lease-name", help=helptext("lease_name"))
    p.add_argument("--identity", help=helptext("identity"))
    p.add_argument(
        "--no-leader-election",
        dest="leader_election",
        action="store_false",
        default=None,
        help=helptext("leader_election"),
    )
    p.add_argument("--ingress-domain", help=helptext("ingress_domain"))
    p.add_argument("--ingress-class", help=helptext("ingress_class"))
    p.add_argument("--ingress-tls-secret", help=helptext("ingress_tls_secret"))
    p.add_argument("--inventory-interval", type=float, help=helptext("inventory_interval"))
    p.add_argument("--node-selector", help=helptext("node_selector"))
    p.add_argument("--resync", type=float, help=helptext("resync"))
    p.add_argument("--workers", type=int, help=helptext("workers"))
    p.add_argument("--node-lost-after", type=float, help=helptext("node_lost_after"))
    p.add_argument("--log-level", help=helptext("log_level"))
    p.add_argument("--hami-scheduler-name", help=helptext("hami_scheduler_name"))
    p.add_argument("--hami-gpu-resource", help=helptext("hami_gpu_resource"))
    p.add_argument("--hami-memory-resource", help=helptext("hami_memory_resource"))
    p.add_argument("--hami-cores-resource", help=helptext("hami_cores_resource"))
    p.add_argument("--timeslice-resource", help=helptext("timeslice_resource"))
    p.add_argument("--ssh-host", help=helptext("ssh_host"))
    p.add_argument("--ssh-tcp-services", help=helptext("ssh_tcp_services"))
    p.add_argument("--ssh-ports", help=helptext("ssh_ports"))
    return p


def load_settings(argv: Sequence[str] | None = None, environ: Mapping[str, str] | None = None) -> OperatorSettings:
    env = os.environ if environ is None else environ
    args = vars(parser().parse_args(list(argv) if argv is not None else None))
    values: dict[str, object] = {}
    for key, name in ENV.items():
        value = args.get(key)
        if value is None and env.get(name):
            value = env[name]
        if value is not None:
            values[key] = value
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

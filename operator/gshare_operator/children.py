"""The desired children of a GShareSession, as plain manifests (pure functions, no I/O).

Names are deterministic, so a retried reconcile finds what an earlier attempt created:
pod, service and ingress are named like the session resource, the secret `<name>-access`.
Every child carries an owner reference to the session (Kubernetes garbage-collects it if the
operator never gets to), the session labels, and a hash of its desired form
(`gshare.io/spec-hash`) so that an unchanged child is recognised without comparing against
the defaults the API server fills in.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import secrets
from dataclasses import dataclass
from typing import Any

from domain.sessions.environment import reserved_reason
from gshare_operator.constants import (
    ANNOTATION_GENERATION,
    ANNOTATION_SPEC_HASH,
    API_VERSION,
    HOSTNAME_LABEL,
    KIND,
    LABEL_COMPONENT,
    LABEL_MANAGED_BY,
    LABEL_SESSION,
    LABEL_SESSION_ID,
    MANAGED_BY,
    WEB_ENDPOINTS,
)
from gshare_operator.gpu import DEFAULT_NAMES, GpuPlacement, GpuResourceNames, gpu_placement

JSON = dict[str, Any]
ACCESS_MOUNT = "/var/run/gshare/access"
SHM_PATH = "/dev/shm"  # noqa: S108 - a path inside the session container
CONTAINER_NAME = "session"
_NAME = re.compile(r"^[a-z]([-a-z0-9]*[a-z0-9])?$")
MAX_NAME_LENGTH = 52  # "jupyterlab-<name>" must stay a DNS label (63)
_LABEL_VALUE = re.compile(r"[^A-Za-z0-9._-]")


class InvalidSession(ValueError):
    """The session's spec cannot be realised; retrying will not help (a permanent error)."""


@dataclass(frozen=True)
class ChildSettings:
    namespace: str = "gshare-sessions"
    ingress_domain: str | None = None
    ingress_class: str | None = None
    ingress_tls_secret: str | None = None
    default_uid: int = 1000
    gpu_names: GpuResourceNames = DEFAULT_NAMES


def secret_name(name: str) -> str:
    return f"{name}-access"


def check_name(name: str) -> None:
    if not _NAME.match(name) or len(name) > MAX_NAME_LENGTH:
        raise InvalidSession(
            f"session resource name {name!r} must be a DNS-1035 label of at most {MAX_NAME_LENGTH} characters"
        )


def labels_for(cr: JSON, component: str) -> dict[str, str]:
    session_id = _LABEL_VALUE.sub("-", str(cr["spec"].get("sessionId", "")))[:63].strip("-._")
    return {
        LABEL_MANAGED_BY: MANAGED_BY,
        LABEL_COMPONENT: component,
        LABEL_SESSION: cr["metadata"]["name"],
        LABEL_SESSION_ID: session_id,
    }


def owner_reference(cr: JSON) -> JSON:
    return {
        "apiVersion": API_VERSION,
        "kind": KIND,
        "name": cr["metadata"]["name"],
        "uid": cr["metadata"]["uid"],
        "controller": True,
        "blockOwnerDeletion": True,
    }


def spec_hash(manifest: JSON) -> str:
    canonical = json.dumps(manifest, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]


def _with_hash(manifest: JSON) -> JSON:
    manifest["metadata"].setdefault("annotations", {})[ANNOTATION_SPEC_HASH] = spec_hash(manifest)
    return manifest


def endpoints(cr: JSON) -> list[JSON]:
    result = []
    seen = set()
    for endpoint in cr["spec"].get("endpoints") or []:
        name, port = endpoint.get("name"), endpoint.get("port")
        if name in seen:
            raise InvalidSession(f"endpoint {name!r} is listed twice")
        if not isinstance(port, int) or not 1 <= port <= 65535:
            raise InvalidSession(f"endpoint {name!r} needs a port between 1 and 65535")
        seen.add(name)
        result.append({"name": name, "port": port})
    return result


def web_endpoints(cr: JSON) -> list[JSON]:
    return [e for e in endpoints(cr) if e["name"] in WEB_ENDPOINTS]


def endpoint_host(endpoint: str, name: str, domain: str) -> str:
    return f"{endpoint}-{name}.{domain}"


def endpoint_urls(cr: JSON, settings: ChildSettings) -> list[JSON]:
    name = cr["metadata"]["name"]
    scheme = "https" if settings.ingress_tls_secret else "http"
    urls = []
    for endpoint in endpoints(cr):
        if endpoint["name"] in WEB_ENDPOINTS and settings.ingress_domain:
            host = endpoint_host(endpoint["name"], name, settings.ingress_domain)
            url = f"{scheme}://{host}/"
        elif endpoint["name"] == "ssh":
            url = f"ssh://{name}.{settings.namespace}.svc:{endpoint['port']}"
        else:
            url = f"http://{name}.{settings.namespace}.svc:{endpoint['port']}/"
        urls.append({"name": endpoint["name"], "url": url})
    return urls


def desired_secret(cr: JSON, settings: ChildSettings, token: str | None = None) -> JSON:
    """The access secret. The token is generated once; later reconciles keep the stored one."""
    spec = cr["spec"]
    data: dict[str, str] = {"token": token or secrets.token_urlsafe(32)}
    keys = spec.get("sshAuthorizedKeys") or []
    if keys:
        data["authorized_keys"] = "\n".join(keys) + "\n"
    return {
        "apiVersion": "v1",
        "kind": "Secret",
        "metadata": {
            "name": secret_name(cr["metadata"]["name"]),
            "namespace": settings.namespace,
            "labels": labels_for(cr, "access"),
            "ownerReferences": [owner_reference(cr)],
        },
        "type": "Opaque",
        "data": {k: base64.b64encode(v.encode()).decode() for k, v in data.items()},
    }


def desired_service(cr: JSON, settings: ChildSettings) -> JSON | None:
    ports = [{"name": e["name"], "port": e["port"], "targetPort": e["port"], "protocol": "TCP"} for e in endpoints(cr)]
    if not ports:
        return None
    name = cr["metadata"]["name"]
    return _with_hash(
        {
            "apiVersion": "v1",
            "kind": "Service",
            "metadata": {
                "name": name,
                "namespace": settings.namespace,
                "labels": labels_for(cr, "service"),
                "ownerReferences": [owner_reference(cr)],
            },
            "spec": {
                "type": "ClusterIP",
                "selector": {LABEL_SESSION: name, LABEL_COMPONENT: "session"},
                "ports": ports,
            },
        }
    )


def desired_ingress(cr: JSON, settings: ChildSettings) -> JSON | None:
    web = web_endpoints(cr)
    if not web or not settings.ingress_domain:
        return None
    name = cr["metadata"]["name"]
    hosts = [endpoint_host(e["name"], name, settings.ingress_domain) for e in web]
    spec: JSON = {
        "rules": [
            {
                "host": host,
                "http": {
                    "paths": [
                        {
                            "path": "/",
                            "pathType": "Prefix",
                            "backend": {"service": {"name": name, "port": {"name": e["name"]}}},
                        }
                    ]
                },
            }
            for host, e in zip(hosts, web, strict=True)
        ]
    }
    if settings.ingress_class:
        spec["ingressClassName"] = settings.ingress_class
    if settings.ingress_tls_secret:
        spec["tls"] = [{"hosts": hosts, "secretName": settings.ingress_tls_secret}]
    return _with_hash(
        {
            "apiVersion": "networking.k8s.io/v1",
            "kind": "Ingress",
            "metadata": {
                "name": name,
                "namespace": settings.namespace,
                "labels": labels_for(cr, "ingress"),
                "ownerReferences": [owner_reference(cr)],
            },
            "spec": spec,
        }
    )


def is_job(cr: JSON) -> bool:
    return isinstance(cr["spec"].get("job"), dict)


def backoff_limit(cr: JSON) -> int:
    return int((cr["spec"].get("job") or {}).get("backoffLimit") or 0)


def _quantity(value: Any, field: str) -> str:
    if isinstance(value, bool) or value in (None, ""):
        raise InvalidSession(f"resources.{field} is required")
    return str(value)


def desired_pod(cr: JSON, settings: ChildSettings) -> JSON:
    spec = cr["spec"]
    name = cr["metadata"]["name"]
    check_name(name)
    try:
        gpu: GpuPlacement = gpu_placement(spec.get("gpu"), settings.gpu_names)
    except ValueError as exc:
        raise InvalidSession(str(exc)) from exc
    resources = spec.get("resources") or {}
    cpu, memory = _quantity(resources.get("cpu"), "cpu"), _quantity(resources.get("memory"), "memory")
    requests = {"cpu": cpu, "memory": memory}
    limits = {"cpu": cpu, "memory": memory, **gpu.limits}
    if resources.get("ephemeralStorage"):
        requests["ephemeral-storage"] = limits["ephemeral-storage"] = str(resources["ephemeralStorage"])
    uid = int(spec.get("runAsUser") or settings.default_uid)
    if uid < 1:
        raise InvalidSession("runAsUser must not be root")

    env: list[JSON] = [{"name": "GSHARE_SESSION_ID", "value": str(spec.get("sessionId", ""))}]
    env += [
        {"name": e["name"], "value": str(e.get("value", ""))}
        for e in spec.get("env") or []
        if reserved_reason(e["name"]) is None
    ]
    env.append(
        {
            "name": "GSHARE_ACCESS_TOKEN",
            "valueFrom": {"secretKeyRef": {"name": secret_name(name), "key": "token"}},
        }
    )
    volumes: list[JSON] = [{"name": "access", "secret": {"secretName": secret_name(name), "defaultMode": 0o440}}]
    mounts: list[JSON] = [{"name": "access", "mountPath": ACCESS_MOUNT, "readOnly": True}]
    if resources.get("shm"):
        volumes.append({"name": "shm", "emptyDir": {"medium": "Memory", "sizeLimit": str(resources["shm"])}})
        mounts.append({"name": "shm", "mountPath": SHM_PATH})
    seen_paths = {ACCESS_MOUNT, SHM_PATH}
    for volume in spec.get("volumes") or []:
        if volume["mountPath"] in seen_paths:
            raise InvalidSession(f"volume {volume['name']!r}: mount path is already used")
        seen_paths.add(volume["mountPath"])
        read_only = bool(volume.get("readOnly", False))
        volumes.append(
            {
                "name": f"vol-{volume['name']}"[:63],
                "persistentVolumeClaim": {"claimName": volume["claimName"], "readOnly": read_only},
            }
        )
        mount = {"name": f"vol-{volume['name']}"[:63], "mountPath": volume["mountPath"], "readOnly": read_only}
        if volume.get("subPath"):
            mount["subPath"] = volume["subPath"]
        mounts.append(mount)

    ports = [{"name": e["name"], "containerPort": e["port"], "protocol": "TCP"} for e in endpoints(cr)]
    container: JSON = {
        "name": CONTAINER_NAME,
        "image": spec["image"],
        "imagePullPolicy": spec.get("imagePullPolicy") or "IfNotPresent",
        "env": env,
        "resources": {"requests": requests, "limits": limits},
        "volumeMounts": mounts,
        "securityContext": {
            "allowPrivilegeEscalation": False,
            "privileged": False,
            "runAsNonRoot": True,
            "capabilities": {"drop": ["ALL"]},
            "seccompProfile": {"type": "RuntimeDefault"},
        },
    }
    if spec.get("command"):
        container["command"] = list(spec["command"])
    if spec.get("args"):
        container["args"] = list(spec["args"])
    if ports:
        container["ports"] = ports
        container["readinessProbe"] = {
            "tcpSocket": {"port": ports[0]["containerPort"]},
            "periodSeconds": 5,
        }
    pod_spec: JSON = {
        # a batch job runs once to completion; the reconciler retries it up to its back-off limit
        "restartPolicy": "Never" if is_job(cr) else "Always",
        "automountServiceAccountToken": False,
        "enableServiceLinks": False,
        "securityContext": {
            "runAsNonRoot": True,
            "runAsUser": uid,
            "runAsGroup": uid,
            "fsGroup": uid,
            "seccompProfile": {"type": "RuntimeDefault"},
        },
        "containers": [container],
        "volumes": volumes,
    }
    if gpu.node_selector:
        pod_spec["nodeSelector"] = dict(gpu.node_selector)
        pod_spec["tolerations"] = list(gpu.tolerations)
    elif spec.get("node"):
        # a CPU-only session placed by the control plane: its CPU and memory were counted there
        pod_spec["nodeSelector"] = {HOSTNAME_LABEL: str(spec["node"])}
    if gpu.scheduler_name:
        pod_spec["schedulerName"] = gpu.scheduler_name
    if spec.get("imagePullSecrets"):
        # the image's registry credentials (Secrets the control plane writes)
        pod_spec["imagePullSecrets"] = [{"name": str(n)} for n in spec["imagePullSecrets"]]
    pod = _with_hash(
        {
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {
                "name": name,
                "namespace": settings.namespace,
                "labels": labels_for(cr, "session"),
                "annotations": dict(gpu.annotations),
                "ownerReferences": [owner_reference(cr)],
            },
            "spec": pod_spec,
        }
    )
    pod["metadata"]["annotations"][ANNOTATION_GENERATION] = str(cr["metadata"].get("generation", 1))
    return pod

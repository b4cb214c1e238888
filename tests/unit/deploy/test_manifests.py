"""The manifests in deploy/ are valid Kubernetes objects, and a GShareSession is valid per its CRD.

Kubernetes objects are checked with kubernetes-validate against the OpenAPI schemas of
Kubernetes 1.33 (strict: unknown fields are errors). The CRD's own openAPIV3Schema is turned
into JSON Schema (the `x-kubernetes-*` keys dropped, int-or-string spelt out) and used to
validate sample sessions with jsonschema.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import jsonschema
import kubernetes_validate
import pytest
import yaml

DEPLOY = Path(__file__).resolve().parents[3] / "deploy"
K8S_VERSION = "1.33.0"
CRD_PATH = DEPLOY / "crds" / "gshare.io_gsharesessions.yaml"


def manifest_files() -> list[Path]:
    return sorted(
        p
        for p in DEPLOY.rglob("*.yaml")
        if "helm" not in p.parts and p.name not in ("compose.yaml", "docker-compose.yaml")
    )


def documents() -> list[tuple[str, dict[str, Any]]]:
    docs = []
    for path in manifest_files():
        for index, doc in enumerate(yaml.safe_load_all(path.read_text())):
            if doc:
                docs.append((f"{path.relative_to(DEPLOY)}#{index}:{doc.get('kind')}", doc))
    return docs


def by_kind(kind: str) -> list[dict[str, Any]]:
    return [doc for _, doc in documents() if doc.get("kind") == kind]


def test_there_are_manifests() -> None:
    kinds = {doc["kind"] for _, doc in documents()}
    assert {
        "CustomResourceDefinition",
        "Namespace",
        "NetworkPolicy",
        "ServiceAccount",
        "Role",
        "RoleBinding",
        "ClusterRole",
        "ClusterRoleBinding",
        "Deployment",
        "ValidatingAdmissionPolicy",
        "ValidatingAdmissionPolicyBinding",
    } <= kinds


@pytest.mark.parametrize(("where", "doc"), documents(), ids=[w for w, _ in documents()])
def test_manifest_is_valid_for_kubernetes(where: str, doc: dict[str, Any]) -> None:
    kubernetes_validate.validate(doc, K8S_VERSION, strict=True)


def test_an_invalid_manifest_is_caught() -> None:
    broken = copy.deepcopy(by_kind("Deployment")[0])
    broken["spec"]["replicas"] = "two"
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(broken, K8S_VERSION, strict=True)


# --- the CRD's own schema ---------------------------------------------------------------------


def crd() -> dict[str, Any]:
    return yaml.safe_load(CRD_PATH.read_text())


def as_json_schema(schema: Any) -> Any:
    if isinstance(schema, dict):
        out = {k: as_json_schema(v) for k, v in schema.items() if not k.startswith("x-kubernetes-")}
        if schema.get("x-kubernetes-int-or-string"):
            out.pop("type", None)
            out.setdefault("anyOf", [{"type": "integer"}, {"type": "string"}])
        return out
    if isinstance(schema, list):
        return [as_json_schema(v) for v in schema]
    return schema


def session_schema() -> dict[str, Any]:
    version = next(v for v in crd()["spec"]["versions"] if v["storage"])
    return as_json_schema(version["schema"]["openAPIV3Schema"])


SAMPLE: dict[str, Any] = {
    "apiVersion": "gshare.io/v1alpha1",
    "kind": "GShareSession",
    "metadata": {"name": "s-3f2a", "namespace": "gshare-sessions"},
    "spec": {
        "sessionId": "3f2a7c1e-9d7e-4a0b-8c55-0c2b5a1d2e3f",
        "owner": {"userId": "u-1", "username": "alice", "organization": "acme", "group": "ml"},
        "image": "quay.io/jupyter/pytorch-notebook:cuda12-latest",
        "command": ["start-notebook.py"],
        "args": ["--ServerApp.token="],
        "env": [{"name": "TZ", "value": "Asia/Seoul"}],
        "runAsUser": 1000,
        "resources": {"cpu": 4, "memory": "16Gi", "shm": "2Gi"},
        "gpu": {
            "kind": "hami",
            "vramMiB": 20480,
            "cores": 25,
            "placement": {"node": "gpu-a100-1", "cardUuids": ["GPU-0f3a9c1e-1111"]},
        },
        "volumes": [
            {"name": "home", "claimName": "home-alice", "mountPath": "/home/jovyan"},
            {"name": "data", "claimName": "datasets", "mountPath": "/data", "readOnly": True},
        ],
        "endpoints": [
            {"name": "jupyterlab", "port": 8888},
            {"name": "vscode", "port": 8080},
            {"name": "terminal", "port": 7681},
            {"name": "ssh", "port": 2222},
        ],
        "sshAuthorizedKeys": ["ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAA alice@laptop"],
        "expiresAt": "2026-12-01T00:00:00Z",
    },
    "status": {
        "phase": "Running",
        "observedGeneration": 1,
        "node": "gpu-a100-1",
        "endpoints": [{"name": "jupyterlab", "url": "https://jupyterlab-s-3f2a.example.com/"}],
        "conditions": [
            {
                "type": "Ready",
                "status": "True",
                "reason": "PodReady",
                "message": "",
                "lastTransitionTime": "2026-11-29T12:00:00Z",
                "observedGeneration": 1,
            }
        ],
    },
}


def test_the_crd_is_a_valid_kubernetes_object() -> None:
    kubernetes_validate.validate(crd(), K8S_VERSION, strict=True)


def test_the_crd_schema_is_structural() -> None:
    """Every property has a type (or is int-or-string), as the API server requires."""

    def walk(node: dict[str, Any], where: str) -> None:
        if not node.get("x-kubernetes-int-or-string") and "type" not in node:
            raise AssertionError(f"{where} has no type")
        for name, child in (node.get("properties") or {}).items():
            walk(child, f"{where}.{name}")
        if "items" in node:
            walk(node["items"], f"{where}[]")

    version = next(v for v in crd()["spec"]["versions"] if v["storage"])
    walk(version["schema"]["openAPIV3Schema"], "")
    assert version["subresources"] == {"status": {}}
    columns = {c["name"] for c in version["additionalPrinterColumns"]}
    assert {"Phase", "Node", "GPU", "Age"} <= columns


def test_a_sample_session_validates_against_the_crd() -> None:
    jsonschema.validate(SAMPLE, session_schema())


@pytest.mark.parametrize(
    ("kind", "extra"),
    [
        ("timeslice", {}),
        ("mig", {"migProfile": "3g.40gb"}),
        ("exclusive", {"count": 4}),
    ],
)
def test_each_gpu_kind_validates(kind: str, extra: dict[str, Any]) -> None:
    sample = copy.deepcopy(SAMPLE)
    sample["spec"]["gpu"] = {"kind": kind, "placement": {"node": "n1"}, **extra}
    jsonschema.validate(sample, session_schema())


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("spec", "gpu", "kind"), "quantum"),
        (("spec", "gpu", "cores"), 101),
        (("spec", "gpu", "migProfile"), "big"),
        (("spec", "endpoints"), [{"name": "ftp", "port": 21}]),
        (("spec", "volumes"), [{"name": "v", "claimName": "c", "mountPath": "relative"}]),
        (("spec", "runAsUser"), 0),
        (("spec", "image"), ""),
        (("status", "phase"), "Exploded"),
    ],
)
def test_invalid_sessions_are_rejected(path: tuple[str, ...], value: Any) -> None:
    sample = copy.deepcopy(SAMPLE)
    target = sample
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(sample, session_schema())


def test_required_fields_are_required() -> None:
    for field in ("sessionId", "owner", "image", "resources"):
        sample = copy.deepcopy(SAMPLE)
        del sample["spec"][field]
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(sample, session_schema())


# --- guards -----------------------------------------------------------------------------------


def namespace(name: str) -> dict[str, Any]:
    return next(ns for ns in by_kind("Namespace") if ns["metadata"]["name"] == name)


def test_session_namespace_pod_security_levels() -> None:
    labels = namespace("gshare-sessions")["metadata"]["labels"]
    assert labels["pod-security.kubernetes.io/enforce"] == "baseline"
    assert labels["pod-security.kubernetes.io/audit"] == "restricted"
    assert labels["pod-security.kubernetes.io/warn"] == "restricted"
    assert {ns["metadata"]["name"] for ns in by_kind("Namespace")} == {
        "gshare-system",
        "gshare-sessions",
        "gshare-infra",
    }


def test_sessions_are_default_deny_with_only_ingress_controller_and_dns() -> None:
    policies = [p for p in by_kind("NetworkPolicy") if p["metadata"]["namespace"] == "gshare-sessions"]
    deny = [
        p
        for p in policies
        if p["spec"]["podSelector"] == {} and "ingress" not in p["spec"] and "egress" not in p["spec"]
    ]
    assert deny and set(deny[0]["spec"]["policyTypes"]) == {"Ingress", "Egress"}
    ingress_sources = [src for p in policies for rule in p["spec"].get("ingress") or [] for src in rule["from"]]
    assert ingress_sources and all(
        src["namespaceSelector"]["matchLabels"] == {"kubernetes.io/metadata.name": "gshare-system"}
        and "podSelector" in src
        for src in ingress_sources
    )
    egress_ports = {
        (port["protocol"], port["port"])
        for p in policies
        for rule in p["spec"].get("egress") or []
        for port in rule["ports"]
    }
    assert egress_ports == {("UDP", 53), ("TCP", 53)}


def test_only_the_operator_may_create_session_pods() -> None:
    policy = by_kind("ValidatingAdmissionPolicy")[0]
    binding = by_kind("ValidatingAdmissionPolicyBinding")[0]
    assert binding["spec"]["policyName"] == policy["metadata"]["name"]
    assert binding["spec"]["validationActions"] == ["Deny"]
    assert policy["spec"]["failurePolicy"] == "Fail"
    match = policy["spec"]["matchConstraints"]
    assert match["namespaceSelector"]["matchLabels"] == {"kubernetes.io/metadata.name": "gshare-sessions"}
    expression = policy["spec"]["validations"][0]["expression"]
    account = re.search(r"'(system:serviceaccount:[^']+)'", expression)
    assert account and account.group(1) == "system:serviceaccount:gshare-system:gshare-operator"
    sa = next(a for a in by_kind("ServiceAccount") if a["metadata"]["name"] == "gshare-operator")["metadata"]
    assert f"system:serviceaccount:{sa['namespace']}:{sa['name']}" == account.group(1)


def grants(rules: list[dict[str, Any]]) -> set[tuple[str, str, str]]:
    return {
        (group, resource, verb)
        for rule in rules
        for group in rule["apiGroups"]
        for resource in rule["resources"]
        for verb in rule["verbs"]
    }


def test_control_plane_cluster_access_covers_the_adapter() -> None:
    role = next(r for r in by_kind("Role") if r["metadata"]["name"] == "gshare-control-plane")
    granted = grants(role["rules"])
    for verb in ("get", "create", "patch", "delete"):
        assert ("gshare.io", "gsharesessions", verb) in granted
    assert ("", "pods", "list") in granted
    nodes = grants(
        next(r for r in by_kind("ClusterRole") if r["metadata"]["name"] == "gshare-control-plane-nodes")["rules"]
    )
    assert {("", "nodes", "list"), ("", "nodes", "patch"), ("", "nodes/status", "patch")} <= nodes


def test_operator_rbac_covers_what_it_does() -> None:
    role = next(r for r in by_kind("Role") if r["metadata"]["name"] == "gshare-operator")
    granted = {
        (group, resource, verb)
        for rule in role["rules"]
        for group in rule["apiGroups"]
        for resource in rule["resources"]
        for verb in rule["verbs"]
    }
    for resource, group in (("pods", ""), ("services", ""), ("secrets", ""), ("ingresses", "networking.k8s.io")):
        for verb in ("get", "list", "watch", "create", "patch", "delete"):
            assert (group, resource, verb) in granted
    for verb in ("get", "list", "watch", "patch"):
        assert ("gshare.io", "gsharesessions", verb) in granted
    assert ("gshare.io", "gsharesessions/status", "patch") in granted
    lease_role = next(r for r in by_kind("Role") if r["metadata"]["name"] == "gshare-operator-leader-election")
    assert set(lease_role["rules"][0]["verbs"]) >= {"get", "create", "update"}
    node_rules = next(r for r in by_kind("ClusterRole") if r["metadata"]["name"] == "gshare-operator-nodes")["rules"]
    assert node_rules == [{"apiGroups": [""], "resources": ["nodes"], "verbs": ["get", "list", "watch"]}]


def test_operator_deployment_is_restricted() -> None:
    deployment = next(d for d in by_kind("Deployment") if d["metadata"]["name"] == "gshare-operator")
    pod = deployment["spec"]["template"]["spec"]
    assert pod["serviceAccountName"] == "gshare-operator"
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["securityContext"]["seccompProfile"]["type"] == "RuntimeDefault"
    for container in pod["containers"]:
        sc = container["securityContext"]
        assert sc["allowPrivilegeEscalation"] is False
        assert sc["capabilities"]["drop"] == ["ALL"]

"""SSH and the web endpoints from outside the cluster, on the rendered objects (issue 16): the one
documented path is the ingress controller (web: each session's Ingress; SSH: a port of the
controller's TCP services, tests/integration/operator/test_ssh_from_outside.py). Here: the
chart's SSH values reach the operator and grant it that ConfigMap only; and the sessions'
NetworkPolicies, evaluated as Kubernetes does for a real session pod (children.desired_pod),
admit exactly the ingress controller's pods, on the session's SSH and web ports, and nothing
else, in the chart and in the plain manifests alike."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.unit.deploy.test_chart_render import DEPLOY, of_kind, render

OPERATOR_DIR = Path(__file__).resolve().parents[3] / "operator"
if str(OPERATOR_DIR) not in sys.path:
    sys.path.insert(0, str(OPERATOR_DIR))

from gshare_operator import children  # noqa: E402

SSH = {"enabled": True, "host": "ssh.gpu.example.org", "tcpServicesConfigMap": "tcp-services", "ports": "31000-31099"}


def _matches(selector: dict[str, Any] | None, labels: dict[str, str]) -> bool:
    """A LabelSelector (matchLabels and matchExpressions In/NotIn/Exists/DoesNotExist)."""
    if selector is None:
        return False
    for k, v in (selector.get("matchLabels") or {}).items():
        if labels.get(k) != v:
            return False
    for e in selector.get("matchExpressions") or []:
        key, op, values = e["key"], e["operator"], e.get("values") or []
        if (
            (op == "In" and labels.get(key) not in values)
            or (op == "NotIn" and labels.get(key) in values)
            or (op == "Exists" and key not in labels)
            or (op == "DoesNotExist" and key in labels)
        ):
            return False
    return True


def admitted(
    policies: list[dict[str, Any]],
    pod_ns: str,
    pod_labels: dict[str, str],
    port: int,
    peer_ns: str,
    peer: dict[str, str],
) -> bool:
    """Whether a pod (peer, in namespace peer_ns) may open `port` on the session pod: the
    NetworkPolicy semantics for ingress (isolated once any policy selects the pod for Ingress;
    then allowed if some rule of such a policy admits the peer and the port)."""
    selecting = [
        p
        for p in policies
        if p["metadata"]["namespace"] == pod_ns
        and _matches(p["spec"].get("podSelector", {}), pod_labels)
        and "Ingress" in (p["spec"].get("policyTypes") or ["Ingress"])
    ]
    if not selecting:
        return True
    peer_ns_labels = {"kubernetes.io/metadata.name": peer_ns}
    for p in selecting:
        for rule in p["spec"].get("ingress") or []:
            ports = rule.get("ports")
            if ports and not any(x.get("port") in (None, port) and x.get("protocol", "TCP") == "TCP" for x in ports):
                continue
            froms = rule.get("from")
            if not froms:
                return True
            for f in froms:
                ns_ok = (
                    _matches(f["namespaceSelector"], peer_ns_labels) if "namespaceSelector" in f else peer_ns == pod_ns
                )
                pod_ok = _matches(f["podSelector"], peer) if "podSelector" in f else True
                if "ipBlock" not in f and ns_ok and pod_ok:
                    return True
    return False


def _session_pod() -> dict[str, Any]:
    cr = {
        "apiVersion": "gshare.io/v1alpha1",
        "kind": "GShareSession",
        "metadata": {"name": "s-outside", "namespace": "gshare-sessions", "uid": "u-1", "generation": 1},
        "spec": {
            "sessionId": "outside",
            "image": "quay.io/jupyter/pytorch-notebook:cuda12-latest",
            "resources": {"cpu": "2", "memory": "4Gi"},
            "endpoints": [
                {"name": "ssh", "port": 22},
                {"name": "jupyterlab", "port": 8888},
                {"name": "vscode", "port": 8080},
            ],
        },
    }
    return children.desired_pod(cr, children.ChildSettings(ingress_domain="sessions.example.com"))


def _plain_policies() -> list[dict[str, Any]]:
    return [
        d
        for path in sorted(DEPLOY.rglob("*.yaml"))
        if "helm" not in path.parts
        for d in yaml.safe_load_all(path.read_text())
        if d and d.get("kind") == "NetworkPolicy"
    ]


@pytest.mark.parametrize("source", ["chart", "plain"])
def test_only_the_ingress_controller_reaches_a_sessions_ssh_and_web_ports(source: str) -> None:
    policies = of_kind(render({"sessions": {"ssh": SSH}}), "NetworkPolicy") if source == "chart" else _plain_policies()
    pod = _session_pod()
    labels, ns = pod["metadata"]["labels"], pod["metadata"]["namespace"]
    ports = [p["containerPort"] for p in pod["spec"]["containers"][0]["ports"]]
    assert sorted(ports) == [22, 8080, 8888]
    controller = {"app.kubernetes.io/name": "ingress-nginx", "app.kubernetes.io/component": "controller"}
    for port in ports:
        assert admitted(policies, ns, labels, port, "gshare-system", controller), port
        # nobody else: another pod of the controller's namespace, the controller's labels in
        # another namespace, another session pod, anything in kube-system
        assert not admitted(policies, ns, labels, port, "gshare-system", {"app.kubernetes.io/name": "gshare-api"})
        assert not admitted(policies, ns, labels, port, "default", controller)
        assert not admitted(policies, ns, labels, port, ns, labels)
        assert not admitted(policies, ns, labels, port, "kube-system", {"k8s-app": "kube-dns"})


def test_the_chart_hands_the_ssh_path_to_the_operator_and_grants_it_the_tcp_services_only() -> None:
    docs = render({"sessions": {"ssh": SSH}})
    (deployment,) = [d for d in of_kind(docs, "Deployment") if "operator" in d["metadata"]["name"]]
    (container,) = deployment["spec"]["template"]["spec"]["containers"]
    env = {e["name"]: e.get("value") for e in container["env"]}
    assert (env["GSHARE_SSH_HOST"], env["GSHARE_SSH_TCP_SERVICES"], env["GSHARE_SSH_PORTS"]) == (
        "ssh.gpu.example.org",
        "gshare-system/tcp-services",
        "31000-31099",
    )
    (role,) = [d for d in of_kind(docs, "Role") if d["metadata"]["name"] == "gshare-operator-ssh-ports"]
    assert role["metadata"]["namespace"] == "gshare-system"
    assert role["rules"] == [{"apiGroups": [""], "resources": ["configmaps"], "verbs": ["get", "create", "update"]}]
    (binding,) = [d for d in of_kind(docs, "RoleBinding") if d["metadata"]["name"] == "gshare-operator-ssh-ports"]
    assert binding["subjects"] == [{"kind": "ServiceAccount", "name": "gshare-operator", "namespace": "gshare-system"}]

    off = render()
    assert not [d for d in of_kind(off, "Role") if d["metadata"]["name"] == "gshare-operator-ssh-ports"]
    (deployment,) = [d for d in of_kind(off, "Deployment") if "operator" in d["metadata"]["name"]]
    assert not [e for e in deployment["spec"]["template"]["spec"]["containers"][0]["env"] if "SSH" in e["name"]]
    with pytest.raises(Exception, match="the public address of the ingress controller"):
        render({"sessions": {"ssh": {"enabled": True}}})

"""The Helm chart rendered for real (helm-python-sdk: Helm 4's engine in-process, no helm
binary, no cluster), every object it renders valid for Kubernetes 1.33 (kubernetes-validate,
strict), and the sessions namespace bounded: a ResourceQuota for the whole namespace and a
LimitRange for each container and claim, sized from values (issue 13, finding 9). The plain
manifests in deploy/ carry the same two objects with the chart's default sizes."""

from __future__ import annotations

import copy
import os
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml

DEPLOY = Path(__file__).resolve().parents[3] / "deploy"
CHART = DEPLOY / "helm" / "gshare"
K8S_VERSION = "1.33.0"


def render(values: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    try:
        from helm_python.chart import Chart
    except ImportError:
        if os.environ.get("CI") == "true":
            pytest.fail("helm-python-sdk is not installed (CI=true: the chart must be rendered)")
        pytest.skip("helm-python-sdk is not installed (pip install -e '.[dev]')")
    rendered = Chart.load(CHART).render(values or {}, name="gshare", namespace="gshare-system")
    return [
        doc
        for name, text in sorted(rendered.items())
        if name.endswith((".yaml", ".yml"))
        for doc in yaml.safe_load_all(text)
        if doc
    ]


def of_kind(docs: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [d for d in docs if d["kind"] == kind]


EVERYTHING_ON = {
    "agent": {"enabled": True},
    "controlPlane": {"tlsSecret": "tls"},
    "sessions": {"ingressTlsSecret": "t"},
}


@pytest.mark.parametrize("values", [{}, EVERYTHING_ON], ids=["defaults", "everything-on"])
def test_every_rendered_object_is_valid_for_kubernetes(values: dict[str, Any]) -> None:
    docs = render(values)
    assert {"Namespace", "Deployment", "NetworkPolicy", "ResourceQuota", "LimitRange"} <= {d["kind"] for d in docs}
    for doc in docs:
        kubernetes_validate.validate(doc, K8S_VERSION, strict=True)


@pytest.mark.parametrize("values", [{}, EVERYTHING_ON], ids=["defaults", "everything-on"])
def test_helm_lint_strict_finds_nothing_but_the_missing_icon(values: dict[str, Any]) -> None:
    """Issue 14 (Build): `helm lint --strict` is clean, run by Helm 4's own linter in-process.
    The one finding left is informational: Chart.yaml names no icon (the project publishes none,
    and the chart may not point at an address that does not exist)."""
    from helm_python.chart import lint

    report = lint(CHART, values, strict=True, kube_version=f"v{K8S_VERSION}")
    assert report["total_charts_linted"] == 1
    assert report["errors"] == []
    findings = [(m["severity"], m["path"], m["error"]) for m in report["messages"]]
    assert findings == [(1, "Chart.yaml", "icon is recommended")], findings


def test_the_sessions_namespace_is_bounded_by_values() -> None:
    values = yaml.safe_load((CHART / "values.yaml").read_text())
    sized = copy.deepcopy(values["sessions"])
    sized["quota"]["hard"] = {"pods": "7", "requests.cpu": "12", "requests.nvidia.com/gpu": "3"}
    sized["limits"]["container"]["max"] = {"cpu": "5", "memory": "9Gi"}
    sized["limits"]["persistentVolumeClaim"]["max"] = {"storage": "11Ti"}
    docs = render({"namespaces": {"sessions": "lab-sessions"}, "sessions": sized})
    (quota,) = of_kind(docs, "ResourceQuota")
    assert quota["metadata"]["namespace"] == "lab-sessions"
    # Helm merges maps into the defaults: the named ceilings change, the others stay
    hard = quota["spec"]["hard"]
    assert {k: hard[k] for k in ("pods", "requests.cpu", "requests.nvidia.com/gpu")} == sized["quota"]["hard"]
    assert hard["requests.memory"] == values["sessions"]["quota"]["hard"]["requests.memory"]
    (limits,) = of_kind(docs, "LimitRange")
    assert limits["metadata"]["namespace"] == "lab-sessions"
    by_type = {item["type"]: item for item in limits["spec"]["limits"]}
    assert by_type["Container"]["max"] == {"cpu": "5", "memory": "9Gi"}
    assert by_type["Container"]["defaultRequest"] == values["sessions"]["limits"]["container"]["defaultRequest"]
    assert by_type["PersistentVolumeClaim"]["max"] == {"storage": "11Ti"}
    for doc in (quota, limits):
        kubernetes_validate.validate(doc, K8S_VERSION, strict=True)


def test_the_defaults_bound_cpu_memory_gpus_pods_and_storage() -> None:
    (quota,) = of_kind(render(), "ResourceQuota")
    hard = quota["spec"]["hard"]
    for key in ("pods", "requests.cpu", "requests.memory", "limits.memory", "requests.nvidia.com/gpu",
                "persistentvolumeclaims", "requests.storage"):  # fmt: skip
        assert key in hard, key
    (limits,) = of_kind(render(), "LimitRange")
    container = next(i for i in limits["spec"]["limits"] if i["type"] == "Container")
    # a quota on requests/limits refuses pods that name none: the LimitRange fills them in
    assert {"cpu", "memory"} <= set(container["default"]) and {"cpu", "memory"} <= set(container["defaultRequest"])


def test_quota_and_limits_can_be_turned_off() -> None:
    docs = render({"sessions": {"quota": {"enabled": False}, "limits": {"enabled": False}}})
    assert of_kind(docs, "ResourceQuota") == [] and of_kind(docs, "LimitRange") == []


def test_the_plain_manifests_bound_the_sessions_namespace_like_the_chart() -> None:
    plain = [
        doc
        for path in sorted(DEPLOY.rglob("*.yaml"))
        if "helm" not in path.parts
        for doc in yaml.safe_load_all(path.read_text())
        if doc and doc.get("kind") in ("ResourceQuota", "LimitRange")
    ]
    rendered = of_kind(render(), "ResourceQuota") + of_kind(render(), "LimitRange")
    assert sorted((d["kind"], d["metadata"]["namespace"], d["metadata"]["name"]) for d in plain) == sorted(
        (d["kind"], d["metadata"]["namespace"], d["metadata"]["name"]) for d in rendered
    )
    specs = {d["kind"]: d["spec"] for d in rendered}
    assert all(d["spec"] == specs[d["kind"]] for d in plain)

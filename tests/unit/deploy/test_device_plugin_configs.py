"""The NVIDIA device-plugin configurations gshare ships (deploy/device-plugin and the chart's
gpuPlugins.nvidiaDevicePlugin) are in the plug-in's real config format, name what the node
sharing-mode change selects, and the chart hands HAMi's names and the time-sliced resource to
the operator.

The format is NVIDIA/k8s-device-plugin's (read at commit 1b826acc6, README.md "Shared Access to
GPUs with CUDA Time-Slicing" and api/config/v1/config.go, sharing.go, replicas.go): `version:
v1`; `flags.migStrategy` none|single|mixed; `sharing.timeSlicing` with `renameByDefault`,
`failRequestsGreaterThanOne` and `resources: [{name, replicas}]`, replicas at least 2
(replicas.go: "number of replicas must be >= 2")."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from domain.inventory.model import RESOURCE_GPU_SHARED, SharingMode
from infra.cluster.kubernetes import SharingModeLabels
from tests.unit.deploy.test_chart_render import DEPLOY, of_kind, render

OPERATOR_DIR = Path(__file__).resolve().parents[3] / "operator"
if str(OPERATOR_DIR) not in sys.path:
    sys.path.insert(0, str(OPERATOR_DIR))

from gshare_operator.gpu import TIMESLICE  # noqa: E402
from gshare_operator.settings import ENV  # noqa: E402

PLAIN = DEPLOY / "device-plugin" / "device-plugin-configs.yaml"

# NVIDIA/k8s-device-plugin README.md, the time-slicing example with renameByDefault, verbatim
README_EXAMPLE = """
version: v1
sharing:
  timeSlicing:
    renameByDefault: true
    resources:
    - name: nvidia.com/gpu
      replicas: 10
"""
# and the README's "Multiple Config File Example" config1 (the mixed MIG strategy)
README_MIG_EXAMPLE = """
version: v1
flags:
  migStrategy: "mixed" # Only change from config0.yaml
  failOnInitError: true
  nvidiaDriverRoot: "/"
  plugin:
    passDeviceSpecs: false
    deviceListStrategy: envvar
    deviceIDStrategy: uuid
"""


def device_plugin_problems(text: str) -> list[str]:
    """What NVIDIA's config loader (api/config/v1) would refuse or not understand."""
    doc = yaml.safe_load(text)
    problems = []
    if not isinstance(doc, dict):
        return ["not a mapping"]
    unknown = set(doc) - {"version", "flags", "resources", "sharing", "imex"}
    if unknown:
        problems.append(f"unknown keys {sorted(unknown)}")
    if doc.get("version") != "v1":
        problems.append("version must be v1")
    flags = doc.get("flags") or {}
    if flags.get("migStrategy", "none") not in ("none", "single", "mixed"):
        problems.append(f"migStrategy {flags.get('migStrategy')!r}")
    sharing = doc.get("sharing") or {}
    if set(sharing) - {"timeSlicing", "mps"}:
        problems.append(f"unknown sharing keys {sorted(set(sharing) - {'timeSlicing', 'mps'})}")
    ts = sharing.get("timeSlicing")
    if ts is not None:
        if set(ts) - {"renameByDefault", "failRequestsGreaterThanOne", "resources"}:
            problems.append("unknown timeSlicing keys")
        for key in ("renameByDefault", "failRequestsGreaterThanOne"):
            if key in ts and not isinstance(ts[key], bool):
                problems.append(f"{key} must be a bool")
        resources = ts.get("resources")
        if not resources:
            problems.append("no resources specified")
        for r in resources or []:
            if not r.get("name"):
                problems.append("no resource name specified")
            if not isinstance(r.get("replicas"), int) or r["replicas"] < 2:
                problems.append("number of replicas must be >= 2")
    return problems


def _configs(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {name: yaml.safe_load(text) for name, text in doc["data"].items()}


def test_the_checker_accepts_nvidias_own_examples_and_refuses_what_nvidia_refuses() -> None:
    assert device_plugin_problems(README_EXAMPLE) == []
    assert device_plugin_problems(README_MIG_EXAMPLE) == []
    one = README_EXAMPLE.replace("replicas: 10", "replicas: 1")
    assert device_plugin_problems(one) == ["number of replicas must be >= 2"]
    assert device_plugin_problems("version: v2\nflags: {migStrategy: partial}\n") == [
        "version must be v1",
        "migStrategy 'partial'",
    ]


def test_the_shipped_configs_are_in_nvidias_format_and_name_what_the_mode_change_selects() -> None:
    (plain,) = [d for d in yaml.safe_load_all(PLAIN.read_text()) if d]
    configs = _configs(plain)
    for name, text in plain["data"].items():
        assert device_plugin_problems(text) == [], name
    labels = SharingModeLabels()
    key = labels.device_plugin_config_label
    assert key == "nvidia.com/device-plugin.config"
    # each replica count a node can be switched to has its config; whole cards use the default
    for replicas in (2, 4, 8):
        chosen = labels.labels_for(SharingMode.TIMESLICING, replicas)[key]
        assert chosen in configs, chosen
        ts = configs[chosen]["sharing"]["timeSlicing"]
        assert ts["resources"] == [{"name": "nvidia.com/gpu", "replicas": replicas}]
        assert ts["renameByDefault"] is True and ts["failRequestsGreaterThanOne"] is True
    assert labels.labels_for(SharingMode.EXCLUSIVE, None)[key] is None
    assert labels.labels_for(SharingMode.HAMI, None)[key] is None
    assert "sharing" not in configs["default"]
    # renameByDefault advertises <name>.shared: the resource the inventory reads and the
    # operator requests; the MIG strategy is the one the inventory reads instances under
    assert f"{'nvidia.com/gpu'}.shared" == RESOURCE_GPU_SHARED == TIMESLICE
    assert {c["flags"]["migStrategy"] for c in configs.values()} == {"mixed"}


def test_the_chart_renders_the_same_configs_and_follows_its_values() -> None:
    (plain,) = [d for d in yaml.safe_load_all(PLAIN.read_text()) if d]
    (rendered,) = [d for d in of_kind(render(), "ConfigMap") if d["metadata"]["name"] == plain["metadata"]["name"]]
    assert rendered["metadata"]["namespace"] == plain["metadata"]["namespace"]
    assert _configs(rendered) == _configs(plain)

    values = {
        "gpuPlugins": {
            "nvidiaDevicePlugin": {
                "configs": {"namespace": "nvidia-device-plugin", "name": "lab-configs"},
                "migStrategy": "single",
                "timeSlicing": {"replicas": [3], "failRequestsGreaterThanOne": False},
            }
        }
    }
    (lab,) = [d for d in of_kind(render(values), "ConfigMap") if d["metadata"]["name"] == "lab-configs"]
    assert lab["metadata"]["namespace"] == "nvidia-device-plugin"
    configs = _configs(lab)
    assert set(configs) == {"default", "time-slicing-3"}
    assert all(device_plugin_problems(t) == [] for t in lab["data"].values())
    assert configs["time-slicing-3"]["sharing"]["timeSlicing"]["failRequestsGreaterThanOne"] is False
    assert configs["default"]["flags"]["migStrategy"] == "single"

    off = {"gpuPlugins": {"nvidiaDevicePlugin": {"configs": {"enabled": False}}}}
    assert [d for d in of_kind(render(off), "ConfigMap") if d["metadata"]["name"] == plain["metadata"]["name"]] == []
    with pytest.raises(Exception, match="at least 2 replicas"):
        render({"gpuPlugins": {"nvidiaDevicePlugin": {"timeSlicing": {"replicas": [1, 4]}}}})


def test_the_operator_gets_hamis_names_and_the_time_sliced_resource_per_cluster() -> None:
    def env_of(values: dict[str, Any] | None = None) -> dict[str, str]:
        (deployment,) = [d for d in of_kind(render(values), "Deployment") if "operator" in d["metadata"]["name"]]
        (container,) = deployment["spec"]["template"]["spec"]["containers"]
        return {e["name"]: e.get("value") for e in container["env"]}

    env = env_of()
    assert {k: env[k] for k in env if k.startswith(("GSHARE_HAMI_", "GSHARE_TIMESLICE_"))} == {
        "GSHARE_HAMI_SCHEDULER_NAME": "hami-scheduler",
        "GSHARE_HAMI_GPU_RESOURCE": "nvidia.com/gpu",
        "GSHARE_HAMI_MEMORY_RESOURCE": "nvidia.com/gpumem",
        "GSHARE_HAMI_CORES_RESOURCE": "nvidia.com/gpucores",
        "GSHARE_TIMESLICE_RESOURCE": "nvidia.com/gpu.shared",
    }
    # every one is a setting the operator reads
    assert {k for k in env if k.startswith("GSHARE_")} <= set(ENV.values())
    custom = env_of(
        {
            "gpuPlugins": {
                "hami": {"schedulerName": "vgpu-scheduler", "memoryResource": "example.com/vgpu-memory"},
                "nvidiaDevicePlugin": {"timeSlicing": {"renameByDefault": False}},
            }
        }
    )
    assert custom["GSHARE_HAMI_SCHEDULER_NAME"] == "vgpu-scheduler"
    assert custom["GSHARE_HAMI_MEMORY_RESOURCE"] == "example.com/vgpu-memory"
    assert custom["GSHARE_TIMESLICE_RESOURCE"] == "nvidia.com/gpu"

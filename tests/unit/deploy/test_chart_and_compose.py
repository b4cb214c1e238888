"""Static checks of the Helm chart and the compose file (no helm or docker compose here).

The chart is not rendered: these tests check that it is well-formed, that every `.Values`
path a template uses exists in values.yaml, that `if/with/range` blocks are closed, and that
the CRD shipped with the chart is the one in deploy/crds.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

DEPLOY = Path(__file__).resolve().parents[3] / "deploy"
CHART = DEPLOY / "helm" / "gshare"


def values() -> dict[str, Any]:
    return yaml.safe_load((CHART / "values.yaml").read_text())


def test_chart_metadata() -> None:
    chart = yaml.safe_load((CHART / "Chart.yaml").read_text())
    assert chart["apiVersion"] == "v2"
    assert chart["name"] == "gshare"
    assert re.fullmatch(r"\d+\.\d+\.\d+", chart["version"])


def test_chart_ships_the_same_crd() -> None:
    shipped = (CHART / "crds" / "gshare.io_gsharesessions.yaml").read_text()
    assert shipped == (DEPLOY / "crds" / "gshare.io_gsharesessions.yaml").read_text()


def test_template_value_references_exist() -> None:
    vals = values()
    missing = []
    for template in sorted((CHART / "templates").glob("*")):
        for ref in re.findall(r"\$?\.Values((?:\.[A-Za-z_][A-Za-z0-9_]*)+)", template.read_text()):
            node: Any = vals
            for key in ref.strip(".").split("."):
                if not isinstance(node, dict) or key not in node:
                    missing.append(f"{template.name}: .Values{ref}")
                    break
                node = node[key]
    assert missing == []


def test_template_blocks_are_balanced() -> None:
    for template in sorted((CHART / "templates").glob("*")):
        text = template.read_text()
        actions = re.findall(r"{{-?\s*(.*?)\s*-?}}", text, flags=re.S)
        assert text.count("{{") == text.count("}}"), template.name
        depth = 0
        for action in actions:
            word = action.split()[0] if action.split() else ""
            if word in ("if", "with", "range", "define"):
                depth += 1
            elif word == "end":
                depth -= 1
            assert depth >= 0, template.name
        assert depth == 0, template.name


def test_every_namespace_of_the_design_is_in_the_chart() -> None:
    namespaces = values()["namespaces"]
    assert {namespaces["system"], namespaces["sessions"], namespaces["infra"]} == {
        "gshare-system",
        "gshare-sessions",
        "gshare-infra",
    }


def test_compose_file_is_well_formed() -> None:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    services = compose["services"]
    assert {"postgres", "redis", "api", "worker"} <= set(services)
    for name in ("api", "worker"):
        service = services[name]
        assert service["depends_on"]["postgres"]["condition"] == "service_healthy"
        assert service["environment"]["GSHARE_DATABASE_URL"].startswith("postgresql+asyncpg://")
        assert service["cap_drop"] == ["ALL"]
    for name in ("postgres", "redis"):
        assert "healthcheck" in services[name]

"""Admission for the test API server, modelled on the manifests in deploy/admission.

Only the CEL shape gshare's policy uses is understood (`request.userInfo.username == '<name>'`
for CREATE of the matched resources in the matched namespace); anything else raises, so the
model cannot silently drift from the manifest.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from tests.k8s.apiserver import REPO_ROOT, ResourceType

POLICY = REPO_ROOT / "deploy" / "admission" / "sessions-pod-guard.yaml"
_USERNAME_RULE = re.compile(r"^\s*request\.userInfo\.username\s*==\s*'([^']+)'\s*$")

Hook = Callable[[str, ResourceType, dict[str, Any]], str | None]


def policy_hook(path: Path = POLICY) -> Hook:
    docs = [d for d in yaml.safe_load_all(path.read_text()) if d]
    policy = next(d for d in docs if d["kind"] == "ValidatingAdmissionPolicy")
    match = policy["spec"]["matchConstraints"]
    namespace = match["namespaceSelector"]["matchLabels"]["kubernetes.io/metadata.name"]
    resources = {
        resource for rule in match["resourceRules"] if "CREATE" in rule["operations"] for resource in rule["resources"]
    }
    validation = policy["spec"]["validations"][0]
    rule = _USERNAME_RULE.match(validation["expression"])
    if rule is None:
        raise ValueError(f"unsupported policy expression: {validation['expression']!r}")
    allowed = rule.group(1)
    message = validation.get("message", "denied by admission policy")

    def hook(user: str, rt: ResourceType, obj: dict[str, Any]) -> str | None:
        if rt.plural not in resources or obj["metadata"].get("namespace") != namespace:
            return None
        if user == allowed:
            return None
        return f'pods "{obj["metadata"].get("name")}" is forbidden: {message}'

    return hook

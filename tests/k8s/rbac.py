"""RBAC for the test API server, from the Role/ClusterRole manifests in deploy/.

`manifest_authorizer(paths, enforced_users)` returns an authorizer for `KubeApiServer.authorizer`:
requests from the service accounts bound in those manifests (and named in `enforced_users`)
are allowed only by their rules; everyone else (the tests acting as cluster admin) is allowed.
Rules support apiGroups, resources (with subresources, `*`), verbs (`*`) and resourceNames are
not used by gshare's manifests, so they are refused here rather than half-supported.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from tests.k8s.apiserver import REPO_ROOT

OPERATOR_RBAC = REPO_ROOT / "deploy" / "operator" / "rbac.yaml"
CONTROL_PLANE_RBAC = REPO_ROOT / "deploy" / "control-plane" / "cluster-access.yaml"


@dataclass(frozen=True)
class Grant:
    user: str
    namespace: str | None  # None: cluster-wide (ClusterRoleBinding)
    groups: frozenset[str]
    resources: frozenset[str]
    verbs: frozenset[str]

    def allows(self, verb: str, group: str, resource: str, namespace: str) -> bool:
        if self.namespace is not None and self.namespace != namespace:
            return False
        return (
            ("*" in self.groups or group in self.groups)
            and ("*" in self.resources or resource in self.resources)
            and ("*" in self.verbs or verb in self.verbs)
        )


def _subjects(binding: dict[str, Any]) -> list[str]:
    users = []
    for subject in binding.get("subjects") or []:
        if subject["kind"] == "ServiceAccount":
            users.append(f"system:serviceaccount:{subject['namespace']}:{subject['name']}")
        elif subject["kind"] == "User":
            users.append(subject["name"])
    return users


def grants_from(paths: Iterable[Path]) -> list[Grant]:
    docs = [d for path in paths for d in yaml.safe_load_all(path.read_text()) if d]
    roles = {
        (d["kind"], d["metadata"].get("namespace"), d["metadata"]["name"]): d
        for d in docs
        if d["kind"] in ("Role", "ClusterRole")
    }
    grants = []
    for binding in docs:
        if binding["kind"] not in ("RoleBinding", "ClusterRoleBinding"):
            continue
        ref = binding["roleRef"]
        namespace = binding["metadata"].get("namespace") if binding["kind"] == "RoleBinding" else None
        role = roles[(ref["kind"], namespace if ref["kind"] == "Role" else None, ref["name"])]
        for rule in role["rules"]:
            if rule.get("resourceNames") or rule.get("nonResourceURLs"):
                raise ValueError("resourceNames/nonResourceURLs rules are not modelled")
            for user in _subjects(binding):
                grants.append(
                    Grant(
                        user,
                        namespace,
                        frozenset(rule.get("apiGroups") or []),
                        frozenset(rule.get("resources") or []),
                        frozenset(rule.get("verbs") or []),
                    )
                )
    return grants


def manifest_authorizer(
    paths: Iterable[Path] = (OPERATOR_RBAC, CONTROL_PLANE_RBAC),
) -> Callable[[str, str, str, str, str], bool]:
    grants = grants_from(paths)
    enforced = {g.user for g in grants}

    def authorize(user: str, verb: str, group: str, resource: str, namespace: str) -> bool:
        if user not in enforced:
            return True
        return any(g.user == user and g.allows(verb, group, resource, namespace) for g in grants)

    return authorize

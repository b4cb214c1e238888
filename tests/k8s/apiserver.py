"""An in-process Kubernetes API server for tests, spoken to by the real kubernetes-asyncio client.

It serves the REST and watch protocol over HTTP on 127.0.0.1 (aiohttp, random port) for the
resource types gshare touches: core v1 pods (status and binding subresources), services,
secrets, configmaps, persistentvolumeclaims, resourcequotas, serviceaccounts, events, namespaces and nodes
(status), networking.k8s.io/v1 ingresses and networkpolicies, coordination.k8s.io/v1 leases,
and gshare.io/v1alpha1 GShareSessions (status subresource; validated against the CRD's
openAPIV3Schema from `deploy/crds/`).

What behaves as in Kubernetes:
- `resourceVersion`: one monotonic counter; a write whose body names a stale
  `metadata.resourceVersion` gets 409 Conflict; a write that changes nothing does not bump it;
- `metadata.generation` starts at 1 and bumps when anything but metadata/status changes;
- status subresources: the main endpoint ignores `status`, `/status` changes only `status`;
- PATCH: JSON merge, strategic merge (built-in types only; 415 for custom resources, as in
  Kubernetes), JSON patch, and server-side apply (`application/apply-patch+yaml`, required
  `fieldManager`, conflicts with other managers → 409 unless `force=true`, fields a manager
  stops applying are removed; lists are owned atomically);
- deletion: finalizers hold an object with `deletionTimestamp` set until they are removed (no new
  finalizers may be added meanwhile); removing an object garbage-collects its dependents
  (`ownerReferences`) unless `propagationPolicy=Orphan`; deleting a namespace deletes its content;
  `DeleteOptions.preconditions` are checked;
- list with `labelSelector` (=, ==, !=, exists, !exists, in, notin) and `fieldSelector` (dotted
  paths, =, ==, !=); namespaced and all-namespace lists;
- watch (`?watch=true`): ADDED/MODIFIED/DELETED from `resourceVersion` (an initial ADDED
  snapshot when absent or "0"), objects moving in or out of a selector show up as ADDED/DELETED,
  410 Gone ERROR events for compacted versions, `timeoutSeconds`, BOOKMARKs when
  `allowWatchBookmarks=true`;
- creation needs the namespace to exist; services get a clusterIP; secrets fold `stringData`
  into `data`; pods start `Pending`.

Test hooks: `fail_next()` injects errors (e.g. 500, 429) for matching requests, `requests` logs
every request, `writes()` counts mutations, `admission` holds callables that may refuse a
create (the gshare-sessions ValidatingAdmissionPolicy is modelled this way), `authorizer` may
refuse a request by user, verb, group, resource and namespace (see `tests.k8s.rbac`, which
enforces the RBAC manifests in deploy/), and `tokens` maps bearer tokens to user names
(requests without a known token are anonymous).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import copy
import json
import re
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import yaml
from aiohttp import web

from tests.k8s import patching

JSON = dict[str, Any]
REPO_ROOT = Path(__file__).resolve().parents[2]
CRD_DIR = REPO_ROOT / "deploy" / "crds"
DEFAULT_NAMESPACES = ("default", "kube-system", "gshare-system", "gshare-sessions", "gshare-infra")

_DNS1123_SUBDOMAIN = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")
_DNS1123_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
_DNS1035_LABEL = re.compile(r"^[a-z]([-a-z0-9]*[a-z0-9])?$")


@dataclass(frozen=True)
class ResourceType:
    group: str
    version: str
    plural: str
    kind: str
    namespaced: bool
    status_subresource: bool = False
    # Kubernetes keeps the status a client sends on create for a few types (nodes).
    status_on_create: bool = False
    name_rule: str = "subdomain"
    schema: JSON | None = field(default=None, compare=False, hash=False)

    @property
    def api_version(self) -> str:
        return f"{self.group}/{self.version}" if self.group else self.version

    @property
    def singular(self) -> str:
        return self.kind.lower()

    @property
    def custom(self) -> bool:
        return self.schema is not None


def builtin_types() -> list[ResourceType]:
    return [
        ResourceType("", "v1", "pods", "Pod", True, status_subresource=True),
        ResourceType("", "v1", "services", "Service", True, True, name_rule="dns1035"),
        ResourceType("", "v1", "secrets", "Secret", True),
        ResourceType("", "v1", "configmaps", "ConfigMap", True),
        ResourceType("", "v1", "serviceaccounts", "ServiceAccount", True),
        ResourceType("", "v1", "events", "Event", True),
        ResourceType("", "v1", "persistentvolumeclaims", "PersistentVolumeClaim", True, True),
        ResourceType("", "v1", "resourcequotas", "ResourceQuota", True, True),
        ResourceType("", "v1", "namespaces", "Namespace", False, True, name_rule="label"),
        ResourceType("", "v1", "nodes", "Node", False, True, status_on_create=True),
        ResourceType("networking.k8s.io", "v1", "ingresses", "Ingress", True, True),
        ResourceType("networking.k8s.io", "v1", "networkpolicies", "NetworkPolicy", True),
        ResourceType("coordination.k8s.io", "v1", "leases", "Lease", True),
    ]


def types_from_crds(directory: Path = CRD_DIR) -> list[ResourceType]:
    """ResourceTypes for every CRD manifest in `directory` (its storage version)."""
    result = []
    for path in sorted(directory.glob("*.yaml")):
        for doc in yaml.safe_load_all(path.read_text()):
            if not doc or doc.get("kind") != "CustomResourceDefinition":
                continue
            spec = doc["spec"]
            for version in spec["versions"]:
                if not version.get("served", True):
                    continue
                result.append(
                    ResourceType(
                        spec["group"],
                        version["name"],
                        spec["names"]["plural"],
                        spec["names"]["kind"],
                        spec["scope"] == "Namespaced",
                        status_subresource="status" in (version.get("subresources") or {}),
                        schema=version["schema"]["openAPIV3Schema"],
                    )
                )
    return result


class ApiError(Exception):
    def __init__(self, code: int, reason: str, message: str, details: JSON | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.reason = reason
        self.message = message
        self.details = details

    def status(self) -> JSON:
        body: JSON = {
            "kind": "Status",
            "apiVersion": "v1",
            "metadata": {},
            "status": "Failure",
            "message": self.message,
            "reason": self.reason,
            "code": self.code,
        }
        if self.details:
            body["details"] = self.details
        return body


def _not_found(rt: ResourceType, name: str) -> ApiError:
    return ApiError(
        404,
        "NotFound",
        f'{rt.plural}{"." + rt.group if rt.group else ""} "{name}" not found',
        {"name": name, "group": rt.group, "kind": rt.plural},
    )


def _conflict(rt: ResourceType, name: str) -> ApiError:
    return ApiError(
        409,
        "Conflict",
        f'Operation cannot be fulfilled on {rt.plural} "{name}": the object has been modified; '
        "please apply your changes to the latest version and try again",
        {"name": name, "group": rt.group, "kind": rt.plural},
    )


def _invalid(rt: ResourceType, name: str, message: str) -> ApiError:
    return ApiError(
        422,
        "Invalid",
        f'{rt.kind} "{name}" is invalid: {message}',
        {"name": name, "group": rt.group, "kind": rt.kind},
    )


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


# --- selectors --------------------------------------------------------------------------------

_SET_REQ = re.compile(r"^\s*([^\s!=]+)\s+(in|notin)\s+\(([^)]*)\)\s*$")


def _split_selector(selector: str) -> list[str]:
    parts, depth, cur = [], 0, ""
    for ch in selector:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur)
    return [p.strip() for p in parts if p.strip()]


def label_selector(selector: str | None) -> Callable[[JSON], bool]:
    if not selector:
        return lambda obj: True
    checks: list[Callable[[dict[str, str]], bool]] = []
    for req in _split_selector(selector):
        m = _SET_REQ.match(req)
        if m:
            key, op, values = m.group(1), m.group(2), {v.strip() for v in m.group(3).split(",")}
            if op == "in":
                checks.append(lambda ls, k=key, vs=values: ls.get(k) in vs)
            else:
                checks.append(lambda ls, k=key, vs=values: ls.get(k) not in vs)
        elif "!=" in req:
            key, value = (s.strip() for s in req.split("!=", 1))
            checks.append(lambda ls, k=key, v=value: ls.get(k) != v)
        elif "==" in req or "=" in req:
            key, value = (s.strip() for s in re.split(r"==?", req, maxsplit=1))
            checks.append(lambda ls, k=key, v=value: ls.get(k) == v)
        elif req.startswith("!"):
            checks.append(lambda ls, k=req[1:].strip(): k not in ls)
        else:
            checks.append(lambda ls, k=req: k in ls)

    def match(obj: JSON) -> bool:
        labels = (obj.get("metadata") or {}).get("labels") or {}
        return all(check(labels) for check in checks)

    return match


def field_selector(selector: str | None) -> Callable[[JSON], bool]:
    if not selector:
        return lambda obj: True
    checks = []
    for req in _split_selector(selector):
        negate = "!=" in req
        key, value = (s.strip() for s in re.split(r"!=|==?", req, maxsplit=1))
        checks.append((key.split("."), value, negate))

    def match(obj: JSON) -> bool:
        for path, value, negate in checks:
            cur: Any = obj
            for part in path:
                cur = cur.get(part) if isinstance(cur, dict) else None
            actual = "" if cur is None else str(cur)
            if (actual == value) == negate:
                return False
        return True

    return match


# --- watch ------------------------------------------------------------------------------------


@dataclass
class _Event:
    rv: int
    type: str
    rt: ResourceType
    obj: JSON
    old: JSON | None


@dataclass
class _Watcher:
    rt: ResourceType
    namespace: str | None
    labels: Callable[[JSON], bool]
    fields: Callable[[JSON], bool]
    queue: asyncio.Queue[_Event | None]

    def translate(self, event: _Event) -> tuple[str, JSON] | None:
        if event.rt != self.rt:
            return None
        if self.namespace and event.obj["metadata"].get("namespace") != self.namespace:
            return None
        now = self.labels(event.obj) and self.fields(event.obj)
        if event.type != "MODIFIED" or event.old is None:
            return (event.type, event.obj) if now else None
        before = self.labels(event.old) and self.fields(event.old)
        if before and now:
            return "MODIFIED", event.obj
        if now:
            return "ADDED", event.obj
        if before:
            return "DELETED", event.obj
        return None


@dataclass
class _Fault:
    method: str | None
    path_contains: str
    status: int
    remaining: int
    message: str


@dataclass(frozen=True)
class RequestRecord:
    method: str
    path: str
    query: dict[str, str]
    user: str
    content_type: str = ""  # a write's body type (a PATCH's says which kind of patch)


_MUTATING = frozenset({"POST", "PUT", "PATCH", "DELETE"})


class KubeApiServer:
    """The test API server. `await start()` returns its URL; `configuration()` gives a client."""

    def __init__(
        self,
        *,
        types: Iterable[ResourceType] | None = None,
        namespaces: Iterable[str] = DEFAULT_NAMESPACES,
        event_log_size: int = 10_000,
        bookmark_interval: float = 1.0,
    ) -> None:
        all_types = list(types) if types is not None else builtin_types() + types_from_crds()
        self._types: dict[tuple[str, str, str], ResourceType] = {(t.group, t.version, t.plural): t for t in all_types}
        self._objects: dict[tuple[ResourceType, str, str], JSON] = {}
        self._owners: dict[str, dict[tuple[str, str], set[patching.Path]]] = {}
        self._rv = 0
        self._log: list[_Event] = []
        self._log_size = event_log_size
        self._watchers: list[_Watcher] = []
        self._bookmark_interval = bookmark_interval
        self._faults: list[_Fault] = []
        self._next_ip = 1
        # container output the test kubelet recorded, served by pods/<name>/log:
        # (namespace, pod, container) -> text
        self.pod_logs: dict[tuple[str, str, str], str] = {}
        self.requests: list[RequestRecord] = []
        self.tokens: dict[str, str] = {}
        self.admission: list[Callable[[str, ResourceType, JSON], str | None]] = []
        # (user, verb, group, resource[/subresource], namespace) -> allowed; None allows all.
        self.authorizer: Callable[[str, str, str, str, str], bool] | None = None
        self._runner: web.AppRunner | None = None
        self.url = ""
        for ns in namespaces:
            self.seed({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}})

    # --- lifecycle ----------------------------------------------------------------------------

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> str:
        app = web.Application(client_max_size=16 * 1024 * 1024)
        app.router.add_route("*", "/{tail:.*}", self._handle)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.5)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        server = site._server
        assert server is not None and server.sockets
        bound = server.sockets[0].getsockname()[1]
        self.url = f"http://{host}:{bound}"
        return self.url

    async def stop(self) -> None:
        for watcher in self._watchers:
            watcher.queue.put_nowait(None)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> KubeApiServer:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    def configuration(self, token: str | None = None) -> Any:
        from kubernetes_asyncio.client import Configuration

        config = Configuration(host=self.url)
        if token:
            config.api_key = {"BearerToken": token}
            config.api_key_prefix = {"BearerToken": "Bearer"}
        return config

    def write_kubeconfig(self, path: Path, token: str = "test-token", user: str = "test") -> Path:
        """A kubeconfig file pointing at this server; `token` is registered for `user`."""
        self.tokens[token] = user
        doc = {
            "apiVersion": "v1",
            "kind": "Config",
            "clusters": [{"name": "test", "cluster": {"server": self.url}}],
            "users": [{"name": user, "user": {"token": token}}],
            "contexts": [{"name": "test", "context": {"cluster": "test", "user": user}}],
            "current-context": "test",
        }
        path.write_text(yaml.safe_dump(doc))
        return path

    # --- direct state access for tests ----------------------------------------------------------

    def resource_type(self, plural: str, group: str | None = None) -> ResourceType:
        for (g, _v, p), rt in self._types.items():
            if p == plural and (group is None or g == group):
                return rt
        raise KeyError(plural)

    def get(self, plural: str, name: str, namespace: str | None = None) -> JSON | None:
        rt = self.resource_type(plural)
        obj = self._objects.get((rt, namespace or "", name))
        return copy.deepcopy(obj) if obj is not None else None

    def list(self, plural: str, namespace: str | None = None) -> list[JSON]:
        rt = self.resource_type(plural)
        return [
            copy.deepcopy(o)
            for (t, ns, _), o in sorted(self._objects.items(), key=lambda kv: kv[0][1:])
            if t == rt and (namespace is None or ns == namespace)
        ]

    def seed(self, obj: JSON) -> JSON:
        """Create an object directly, bypassing HTTP, admission and the status rules."""
        api_version, kind = obj["apiVersion"], obj["kind"]
        rt = next(t for t in self._types.values() if t.api_version == api_version and t.kind == kind)
        ns = obj["metadata"].get("namespace", "") if rt.namespaced else ""
        return copy.deepcopy(self._create(rt, ns, copy.deepcopy(obj), "seed", keep_status=True))

    @property
    def resource_version(self) -> int:
        return self._rv

    def fail_next(
        self,
        path_contains: str,
        *,
        status: int = 500,
        times: int = 1,
        method: str | None = None,
        message: str = "injected failure",
    ) -> None:
        self._faults.append(_Fault(method, path_contains, status, times, message))

    def writes(self, since: int = 0) -> list[RequestRecord]:
        return [r for r in self.requests[since:] if r.method in _MUTATING]

    # --- HTTP ---------------------------------------------------------------------------------

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        auth = request.headers.get("Authorization", "")
        token = auth[7:].strip() if auth.lower().startswith("bearer ") else ""
        user = self.tokens.get(token, "system:anonymous")
        query = dict(request.query)
        self.requests.append(RequestRecord(request.method, request.path, query, user, request.content_type))
        try:
            fault = self._take_fault(request.method, request.path)
            if fault is not None:
                headers = {"Retry-After": "0"} if fault.status == 429 else None
                raise_status = ApiError(fault.status, "InternalError", fault.message)
                return web.json_response(raise_status.status(), status=fault.status, headers=headers)
            return await self._dispatch(request, query, user)
        except ApiError as err:
            return web.json_response(err.status(), status=err.code)

    def _take_fault(self, method: str, path: str) -> _Fault | None:
        for fault in self._faults:
            if fault.remaining > 0 and fault.path_contains in path and fault.method in (None, method):
                fault.remaining -= 1
                return fault
        return None

    async def _dispatch(self, request: web.Request, query: dict[str, str], user: str) -> web.StreamResponse:
        parts = [p for p in request.path.split("/") if p]
        method = request.method
        if parts in (["healthz"], ["readyz"], ["livez"]):
            return web.Response(text="ok")
        if parts == ["version"]:
            return web.json_response(
                {
                    "major": "1",
                    "minor": "33",
                    "gitVersion": "v1.33.0-gshare-test",
                    "gitCommit": "0" * 40,
                    "gitTreeState": "clean",
                    "buildDate": "2026-01-01T00:00:00Z",
                    "goVersion": "go1.24.0",
                    "compiler": "gc",
                    "platform": "linux/amd64",
                    "emulationMajor": "1",
                    "emulationMinor": "33",
                    "minCompatibilityMajor": "1",
                    "minCompatibilityMinor": "32",
                }
            )
        if parts == ["api"]:
            return web.json_response({"kind": "APIVersions", "versions": ["v1"]})
        if parts == ["apis"]:
            return web.json_response(self._group_list())
        if len(parts) >= 2 and parts[0] == "api" and parts[1] == "v1":
            group, version, rest = "", "v1", parts[2:]
        elif len(parts) >= 3 and parts[0] == "apis":
            group, version, rest = parts[1], parts[2], parts[3:]
        elif len(parts) == 2 and parts[0] == "apis":
            groups = [g for g in self._group_list()["groups"] if g["name"] == parts[1]]
            if not groups:
                raise ApiError(404, "NotFound", "the server could not find the requested resource")
            return web.json_response({"kind": "APIGroup", "apiVersion": "v1", **groups[0]})
        else:
            raise ApiError(404, "NotFound", "the server could not find the requested resource")
        if not rest:
            return web.json_response(self._resource_list(group, version))

        namespace = ""
        if (
            len(rest) >= 3
            and rest[0] == "namespaces"
            and (group, version, rest[2]) in self._types
            and self._types[(group, version, rest[2])].namespaced
        ):
            namespace, rest = rest[1], rest[2:]
        rt = self._types.get((group, version, rest[0]))
        if rt is None or len(rest) > 3:
            raise ApiError(404, "NotFound", "the server could not find the requested resource")
        name = rest[1] if len(rest) > 1 else None
        sub = rest[2] if len(rest) > 2 else None
        if rt.namespaced and name is not None and not namespace:
            raise ApiError(404, "NotFound", "the server could not find the requested resource")
        if sub not in (None, "status", "binding", "log") or (sub == "status" and not rt.status_subresource):
            raise ApiError(404, "NotFound", f"{rt.plural}/{sub} is not a known subresource")

        if self.authorizer is not None:
            verb = _verb(method, name, query)
            resource = f"{rt.plural}/{sub}" if sub else rt.plural
            if not self.authorizer(user, verb, rt.group, resource, namespace):
                target = f' in the namespace "{namespace}"' if namespace else " at the cluster scope"
                raise ApiError(
                    403,
                    "Forbidden",
                    f'{resource}{"." + rt.group if rt.group else ""} is forbidden: User "{user}" cannot '
                    f'{verb} resource "{resource}" in API group "{rt.group}"{target}',
                )
        manager = query.get("fieldManager") or request.headers.get("User-Agent", "unknown").split("/")[0]
        if name is None:
            if method == "GET":
                if _flag(query, "watch"):
                    return await self._watch(request, rt, namespace or None, query)
                return web.json_response(self._list(rt, namespace or None, query))
            if method == "POST":
                body = await self._body(request)
                obj = self._create_checked(rt, namespace, body, manager, user, query)
                return web.json_response(obj, status=201)
            if method == "DELETE":
                return web.json_response(self._delete_collection(rt, namespace, query))
            raise ApiError(405, "MethodNotAllowed", f"{method} is not allowed on a collection")

        if sub == "log":
            if method != "GET" or rt.plural != "pods":
                raise ApiError(405, "MethodNotAllowed", "log accepts GET on pods only")
            return web.Response(text=self._pod_log(namespace, name, query), content_type="text/plain")
        if sub == "binding":
            if method != "POST" or rt.plural != "pods":
                raise ApiError(405, "MethodNotAllowed", "binding accepts POST on pods only")
            return web.json_response(self._bind(rt, namespace, name, await self._body(request)), status=201)
        if method == "GET":
            return web.json_response(self._must_get(rt, namespace, name))
        if method == "PUT":
            body = await self._body(request)
            return web.json_response(self._replace(rt, namespace, name, body, sub, manager))
        if method == "PATCH":
            content_type = request.headers.get("Content-Type", "").split(";")[0].strip()
            raw = await request.read()
            force = _flag(query, "force")
            return web.json_response(
                self._patch(rt, namespace, name, raw, content_type, sub, query, manager, force, user)
            )
        if method == "DELETE":
            raw = await request.read()
            options = json.loads(raw) if raw.strip() else {}
            for key in ("propagationPolicy", "gracePeriodSeconds"):
                if key in query:
                    options[key] = query[key]
            return web.json_response(self._delete(rt, namespace, name, options))
        raise ApiError(405, "MethodNotAllowed", f"{method} is not allowed")

    def append_log(self, namespace: str, pod: str, container: str, text: str) -> None:
        """What a container wrote (the kubelet keeps it; the API server only serves it)."""
        key = (namespace, pod, container)
        self.pod_logs[key] = self.pod_logs.get(key, "") + text

    def _pod_log(self, namespace: str, name: str, query: dict[str, str]) -> str:
        """GET pods/<name>/log as kube-apiserver answers it: `container` required when the pod
        has several, 400 while the container has not started, `tailLines` keeps the last lines."""
        rt = self.resource_type("pods")
        pod = self._must_get(rt, namespace, name)
        containers = [c["name"] for c in (pod.get("spec") or {}).get("containers") or []]
        container = query.get("container")
        if container is None:
            if len(containers) != 1:
                raise ApiError(
                    400,
                    "BadRequest",
                    f"a container name must be specified for pod {name}, choose one of: [{' '.join(containers)}]",
                )
            container = containers[0]
        elif container not in containers:
            raise ApiError(400, "BadRequest", f"container {container} is not valid for pod {name}")
        key = (namespace, name, container)
        if key not in self.pod_logs:
            if ((pod.get("status") or {}).get("phase") or "Pending") == "Pending":
                raise ApiError(
                    400,
                    "BadRequest",
                    f'container "{container}" in pod "{name}" is waiting to start: ContainerCreating',
                )
            return ""
        text = self.pod_logs[key]
        if "tailLines" in query:
            keep = max(0, int(query["tailLines"]))
            lines = text.splitlines(keepends=True)
            text = "".join(lines[-keep:]) if keep else ""
        return text

    async def _body(self, request: web.Request) -> JSON:
        raw = await request.read()
        try:
            body = json.loads(raw) if raw else {}
        except ValueError:
            try:
                body = yaml.safe_load(raw)
            except yaml.YAMLError as exc:
                raise ApiError(400, "BadRequest", f"cannot decode body: {exc}") from exc
        if not isinstance(body, dict):
            raise ApiError(400, "BadRequest", "the body must be an object")
        return body

    def _group_list(self) -> JSON:
        groups: dict[str, list[str]] = {}
        for g, v, _ in self._types:
            if g:
                groups.setdefault(g, [])
                if v not in groups[g]:
                    groups[g].append(v)
        return {
            "kind": "APIGroupList",
            "apiVersion": "v1",
            "groups": [
                {
                    "name": g,
                    "versions": [{"groupVersion": f"{g}/{v}", "version": v} for v in vs],
                    "preferredVersion": {"groupVersion": f"{g}/{vs[0]}", "version": vs[0]},
                }
                for g, vs in sorted(groups.items())
            ],
        }

    def _resource_list(self, group: str, version: str) -> JSON:
        resources = []
        verbs = ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"]
        for (g, v, plural), rt in sorted(self._types.items()):
            if (g, v) != (group, version):
                continue
            resources.append(
                {
                    "name": plural,
                    "singularName": rt.singular,
                    "namespaced": rt.namespaced,
                    "kind": rt.kind,
                    "verbs": verbs,
                }
            )
            if rt.status_subresource:
                resources.append(
                    {
                        "name": f"{plural}/status",
                        "singularName": "",
                        "namespaced": rt.namespaced,
                        "kind": rt.kind,
                        "verbs": ["get", "patch", "update"],
                    }
                )
        if not resources:
            raise ApiError(404, "NotFound", f"no resources in {group}/{version}")
        return {
            "kind": "APIResourceList",
            "apiVersion": "v1",
            "groupVersion": f"{group}/{version}" if group else version,
            "resources": resources,
        }

    # --- storage operations -------------------------------------------------------------------

    def _bump(self) -> int:
        self._rv += 1
        return self._rv

    def _emit(self, type_: str, rt: ResourceType, obj: JSON, old: JSON | None = None) -> None:
        event = _Event(int(obj["metadata"]["resourceVersion"]), type_, rt, copy.deepcopy(obj), old)
        self._log.append(event)
        if len(self._log) > self._log_size:
            del self._log[: len(self._log) - self._log_size]
        for watcher in list(self._watchers):
            watcher.queue.put_nowait(event)

    def _must_get(self, rt: ResourceType, ns: str, name: str) -> JSON:
        obj = self._objects.get((rt, ns, name))
        if obj is None:
            raise _not_found(rt, name)
        return obj

    def _list(self, rt: ResourceType, ns: str | None, query: dict[str, str]) -> JSON:
        labels = label_selector(query.get("labelSelector"))
        fields = field_selector(query.get("fieldSelector"))
        items = [
            obj
            for (t, o_ns, _), obj in sorted(self._objects.items(), key=lambda kv: kv[0][1:])
            if t == rt and (ns is None or o_ns == ns) and labels(obj) and fields(obj)
        ]
        return {
            "apiVersion": rt.api_version,
            "kind": f"{rt.kind}List",
            "metadata": {"resourceVersion": str(self._rv)},
            "items": items,
        }

    def _validate_name(self, rt: ResourceType, name: str) -> None:
        rule = {
            "subdomain": _DNS1123_SUBDOMAIN,
            "label": _DNS1123_LABEL,
            "dns1035": _DNS1035_LABEL,
        }[rt.name_rule]
        limit = 253 if rt.name_rule == "subdomain" else 63
        if not name or len(name) > limit or not rule.match(name):
            raise _invalid(rt, name, f"metadata.name: Invalid value: {name!r}")

    def _validate(self, rt: ResourceType, obj: JSON) -> None:
        name = obj["metadata"]["name"]
        for key in ("labels", "annotations"):
            values = obj["metadata"].get(key) or {}
            if not all(isinstance(v, str) for v in values.values()):
                raise _invalid(rt, name, f"metadata.{key}: values must be strings")
        if rt.schema is not None:
            import jsonschema

            schema = _strip_extensions(rt.schema)
            try:
                jsonschema.validate(
                    {k: v for k, v in obj.items() if k not in ("metadata", "apiVersion", "kind")},
                    {
                        **schema,
                        "properties": {
                            k: v
                            for k, v in schema.get("properties", {}).items()
                            if k not in ("metadata", "apiVersion", "kind")
                        },
                    },
                )
            except jsonschema.ValidationError as exc:
                where = ".".join(str(p) for p in exc.absolute_path)
                raise _invalid(rt, name, f"{where}: {exc.message}") from exc
        if rt.plural == "secrets":
            for key, value in (obj.get("data") or {}).items():
                try:
                    base64.b64decode(value, validate=True)
                except (ValueError, TypeError) as exc:
                    raise _invalid(rt, name, f"data[{key}]: not base64") from exc

    def _create_checked(
        self,
        rt: ResourceType,
        ns: str,
        body: JSON,
        manager: str,
        user: str,
        query: dict[str, str],
    ) -> JSON:
        meta = body.setdefault("metadata", {})
        if rt.namespaced:
            if meta.get("namespace") not in (None, "", ns):
                raise ApiError(400, "BadRequest", "the namespace of the object does not match the request")
            if (self.resource_type("namespaces"), "", ns) not in self._objects:
                raise ApiError(404, "NotFound", f'namespaces "{ns}" not found')
            ns_obj = self._objects[(self.resource_type("namespaces"), "", ns)]
            if ns_obj["metadata"].get("deletionTimestamp"):
                raise ApiError(
                    403,
                    "Forbidden",
                    f"unable to create new content in namespace {ns} because it is being terminated",
                )
        if body.get("apiVersion") not in (None, rt.api_version) or body.get("kind") not in (
            None,
            rt.kind,
        ):
            raise ApiError(400, "BadRequest", f"expected {rt.api_version} {rt.kind}")
        if not meta.get("name") and meta.get("generateName"):
            meta["name"] = meta["generateName"] + uuid.uuid4().hex[:5]
        for check in self.admission:
            refusal = check(user, rt, body | {"metadata": meta | {"namespace": ns}})
            if refusal:
                raise ApiError(403, "Forbidden", refusal)
        if query.get("dryRun") == "All":
            obj = copy.deepcopy(body)
            return obj
        return self._create(rt, ns, body, manager)

    def _create(self, rt: ResourceType, ns: str, body: JSON, manager: str, *, keep_status: bool = False) -> JSON:
        meta = body.setdefault("metadata", {})
        name = meta.get("name") or ""
        self._validate_name(rt, name)
        key = (rt, ns if rt.namespaced else "", name)
        if rt.plural == "pods" and key not in self._objects:
            # a new pod of an old name starts with an empty log
            for log_key in [k for k in self.pod_logs if k[:2] == (ns, name)]:
                del self.pod_logs[log_key]
        if key in self._objects:
            raise ApiError(
                409,
                "AlreadyExists",
                f'{rt.plural} "{name}" already exists',
                {"name": name, "group": rt.group, "kind": rt.plural},
            )
        obj = copy.deepcopy(body)
        obj["apiVersion"], obj["kind"] = rt.api_version, rt.kind
        meta = obj["metadata"]
        for transient in ("resourceVersion", "deletionTimestamp", "managedFields", "selfLink"):
            meta.pop(transient, None)
        if rt.namespaced:
            meta["namespace"] = ns
        else:
            meta.pop("namespace", None)
        meta["uid"] = str(uuid.uuid4())
        meta["creationTimestamp"] = _now()
        meta["generation"] = 1
        if rt.status_subresource and not (rt.status_on_create or keep_status):
            obj.pop("status", None)
        self._apply_defaults(rt, obj, None)
        self._validate(rt, obj)
        meta["resourceVersion"] = str(self._bump())
        self._owners[meta["uid"]] = {}
        self._record_update(obj, None, manager, "Update", rt)
        self._objects[key] = obj
        self._emit("ADDED", rt, obj)
        return obj

    def _apply_defaults(self, rt: ResourceType, obj: JSON, old: JSON | None) -> None:
        if rt.plural == "persistentvolumeclaims" and old is None:
            # the claim strategy's PrepareForCreate: a new claim is Pending until bound
            obj.setdefault("status", {}).setdefault("phase", "Pending")
        if rt.plural == "pods":
            spec = obj.setdefault("spec", {})
            spec.setdefault("restartPolicy", "Always")
            spec.setdefault("dnsPolicy", "ClusterFirst")
            spec.setdefault("schedulerName", "default-scheduler")
            spec.setdefault("terminationGracePeriodSeconds", 30)
            spec.setdefault("serviceAccountName", "default")
            for container in spec.get("containers") or []:
                container.setdefault("imagePullPolicy", "IfNotPresent")
                container.setdefault("terminationMessagePath", "/dev/termination-log")
                for port in container.get("ports") or []:
                    port.setdefault("protocol", "TCP")
            if old is None and "status" not in obj:
                obj["status"] = {"phase": "Pending", "qosClass": _qos_class(spec)}
        elif rt.plural == "services":
            spec = obj.setdefault("spec", {})
            spec.setdefault("type", "ClusterIP")
            spec.setdefault("sessionAffinity", "None")
            old_ip = ((old or {}).get("spec") or {}).get("clusterIP")
            if old_ip:
                spec["clusterIP"] = old_ip
            elif not spec.get("clusterIP"):
                spec["clusterIP"] = f"10.96.{self._next_ip // 250}.{self._next_ip % 250 + 1}"
                self._next_ip += 1
            spec.setdefault("clusterIPs", [spec["clusterIP"]])
            for port in spec.get("ports") or []:
                port.setdefault("protocol", "TCP")
                port.setdefault("targetPort", port.get("port"))
            obj.setdefault("status", {"loadBalancer": {}})
        elif rt.plural == "secrets":
            obj.setdefault("type", "Opaque")
            string_data = obj.pop("stringData", None) or {}
            data = obj.setdefault("data", {}) if string_data else obj.get("data")
            for k, v in string_data.items():
                data[k] = base64.b64encode(str(v).encode()).decode()
        elif rt.plural == "namespaces":
            obj["metadata"].setdefault("labels", {})["kubernetes.io/metadata.name"] = obj["metadata"]["name"]
            obj.setdefault("spec", {"finalizers": ["kubernetes"]})
            obj.setdefault("status", {"phase": "Active"})
        elif rt.plural == "ingresses":
            obj.setdefault("status", {"loadBalancer": {}})

    def _record_update(
        self,
        obj: JSON,
        old: JSON | None,
        manager: str,
        operation: str,
        rt: ResourceType,
        subresource: str | None = None,
    ) -> None:
        """Give `manager` the fields this write changed (apply ownership is set by `_apply`)."""
        owners = self._owners.setdefault(obj["metadata"]["uid"], {})
        status_only = subresource == "status"
        new_paths = patching.leaf_paths(obj, include_status=True)
        if old is None:
            changed = new_paths
        else:
            changed = {
                p
                for p in new_paths | patching.leaf_paths(old, include_status=True)
                if patching.get_path(obj, p) != patching.get_path(old, p)
            }
        changed = {p for p in changed if (p[0] == "status") == status_only or not rt.status_subresource}
        if changed and operation == "Update":
            for other_key, paths in owners.items():
                if other_key != (manager, operation):
                    paths -= changed
            mine = owners.setdefault((manager, operation), set())
            mine |= {p for p in changed if patching.get_path(obj, p) is not patching._MISSING}
        self._render_managed_fields(obj)

    def _render_managed_fields(self, obj: JSON) -> None:
        owners = self._owners.get(obj["metadata"]["uid"], {})
        managed = []
        for (manager, operation), paths in sorted(owners.items()):
            if not paths:
                continue
            managed.append(
                {
                    "manager": manager,
                    "operation": operation,
                    "apiVersion": obj["apiVersion"],
                    "fieldsType": "FieldsV1",
                    "fieldsV1": patching.fields_v1(paths),
                }
            )
        if managed:
            obj["metadata"]["managedFields"] = managed
        else:
            obj["metadata"].pop("managedFields", None)

    def _write(
        self,
        rt: ResourceType,
        key: tuple[ResourceType, str, str],
        old: JSON,
        new: JSON,
        manager: str,
        operation: str,
        sub: str | None,
    ) -> JSON:
        """Store `new` in place of `old` with Kubernetes' update rules; return what is stored."""
        name = old["metadata"]["name"]
        precondition = (new.get("metadata") or {}).get("resourceVersion")
        if precondition and precondition != old["metadata"]["resourceVersion"]:
            raise _conflict(rt, name)
        new = copy.deepcopy(new)
        new["apiVersion"], new["kind"] = rt.api_version, rt.kind
        meta = new.setdefault("metadata", {})
        if sub == "status":
            # Only the status changes through the status subresource.
            new = copy.deepcopy(old) | {"status": new.get("status")}
            if new["status"] is None:
                new.pop("status")
            meta = new["metadata"]
        else:
            for keep in ("uid", "creationTimestamp", "deletionTimestamp", "generation", "name"):
                if keep in old["metadata"]:
                    meta[keep] = old["metadata"][keep]
                else:
                    meta.pop(keep, None)
            if rt.namespaced:
                meta["namespace"] = old["metadata"]["namespace"]
            if rt.status_subresource:
                if "status" in old:
                    new["status"] = copy.deepcopy(old["status"])
                else:
                    new.pop("status", None)
            if old["metadata"].get("deletionTimestamp"):
                added = set(meta.get("finalizers") or []) - set(old["metadata"].get("finalizers") or [])
                if added:
                    raise ApiError(
                        422,
                        "Invalid",
                        f'{rt.kind} "{name}" is invalid: metadata.finalizers: Forbidden: no new '
                        "finalizers can be added if the object is being deleted",
                    )
            self._apply_defaults(rt, new, old)
            if rt.plural == "pods":
                self._check_pod_update(rt, old, new)
        meta.pop("managedFields", None)
        meta["resourceVersion"] = old["metadata"]["resourceVersion"]
        if sub != "status" and _spec_of(new) != _spec_of(old):
            meta["generation"] = old["metadata"].get("generation", 1) + 1
        self._validate(rt, new)
        if operation != "Apply":
            self._record_update(new, old, manager, operation, rt, sub)
        else:
            self._render_managed_fields(new)
        if not meta.get("managedFields"):
            meta.pop("managedFields", None)
        if new == old:
            return old
        meta["resourceVersion"] = str(self._bump())
        if meta.get("deletionTimestamp") and not meta.get("finalizers"):
            self._remove(rt, key, new)
            return new
        self._objects[key] = new
        self._emit("MODIFIED", rt, new, old)
        return new

    def _check_pod_update(self, rt: ResourceType, old: JSON, new: JSON) -> None:
        def mutable_view(spec: JSON) -> JSON:
            view = copy.deepcopy(spec)
            for container in view.get("containers") or []:
                container.pop("image", None)
            view.pop("activeDeadlineSeconds", None)
            view.pop("tolerations", None)
            return view

        if mutable_view(old.get("spec") or {}) != mutable_view(new.get("spec") or {}):
            raise _invalid(
                rt,
                old["metadata"]["name"],
                "spec: Forbidden: pod updates may not change fields other than "
                "`spec.containers[*].image`, `spec.activeDeadlineSeconds` or `spec.tolerations`",
            )

    def _replace(self, rt: ResourceType, ns: str, name: str, body: JSON, sub: str | None, manager: str) -> JSON:
        key = (rt, ns, name)
        old = self._must_get(rt, ns, name)
        body_name = (body.get("metadata") or {}).get("name")
        if body_name and body_name != name:
            raise ApiError(400, "BadRequest", "the name of the object does not match the URL")
        return self._write(rt, key, old, body, manager, "Update", sub)

    def _patch(
        self,
        rt: ResourceType,
        ns: str,
        name: str,
        raw: bytes,
        content_type: str,
        sub: str | None,
        query: dict[str, str],
        manager: str,
        force: bool,
        user: str,
    ) -> JSON:
        key = (rt, ns, name)
        if content_type == "application/apply-patch+yaml":
            if not query.get("fieldManager"):
                raise ApiError(400, "BadRequest", "PATCH with apply-patch requires a fieldManager parameter")
            try:
                config = yaml.safe_load(raw) or {}
            except yaml.YAMLError as exc:
                raise ApiError(400, "BadRequest", f"cannot decode apply patch: {exc}") from exc
            if not isinstance(config, dict):
                raise ApiError(400, "BadRequest", "an apply patch must be an object")
            return self._apply(rt, ns, name, config, sub, query["fieldManager"], force, user, query)
        old = self._must_get(rt, ns, name)
        try:
            patch = json.loads(raw)
        except ValueError as exc:
            raise ApiError(400, "BadRequest", f"cannot decode patch: {exc}") from exc
        try:
            if content_type == "application/merge-patch+json":
                if not isinstance(patch, dict):
                    raise patching.PatchError("a merge patch must be an object")
                new = patching.merge_patch(old, patch)
            elif content_type == "application/strategic-merge-patch+json":
                if rt.custom:
                    raise ApiError(
                        415,
                        "UnsupportedMediaType",
                        "the body of the request was in an unknown format - accepted media "
                        "types include: application/json-patch+json, "
                        "application/merge-patch+json, application/apply-patch+yaml",
                    )
                if not isinstance(patch, dict):
                    raise patching.PatchError("a strategic merge patch must be an object")
                new = patching.strategic_merge_patch(old, patch)
            elif content_type == "application/json-patch+json":
                if not isinstance(patch, list):
                    raise ApiError(
                        400,
                        "BadRequest",
                        "json: cannot unmarshal object into Go value of type jsonpatch.Patch",
                    )
                new = patching.json_patch(old, patch)
            else:
                raise ApiError(415, "UnsupportedMediaType", f"unsupported patch type {content_type!r}")
        except patching.PatchError as exc:
            raise _invalid(rt, name, str(exc)) from exc
        if not isinstance(new, dict):
            raise _invalid(rt, name, "the patched object is not an object")
        # A patch only sets a resourceVersion precondition when it names one itself.
        patched_rv = (new.get("metadata") or {}).get("resourceVersion")
        if patched_rv == old["metadata"]["resourceVersion"] and not _names_rv(patch):
            new["metadata"].pop("resourceVersion", None)
        return self._write(rt, key, old, new, manager, "Update", sub)

    def _apply(
        self,
        rt: ResourceType,
        ns: str,
        name: str,
        config: JSON,
        sub: str | None,
        manager: str,
        force: bool,
        user: str,
        query: dict[str, str],
    ) -> JSON:
        key = (rt, ns, name)
        if config.get("apiVersion") != rt.api_version or config.get("kind") != rt.kind:
            raise ApiError(
                400,
                "BadRequest",
                f"apply patch must name apiVersion {rt.api_version} kind {rt.kind}",
            )
        meta = config.setdefault("metadata", {})
        if meta.get("name") not in (None, name):
            raise ApiError(400, "BadRequest", "the name of the object does not match the URL")
        meta["name"] = name
        include_status = sub == "status"
        applied = patching.leaf_paths(config, include_status=include_status)
        if sub == "status":
            applied = {p for p in applied if p[0] == "status"}
        elif rt.status_subresource:
            applied = {p for p in applied if p[0] != "status"}
        old = self._objects.get(key)
        if old is None:
            if sub == "status":
                raise _not_found(rt, name)
            created = self._create_checked(rt, ns, copy.deepcopy(config), manager, user, query)
            owners = self._owners[created["metadata"]["uid"]]
            owners.pop((manager, "Update"), None)
            owners[(manager, "Apply")] = {p for p in applied if patching.get_path(created, p) is not patching._MISSING}
            self._render_managed_fields(created)
            return created
        owners = self._owners.setdefault(old["metadata"]["uid"], {})
        mine = owners.get((manager, "Apply"), set())
        conflicts = []
        for (other, operation), paths in owners.items():
            if (other, operation) == (manager, "Apply") or other == manager:
                continue
            for owned in paths:
                for path in applied:
                    if patching.overlaps(owned, path) and patching.get_path(old, owned) != patching.get_path(
                        config, owned
                    ):
                        conflicts.append((other, owned))
        if conflicts and not force:
            causes = [
                {
                    "type": "FieldManagerConflict",
                    "message": f'conflict with "{other}": .{".".join(path)}',
                    "field": "." + ".".join(path),
                }
                for other, path in sorted(set(conflicts))
            ]
            raise ApiError(
                409,
                "Conflict",
                f"Apply failed with {len(causes)} conflict(s): " + "; ".join(c["message"] for c in causes),
                {"name": name, "group": rt.group, "kind": rt.plural, "causes": causes},
            )
        new = copy.deepcopy(old)
        others = set().union(*(paths for k, paths in owners.items() if k != (manager, "Apply"))) if owners else set()
        for path in mine - applied:
            if not any(patching.overlaps(path, other) for other in others):
                patching.delete_path(new, path)
        new = _deep_merge(new, {k: v for k, v in config.items() if k not in ("apiVersion", "kind")})
        if rt.status_subresource and sub != "status":
            new["status"] = copy.deepcopy(old.get("status"))
            if new["status"] is None:
                new.pop("status")
        new["metadata"].pop("resourceVersion", None)
        if meta.get("resourceVersion"):
            new["metadata"]["resourceVersion"] = meta["resourceVersion"]
        before = {k: set(v) for k, v in owners.items()}
        for k, paths in owners.items():
            if k != (manager, "Apply"):
                paths -= {p for p in paths if any(patching.overlaps(p, a) for a in applied)}
        owners[(manager, "Apply")] = set(applied)
        try:
            return self._write(rt, key, old, new, manager, "Apply", sub)
        except ApiError:
            self._owners[old["metadata"]["uid"]] = before
            raise

    def _bind(self, rt: ResourceType, ns: str, name: str, body: JSON) -> JSON:
        pod = self._must_get(rt, ns, name)
        target = (body.get("target") or {}).get("name")
        if not target:
            raise ApiError(400, "BadRequest", "binding needs target.name")
        if pod["spec"].get("nodeName"):
            raise ApiError(
                409,
                "Conflict",
                f'pod {name} is already assigned to node "{pod["spec"]["nodeName"]}"',
            )
        new = copy.deepcopy(pod)
        new["spec"]["nodeName"] = target
        new["status"].setdefault("conditions", []).append(
            {"type": "PodScheduled", "status": "True", "lastTransitionTime": _now()}
        )
        new["metadata"]["resourceVersion"] = str(self._bump())
        self._record_update(new, pod, "kube-scheduler", "Update", rt)
        self._objects[(rt, ns, name)] = new
        self._emit("MODIFIED", rt, new, pod)
        return {
            "kind": "Status",
            "apiVersion": "v1",
            "metadata": {},
            "status": "Success",
            "code": 201,
        }

    def _delete(self, rt: ResourceType, ns: str, name: str, options: JSON) -> JSON:
        key = (rt, ns, name)
        obj = self._must_get(rt, ns, name)
        preconditions = options.get("preconditions") or {}
        if preconditions.get("uid") and preconditions["uid"] != obj["metadata"]["uid"]:
            raise ApiError(409, "Conflict", f"Precondition failed: UID in precondition: {preconditions['uid']}")
        if (
            preconditions.get("resourceVersion")
            and preconditions["resourceVersion"] != obj["metadata"]["resourceVersion"]
        ):
            raise _conflict(rt, name)
        if options.get("propagationPolicy") == "Orphan":
            self._orphan(obj["metadata"]["uid"])
        if rt.plural == "namespaces":
            for other_key in [k for k in self._objects if k[0].namespaced and k[1] == name]:
                if other_key in self._objects:
                    self._force_remove(other_key)
        if obj["metadata"].get("finalizers"):
            if obj["metadata"].get("deletionTimestamp"):
                return obj
            new = copy.deepcopy(obj)
            new["metadata"]["deletionTimestamp"] = _now()
            new["metadata"]["deletionGracePeriodSeconds"] = 0
            new["metadata"]["generation"] = obj["metadata"].get("generation", 1) + 1
            new["metadata"]["resourceVersion"] = str(self._bump())
            self._objects[key] = new
            self._emit("MODIFIED", rt, new, obj)
            return new
        gone = copy.deepcopy(obj)
        gone["metadata"]["resourceVersion"] = str(self._bump())
        self._remove(rt, key, gone)
        return gone

    def _delete_collection(self, rt: ResourceType, ns: str, query: dict[str, str]) -> JSON:
        listing = self._list(rt, ns or None, query)
        for item in listing["items"]:
            meta = item["metadata"]
            if (rt, meta.get("namespace", ""), meta["name"]) in self._objects:
                self._delete(rt, meta.get("namespace", ""), meta["name"], {})
        return listing

    def _force_remove(self, key: tuple[ResourceType, str, str]) -> None:
        obj = copy.deepcopy(self._objects[key])
        obj["metadata"]["resourceVersion"] = str(self._bump())
        self._remove(key[0], key, obj)

    def _remove(self, rt: ResourceType, key: tuple[ResourceType, str, str], last: JSON) -> None:
        self._objects.pop(key, None)
        uid = last["metadata"]["uid"]
        self._owners.pop(uid, None)
        self._emit("DELETED", rt, last)
        self._collect_garbage(uid)

    def _orphan(self, uid: str) -> None:
        for key, obj in list(self._objects.items()):
            refs = obj["metadata"].get("ownerReferences") or []
            if any(r.get("uid") == uid for r in refs):
                new = copy.deepcopy(obj)
                new["metadata"]["ownerReferences"] = [r for r in refs if r.get("uid") != uid]
                if not new["metadata"]["ownerReferences"]:
                    del new["metadata"]["ownerReferences"]
                new["metadata"]["resourceVersion"] = str(self._bump())
                self._objects[key] = new
                self._emit("MODIFIED", key[0], new, obj)

    def _collect_garbage(self, gone_uid: str) -> None:
        live = {o["metadata"]["uid"] for o in self._objects.values()}
        for key, obj in list(self._objects.items()):
            refs = obj["metadata"].get("ownerReferences") or []
            if not any(r.get("uid") == gone_uid for r in refs):
                continue
            if any(r.get("uid") in live for r in refs):
                continue
            if key in self._objects:
                self._delete(key[0], key[1], key[2], {})

    # --- watch --------------------------------------------------------------------------------

    async def _watch(
        self, request: web.Request, rt: ResourceType, ns: str | None, query: dict[str, str]
    ) -> web.StreamResponse:
        timeout = float(query["timeoutSeconds"]) if query.get("timeoutSeconds") else None
        bookmarks = _flag(query, "allowWatchBookmarks")
        watcher = _Watcher(
            rt,
            ns,
            label_selector(query.get("labelSelector")),
            field_selector(query.get("fieldSelector")),
            asyncio.Queue(),
        )
        response = web.StreamResponse(status=200, headers={"Content-Type": "application/json"})
        start_rv = query.get("resourceVersion") or "0"
        backlog: list[tuple[str, JSON]] = []
        expired = False
        if start_rv == "0":
            backlog = [("ADDED", obj) for obj in self._list(rt, ns, query)["items"]]
        else:
            since = int(start_rv)
            oldest = self._log[0].rv if self._log else self._rv + 1
            if since < oldest - 1 and since < self._rv:
                expired = True
            else:
                for event in self._log:
                    if event.rv > since:
                        translated = watcher.translate(event)
                        if translated:
                            backlog.append(translated)
        if not expired:
            self._watchers.append(watcher)
        await response.prepare(request)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout if timeout is not None else None
        try:
            if expired:
                status = ApiError(410, "Expired", f"too old resource version: {start_rv} ({self._rv})").status()
                await response.write(_line({"type": "ERROR", "object": status}))
                return response
            for type_, obj in backlog:
                await response.write(_line({"type": type_, "object": obj}))
            while True:
                wait = self._bookmark_interval if bookmarks else None
                if deadline is not None:
                    remaining = deadline - loop.time()
                    if remaining <= 0:
                        break
                    wait = remaining if wait is None else min(wait, remaining)
                try:
                    event = await asyncio.wait_for(watcher.queue.get(), wait)
                except TimeoutError:
                    if bookmarks:
                        await response.write(
                            _line(
                                {
                                    "type": "BOOKMARK",
                                    "object": {
                                        "apiVersion": rt.api_version,
                                        "kind": rt.kind,
                                        "metadata": {"resourceVersion": str(self._rv)},
                                    },
                                }
                            )
                        )
                    continue
                if event is None:
                    break
                translated = watcher.translate(event)
                if translated:
                    await response.write(_line({"type": translated[0], "object": translated[1]}))
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            with contextlib.suppress(ValueError):
                self._watchers.remove(watcher)
        with contextlib.suppress(ConnectionResetError, RuntimeError):
            await response.write_eof()
        return response


def _verb(method: str, name: str | None, query: dict[str, str]) -> str:
    if method == "GET":
        if _flag(query, "watch"):
            return "watch"
        return "get" if name else "list"
    if method == "DELETE":
        return "delete" if name else "deletecollection"
    return {"POST": "create", "PUT": "update", "PATCH": "patch"}.get(method, method.lower())


def _flag(query: dict[str, str], name: str) -> bool:
    # Go's strconv.ParseBool spellings; kubernetes-asyncio sends Python's "True".
    return query.get(name, "").lower() in ("1", "t", "true")


def _line(obj: JSON) -> bytes:
    return json.dumps(obj).encode() + b"\n"


def _names_rv(patch: Any) -> bool:
    if isinstance(patch, dict):
        return "resourceVersion" in (patch.get("metadata") or {})
    if isinstance(patch, list):
        return any(
            isinstance(op, dict) and str(op.get("path", "")).startswith("/metadata/resourceVersion") for op in patch
        )
    return False


def _spec_of(obj: JSON) -> JSON:
    return {k: v for k, v in obj.items() if k not in ("metadata", "status", "apiVersion", "kind")}


def _deep_merge(base: Any, overlay: Any) -> Any:
    if isinstance(base, dict) and isinstance(overlay, dict):
        merged = dict(base)
        for key, value in overlay.items():
            merged[key] = _deep_merge(base.get(key), value)
        return merged
    return copy.deepcopy(overlay)


def _qos_class(spec: JSON) -> str:
    containers = spec.get("containers") or []
    requests_any = any(
        (c.get("resources") or {}).get("requests") or (c.get("resources") or {}).get("limits") for c in containers
    )
    if not requests_any:
        return "BestEffort"
    guaranteed = all(
        (c.get("resources") or {}).get("limits", {}).get(r)
        and (c.get("resources") or {}).get("requests", {}).get(r, (c.get("resources") or {}).get("limits", {}).get(r))
        == (c.get("resources") or {}).get("limits", {}).get(r)
        for c in containers
        for r in ("cpu", "memory")
    )
    return "Guaranteed" if guaranteed else "Burstable"


def _strip_extensions(schema: Any) -> Any:
    """The CRD schema as plain JSON Schema (x-kubernetes-* keys carry no JSON Schema meaning)."""
    if isinstance(schema, dict):
        out = {k: _strip_extensions(v) for k, v in schema.items() if not k.startswith("x-kubernetes-")}
        if schema.get("x-kubernetes-int-or-string"):
            out.pop("type", None)
            out["anyOf"] = [{"type": "integer"}, {"type": "string"}]
        if schema.get("x-kubernetes-preserve-unknown-fields") and "type" not in out:
            pass
        return out
    if isinstance(schema, list):
        return [_strip_extensions(v) for v in schema]
    return schema

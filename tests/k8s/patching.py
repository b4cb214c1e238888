"""Patch formats the test API server understands, as the real one applies them.

- JSON merge patch (RFC 7386),
- JSON patch (RFC 6902),
- strategic merge patch for built-in types: maps merge; lists named in `MERGE_KEYS` merge by
  their key (with `$patch: delete` / `$patch: replace` directives); primitive lists in
  `PRIMITIVE_MERGE_LISTS` (e.g. `finalizers`) merge as sets and honour
  `$deleteFromPrimitiveList/<field>`; every other list is replaced, as in Kubernetes.
- server-side apply field ownership (see `leaf_paths`), used by `apiserver.py`.
"""

from __future__ import annotations

import copy
from typing import Any

JSON = Any

# Lists whose strategic-merge strategy in the Kubernetes API types is `merge` on this key.
MERGE_KEYS: dict[str, str] = {
    "containers": "name",
    "initContainers": "name",
    "ephemeralContainers": "name",
    "volumes": "name",
    "volumeMounts": "mountPath",
    "env": "name",
    "ports": "containerPort",
    "conditions": "type",
    "ownerReferences": "uid",
    "imagePullSecrets": "name",
    "hostAliases": "ip",
    "tolerations": "key",
}
PRIMITIVE_MERGE_LISTS = frozenset({"finalizers"})


class PatchError(ValueError):
    """The patch document is malformed or cannot be applied (HTTP 422/400)."""


def merge_patch(target: JSON, patch: JSON) -> JSON:
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    result = copy.deepcopy(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = merge_patch(result.get(key), value)
    return result


def strategic_merge_patch(target: JSON, patch: JSON, field: str | None = None) -> JSON:
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    if patch.get("$patch") == "replace":
        return {k: copy.deepcopy(v) for k, v in patch.items() if k != "$patch"}
    result = copy.deepcopy(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if key.startswith("$setElementOrder/") or key == "$retainKeys":
            continue
        if key.startswith("$deleteFromPrimitiveList/"):
            name = key.split("/", 1)[1]
            result[name] = [v for v in result.get(name) or [] if v not in value]
            continue
        if value is None:
            result.pop(key, None)
        elif isinstance(value, list) and key in MERGE_KEYS:
            result[key] = _merge_keyed_list(result.get(key) or [], value, MERGE_KEYS[key])
        elif isinstance(value, list) and key in PRIMITIVE_MERGE_LISTS:
            merged = list(result.get(key) or [])
            merged.extend(v for v in value if v not in merged)
            result[key] = merged
        elif isinstance(value, dict):
            result[key] = strategic_merge_patch(result.get(key), value, key)
        else:
            result[key] = copy.deepcopy(value)
    return result


def _merge_keyed_list(current: list[JSON], patch: list[JSON], key: str) -> list[JSON]:
    result = copy.deepcopy(current)
    for item in patch:
        if not isinstance(item, dict) or key not in item:
            raise PatchError(f"strategic merge list item needs merge key {key!r}")
        index = next(
            (i for i, cur in enumerate(result) if isinstance(cur, dict) and cur.get(key) == item[key]),
            None,
        )
        directive = item.get("$patch")
        if directive == "delete":
            if index is not None:
                del result[index]
            continue
        clean = {k: v for k, v in item.items() if k != "$patch"}
        if index is None:
            result.append(copy.deepcopy(clean))
        else:
            result[index] = strategic_merge_patch(result[index], clean)
    return result


def _pointer(path: str) -> list[str]:
    if path == "":
        return []
    if not path.startswith("/"):
        raise PatchError(f"invalid JSON pointer {path!r}")
    return [p.replace("~1", "/").replace("~0", "~") for p in path[1:].split("/")]


def _resolve(doc: JSON, tokens: list[str]) -> JSON:
    cur = doc
    for token in tokens:
        if isinstance(cur, dict):
            if token not in cur:
                raise PatchError(f"path not found: /{'/'.join(tokens)}")
            cur = cur[token]
        elif isinstance(cur, list):
            try:
                cur = cur[int(token)]
            except (ValueError, IndexError) as exc:
                raise PatchError(f"bad list index {token!r}") from exc
        else:
            raise PatchError(f"cannot descend into a scalar at {token!r}")
    return cur


def _add(doc: JSON, tokens: list[str], value: JSON) -> JSON:
    if not tokens:
        return value
    parent = _resolve(doc, tokens[:-1])
    last = tokens[-1]
    if isinstance(parent, dict):
        parent[last] = value
    elif isinstance(parent, list):
        if last == "-":
            parent.append(value)
        else:
            try:
                index = int(last)
            except ValueError as exc:
                raise PatchError(f"bad list index {last!r}") from exc
            if not 0 <= index <= len(parent):
                raise PatchError(f"list index {index} out of range")
            parent.insert(index, value)
    else:
        raise PatchError("cannot add into a scalar")
    return doc


def _remove(doc: JSON, tokens: list[str]) -> JSON:
    if not tokens:
        raise PatchError("cannot remove the whole document")
    parent = _resolve(doc, tokens[:-1])
    last = tokens[-1]
    if isinstance(parent, dict):
        if last not in parent:
            raise PatchError(f"path not found: /{'/'.join(tokens)}")
        return parent.pop(last)
    if isinstance(parent, list):
        try:
            return parent.pop(int(last))
        except (ValueError, IndexError) as exc:
            raise PatchError(f"bad list index {last!r}") from exc
    raise PatchError("cannot remove from a scalar")


def json_patch(target: JSON, operations: JSON) -> JSON:
    if not isinstance(operations, list):
        raise PatchError("a JSON patch must be a list of operations")
    doc = copy.deepcopy(target)
    for op in operations:
        if not isinstance(op, dict) or "op" not in op or "path" not in op:
            raise PatchError(f"malformed JSON patch operation {op!r}")
        kind, tokens = op["op"], _pointer(op["path"])
        if kind == "add":
            doc = _add(doc, tokens, copy.deepcopy(op.get("value")))
        elif kind == "remove":
            _remove(doc, tokens)
        elif kind == "replace":
            _resolve(doc, tokens)
            if tokens:
                _remove(doc, tokens)
            doc = _add(doc, tokens, copy.deepcopy(op.get("value")))
        elif kind == "test":
            if _resolve(doc, tokens) != op.get("value"):
                raise PatchError(f"test failed at {op['path']}")
        elif kind in ("move", "copy"):
            source = _pointer(op["from"])
            value = _remove(doc, source) if kind == "move" else copy.deepcopy(_resolve(doc, source))
            doc = _add(doc, tokens, value)
        else:
            raise PatchError(f"unknown JSON patch operation {kind!r}")
    return doc


# --- server-side apply ------------------------------------------------------------------------

Path = tuple[str, ...]
_UNMANAGED_METADATA = frozenset(
    {
        "name",
        "namespace",
        "uid",
        "resourceVersion",
        "generation",
        "creationTimestamp",
        "deletionTimestamp",
        "deletionGracePeriodSeconds",
        "managedFields",
        "selfLink",
    }
)


def leaf_paths(obj: JSON, *, include_status: bool) -> set[Path]:
    """The fields an object sets, as paths to leaves; lists count as one (atomic) leaf.

    Real server-side apply also tracks associative lists item by item; treating lists as
    atomic is coarser but sound: whoever applies a list owns all of it.
    """
    paths: set[Path] = set()

    def walk(value: JSON, prefix: Path) -> None:
        if isinstance(value, dict) and value:
            for key, child in value.items():
                walk(child, (*prefix, key))
        else:
            paths.add(prefix)

    for key, value in (obj or {}).items():
        if key in ("apiVersion", "kind"):
            continue
        if key == "status" and not include_status:
            continue
        if key == "metadata" and isinstance(value, dict):
            for mkey, mval in value.items():
                if mkey not in _UNMANAGED_METADATA:
                    walk(mval, ("metadata", mkey))
            continue
        walk(value, (key,))
    return paths


_MISSING = object()


def get_path(obj: JSON, path: Path) -> JSON:
    cur = obj
    for key in path:
        if not isinstance(cur, dict) or key not in cur:
            return _MISSING
        cur = cur[key]
    return cur


def delete_path(obj: JSON, path: Path) -> None:
    parents = []
    cur = obj
    for key in path[:-1]:
        if not isinstance(cur, dict) or key not in cur:
            return
        parents.append((cur, key))
        cur = cur[key]
    if isinstance(cur, dict):
        cur.pop(path[-1], None)
    # Drop maps the removal left empty, as apply does.
    for parent, key in reversed(parents):
        if parent[key] == {} and key != "metadata":
            del parent[key]
        else:
            break


def overlaps(a: Path, b: Path) -> bool:
    n = min(len(a), len(b))
    return a[:n] == b[:n]


def fields_v1(paths: set[Path]) -> dict[str, JSON]:
    tree: dict[str, JSON] = {}
    for path in sorted(paths):
        node = tree
        for key in path:
            node = node.setdefault(f"f:{key}", {})
    return tree

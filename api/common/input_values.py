"""Values no field can hold, refused before any resolver sees them, wherever they come from:
string literals in the document (`InputTextRule`, a validation rule) and strings anywhere in
the variables (`variable_problems`, run by `api.limits.DocumentGuard`). Text may carry tab,
newline and carriage return, never another C0 control character, DEL, or a lone surrogate
(PostgreSQL stores no NUL, and a surrogate cannot even be encoded as UTF-8).

`value_field` names the input a refused literal sits in (`input.shmMib`, `tags[2]`), so every
error about a value can say which field it concerns."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from graphql import (
    ArgumentNode,
    DocumentNode,
    GraphQLError,
    ListValueNode,
    Node,
    ObjectValueNode,
    StringValueNode,
)
from graphql.validation import ValidationRule

from domain.common.errors import CommonErrorCode

_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")


def text_problem(value: str) -> str | None:
    found = _FORBIDDEN.search(value)
    if found is None:
        return None
    char = ord(found.group())
    kind = "a lone surrogate" if 0xD800 <= char <= 0xDFFF else "a control character"
    return f"contains {kind} (U+{char:04X}), which no text field accepts"


def _walk(value: Any, path: str) -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        problem = text_problem(value)
        if problem:
            yield path, problem
    elif isinstance(value, dict):
        for key, item in value.items():
            key_problem = text_problem(key) if isinstance(key, str) else None
            if key_problem:
                yield path, f"has a key that {key_problem}"
            else:
                yield from _walk(item, f"{path}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _walk(item, f"{path}[{index}]")


def variable_problems(variables: dict[str, Any] | None) -> list[GraphQLError]:
    errors = []
    for name, value in (variables or {}).items():
        for path, problem in _walk(value, name):
            errors.append(
                GraphQLError(
                    f"Variable '${name}' at '{path}' {problem}.",
                    extensions={"code": str(CommonErrorCode.INVALID_VALUE), "field": path},
                )
            )
    return errors


class InputTextRule(ValidationRule):
    def enter_string_value(self, node: StringValueNode, *_args: Any) -> None:
        problem = text_problem(node.value)
        if problem:
            self.report_error(
                GraphQLError(f"The string {problem}.", node, extensions={"code": str(CommonErrorCode.INVALID_VALUE)})
            )


def value_field(document: DocumentNode, target: Node) -> str | None:
    """The path of the argument (and input fields, list indexes) a value node sits in; a
    linear walk, done only for an error."""
    stack: list[tuple[Node, str | None]] = [(document, None)]
    while stack:
        node, path = stack.pop()
        if node is target:
            return path
        if isinstance(node, ArgumentNode):
            stack.append((node.value, node.name.value))
        elif isinstance(node, ObjectValueNode) and path is not None:
            stack.extend((f.value, f"{path}.{f.name.value}") for f in node.fields)
        elif isinstance(node, ListValueNode) and path is not None:
            stack.extend((v, f"{path}[{i}]") for i, v in enumerate(node.values))
        else:
            for key in node.keys:
                child = getattr(node, key, None)
                if isinstance(child, Node):
                    stack.append((child, path))
                elif isinstance(child, (list, tuple)):
                    stack.extend((c, path) for c in child if isinstance(c, Node))
    return None

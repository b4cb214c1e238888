"""How every GraphQL error leaves the server: one policy, applied in `GShareSchema.process_errors`
(strawberry calls it for parse, validation, variable-coercion and execution errors alike, over
HTTP and WebSocket).

- a domain refusal raised in a resolver keeps its message, with `extensions.code`/`field`;
- an error of the request itself (it has no `path`: syntax, limits, validation, variables) is
  the client's: it keeps its message and gets a code (`api.common.request_errors`); one about
  a value (a literal or a variable) is `INVALID_VALUE` with `extensions.field` naming it;
- a value the database refused (SQLSTATE class 22) is `INVALID_VALUE` too, logged at WARNING:
  a check before it is missing;
- the database being unreachable is `SERVICE_UNAVAILABLE` (the HTTP answer is then a 503);
- anything else is a fault of the server: its message is masked, it is logged at ERROR with
  its traceback, and its code is `INTERNAL_ERROR`.

Every error carries `extensions.requestId`, the id of the `X-Request-Id` header and the logs.

Client mistakes are logged at INFO on one line, without a traceback.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from typing import Any

from graphql import DocumentNode, GraphQLError, GraphQLSyntaxError, ValueNode, VariableDefinitionNode, VariableNode
from graphql.validation.validate import ValidationAbortedError

from api.common.input_values import value_field
from api.common.request_errors import RequestErrorCode
from domain.common.errors import CommonErrorCode, DomainError
from infra.db.failures import database_unavailable, refused_value
from infra.request_context import request_id

log = logging.getLogger("gshare.api")
MASKED_MESSAGE = "Internal error; it has been logged under the request id in extensions.requestId."
UNAVAILABLE_MESSAGE = "The database is unavailable; try again shortly."


def _domain(error: GraphQLError) -> DomainError | None:
    original = error.original_error
    return original if isinstance(original, DomainError) else None


def _request_code(error: GraphQLError) -> str:
    if isinstance(error, GraphQLSyntaxError):
        # graphql-core reports its length, token and comment limits as syntax errors ending so
        if error.message.endswith("Parsing aborted."):
            return RequestErrorCode.DOCUMENT_TOO_LARGE
        return RequestErrorCode.GRAPHQL_PARSE_FAILED
    if isinstance(error, ValidationAbortedError) and error.message == "Validation aborted.":
        # graphql-core's comparison budget ran out, or fragments nest past the recursion limit
        return RequestErrorCode.QUERY_TOO_COMPLEX
    return RequestErrorCode.GRAPHQL_VALIDATION_FAILED


# graphql-core's variable coercion: "Variable '$i' has invalid value at .tags[2]: …"
_VARIABLE_PATH = re.compile(r"^Variable '\$([^']+)' has invalid value(?: at ((?:\.\w+|\[\d+\])+))?: ")


def _value_error(error: GraphQLError, document: DocumentNode | None) -> tuple[str, str | None] | None:
    """(code, field) of an error about one value of the request: a literal the validation
    refused, or a variable its coercion refused."""
    node = error.nodes[0] if error.nodes else None
    if isinstance(node, VariableDefinitionNode):
        found = _VARIABLE_PATH.match(error.message)
        if found is not None:
            return str(CommonErrorCode.INVALID_VALUE), found.group(1) + (found.group(2) or "")
    if isinstance(node, ValueNode) and not isinstance(node, VariableNode):
        return str(CommonErrorCode.INVALID_VALUE), value_field(document, node) if document else None
    return None


def shape_errors(errors: Iterable[GraphQLError], context: Any = None) -> None:
    """Give each error its code and mask what the client must not see; in place (the same
    objects go into the response)."""
    document = getattr(context, "graphql_document", None)
    for error in errors:
        extensions: dict[str, Any] = dict(error.extensions or {})
        domain = _domain(error)
        if domain is not None:
            extensions.update(code=str(domain.code), field=domain.field)
            log.info("refused: %s %s (%s)", domain.code, domain.field or "-", domain.message)
        elif error.original_error is not None and database_unavailable(error.original_error):
            extensions["code"] = str(RequestErrorCode.SERVICE_UNAVAILABLE)
            original = error.original_error
            log.error("the database is unavailable at %s (%s: %s)", error.path, type(original).__name__, original)
            error.message = UNAVAILABLE_MESSAGE
        elif error.path is None and not _unexpected(error):
            value = _value_error(error, document)
            if value is not None:
                extensions.setdefault("code", value[0])
                extensions.setdefault("field", value[1])
            extensions.setdefault("code", str(_request_code(error)))
            log.info("refused: %s %s (%s)", extensions["code"], extensions.get("field") or "-", error.message)
        elif "code" in extensions:
            log.info("refused: %s (%s)", extensions["code"], error.message)
        elif error.original_error is not None and refused_value(error.original_error):
            # input that reached the database unchecked: the client's, but a check is missing
            extensions["code"] = str(CommonErrorCode.INVALID_VALUE)
            log.warning("the database refused a value at %s: %s", error.path, error.original_error)
            error.message = "A value could not be stored; check the input's lengths and ranges."
        else:
            extensions["code"] = str(RequestErrorCode.INTERNAL_ERROR)
            log.error("unexpected error at %s", error.path, exc_info=error.original_error or error)
            error.message = MASKED_MESSAGE
        extensions["requestId"] = request_id.get()
        error.extensions = extensions


def _unexpected(error: GraphQLError) -> bool:
    """A pre-execution error raised by something other than graphql-core's own checks (an
    extension, a scalar that failed on an unforeseen value)."""
    original = error.original_error
    return original is not None and not isinstance(original, (GraphQLError, ValueError, TypeError))

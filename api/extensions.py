"""Schema extensions: domain errors raised in queries become GraphQL errors with
`extensions.code`/`field`; anything else is masked and logged with the request id."""

from __future__ import annotations

import logging
from collections.abc import Iterator

from graphql import GraphQLError
from strawberry.extensions import MaskErrors, SchemaExtension

from domain.common.errors import DomainError

log = logging.getLogger("gshare.api")


def _domain(error: GraphQLError) -> DomainError | None:
    original = error.original_error
    return original if isinstance(original, DomainError) else None


class DomainErrors(SchemaExtension):
    def on_operation(self) -> Iterator[None]:
        yield
        result = self.execution_context.result
        if result is None or not result.errors:
            return
        for err in result.errors:
            domain = _domain(err)
            if domain is not None:
                err.extensions = {**(err.extensions or {}), "code": str(domain.code), "field": domain.field}
            elif err.original_error is not None:
                request_id = getattr(self.execution_context.context, "request_id", "-")
                log.error("unexpected error (request %s)", request_id, exc_info=err.original_error)


def masking() -> MaskErrors:
    return MaskErrors(
        should_mask_error=lambda e: e.original_error is not None and _domain(e) is None,
        error_message="Internal error; it has been logged.",
    )

"""Codes of the errors a request gets before (or instead of) its resolvers' answer.

They are `errors[].extensions.code` of a GraphQL response (or the `code` of a plain JSON
refusal such as 413), beside `extensions.requestId`. Refusals of bad input reuse the
domain's `INVALID_VALUE` and name the offending value in `extensions.field`.
"""

from __future__ import annotations

from enum import StrEnum


class RequestErrorCode(StrEnum):
    DOCUMENT_TOO_LARGE = "DOCUMENT_TOO_LARGE"  # characters, tokens or comments over the limit
    QUERY_TOO_COMPLEX = "QUERY_TOO_COMPLEX"  # expanded fields, depth or aliases over the limit
    GRAPHQL_PARSE_FAILED = "GRAPHQL_PARSE_FAILED"
    GRAPHQL_VALIDATION_FAILED = "GRAPHQL_VALIDATION_FAILED"
    VALIDATION_TIMEOUT = "VALIDATION_TIMEOUT"
    REQUEST_TIMEOUT = "REQUEST_TIMEOUT"
    REQUEST_TOO_LARGE = "REQUEST_TOO_LARGE"
    BAD_REQUEST = "BAD_REQUEST"
    PERSISTED_QUERY_NOT_FOUND = "PERSISTED_QUERY_NOT_FOUND"  # a document hash the server does not hold
    PERSISTED_QUERY_REQUIRED = "PERSISTED_QUERY_REQUIRED"  # a document's text, refused by persisted_documents_only
    UNAUTHENTICATED = "UNAUTHENTICATED"  # a route that wants credentials got none or wrong ones
    SERVICE_UNAVAILABLE = "SERVICE_UNAVAILABLE"
    INTERNAL_ERROR = "INTERNAL_ERROR"
    TOO_MANY_CONNECTIONS = "TOO_MANY_CONNECTIONS"
    TOO_MANY_SUBSCRIPTIONS = "TOO_MANY_SUBSCRIPTIONS"

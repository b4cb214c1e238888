"""What a GraphQL document may cost, decided before it runs and in time linear in its size.

Strawberry's depth, alias and token limiters walk every fragment spread anew, so
`fragment Fi on User { ...F(i-1) ...F(i-1) }` costs them 2**i (39 levels, 1.5 KB, froze the
process). Here:

- the text is refused by its length before the lexer walks it (`max_length`: whitespace runs,
  comments and long strings all count), then by its tokens and comments while it is parsed
  (graphql-core's `max_source_length`, `max_lexical_tokens`, `max_comments`);
- `DocumentLimits`, a validation rule, measures each operation's *expanded* selection (what
  execution would walk once every fragment is spread): its field count, its depth and its
  aliases. A fragment is measured once and its result memoised, so a bomb is counted
  (2**39 fields) without being walked; a cycle adds nothing (NoFragmentCycles reports it);
  the walk uses an explicit stack, so a chain of thousands of fragments does not recurse.
  Over a limit, validation is aborted before graphql-core's own rules run (some of them,
  like OverlappingFieldsCanBeMerged, are far from linear);
- graphql-core's OverlappingFieldsCanBeMerged (quadratic in repeated fields and spreads of one
  selection set) gets a budget of field comparisons (`max_field_comparisons`);
- `ValidationDeadline` aborts what is left of validation once it has run for
  `validation_timeout` seconds (checked between nodes: a backstop, the limits above bound it);
- `DocumentGuard` parses and validates through two small caches (the same documents arrive
  again and again), hides "Did you mean …" suggestions when introspection is off, and gives
  every refusal a code (`api.common.request_errors`).
"""

from __future__ import annotations

import contextvars
import sys
import time
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from graphql import (
    DocumentNode,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLError,
    GraphQLSchema,
    InlineFragmentNode,
    OperationDefinitionNode,
    SelectionSetNode,
)
from graphql.validation import ASTValidationRule, ValidationContext, specified_rules, validate
from graphql.validation.rules import overlapping_fields_can_be_merged as overlapping_fields
from graphql.validation.validate import ValidationAbortedError
from strawberry.extensions import SchemaExtension
from strawberry.schema.validation_rules.maybe_null import MaybeNullValidationRule
from strawberry.schema.validation_rules.one_of import OneOfInputValidationRule
from strawberry.types.graphql import OperationType

from api.common.input_values import InputTextRule, variable_problems
from api.common.request_errors import RequestErrorCode

_SATURATED = sys.maxsize  # counts stop growing here: a bomb's size is "more than the limit" anyway


@dataclass(frozen=True)
class Cost:
    fields: int
    depth: int
    aliases: int


@dataclass(frozen=True)
class _Local:
    """One definition's own selections, fragment spreads not followed: its fields, aliases
    and depth, and each spread with the field depth at which it sits."""

    fields: int
    aliases: int
    depth: int
    spreads: tuple[tuple[str, int], ...]


def _local(selection_set: SelectionSetNode) -> _Local:
    fields = aliases = depth = 0
    spreads: list[tuple[str, int]] = []
    # (selections, field depth, under an introspection field): introspection's own nesting is
    # bounded by graphql-core's MaxIntrospectionDepthRule, so it does not count as depth here
    stack: list[tuple[SelectionSetNode, int, bool]] = [(selection_set, 0, False)]
    while stack:
        current, level, meta = stack.pop()
        for selection in current.selections:
            if isinstance(selection, FieldNode):
                fields += 1
                aliases += selection.alias is not None
                inner = meta or selection.name.value.startswith("__")
                if not inner:
                    depth = max(depth, level + 1)
                if selection.selection_set is not None:
                    stack.append((selection.selection_set, level + 1, inner))
            elif isinstance(selection, InlineFragmentNode):
                stack.append((selection.selection_set, level, meta))
            elif isinstance(selection, FragmentSpreadNode) and not meta:
                spreads.append((selection.name.value, level))
            elif isinstance(selection, FragmentSpreadNode):
                spreads.append((selection.name.value, -_SATURATED))  # its fields count, its depth not
    return _Local(fields, aliases, depth, tuple(spreads))


def _combine(local: _Local, costs: dict[str, Cost]) -> Cost:
    fields, aliases, depth = local.fields, local.aliases, local.depth
    for name, level in local.spreads:
        spread = costs.get(name)
        if spread is None:  # unknown fragment, or one on a cycle: the spec rules report both
            continue
        fields = min(fields + spread.fields, _SATURATED)
        aliases = min(aliases + spread.aliases, _SATURATED)
        depth = max(depth, level + spread.depth)
    return Cost(fields, depth, aliases)


def measure(document: DocumentNode) -> dict[str | None, Cost]:
    """Each operation's expanded cost, by operation name; linear in the document's size."""
    locals_ = {
        d.name.value: _local(d.selection_set) for d in document.definitions if isinstance(d, FragmentDefinitionNode)
    }
    costs: dict[str, Cost] = {}
    for root in locals_:
        if root in costs:
            continue
        # depth-first over spreads without recursion; a fragment is measured once its spreads are
        path: list[tuple[str, Iterator[tuple[str, int]]]] = [(root, iter(locals_[root].spreads))]
        on_path = {root}
        while path:
            name, spreads = path[-1]
            for spread, _level in spreads:
                if spread in locals_ and spread not in costs and spread not in on_path:
                    path.append((spread, iter(locals_[spread].spreads)))
                    on_path.add(spread)
                    break
            else:
                path.pop()
                on_path.discard(name)
                costs[name] = _combine(locals_[name], costs)
    return {
        (d.name.value if d.name else None): _combine(_local(d.selection_set), costs)
        for d in document.definitions
        if isinstance(d, OperationDefinitionNode)
    }


def _refusal(message: str, code: RequestErrorCode) -> ValidationAbortedError:
    return ValidationAbortedError(message, extensions={"code": str(code)})


def document_limits_rule(*, max_fields: int, max_depth: int, max_aliases: int) -> type[ASTValidationRule]:
    class DocumentLimits(ASTValidationRule):
        def enter_document(self, node: DocumentNode, *_args: Any) -> Any:
            for name, cost in measure(node).items():
                operation = f"operation '{name}'" if name else "the operation"
                if cost.fields > max_fields:
                    shown = f"more than {_SATURATED}" if cost.fields >= _SATURATED else str(cost.fields)
                    raise _refusal(
                        f"{operation} selects {shown} fields once its fragments are spread; "
                        f"at most {max_fields} are allowed",
                        RequestErrorCode.QUERY_TOO_COMPLEX,
                    )
                if cost.depth > max_depth:
                    raise _refusal(
                        f"{operation} nests fields {cost.depth} deep; at most {max_depth} levels are allowed",
                        RequestErrorCode.QUERY_TOO_COMPLEX,
                    )
                if cost.aliases > max_aliases:
                    raise _refusal(
                        f"{operation} uses {cost.aliases} aliases once its fragments are spread; "
                        f"at most {max_aliases} are allowed",
                        RequestErrorCode.QUERY_TOO_COMPLEX,
                    )
            return self.SKIP  # nothing else to see here; the other rules walk on

    return DocumentLimits


_deadline: contextvars.ContextVar[float] = contextvars.ContextVar("gshare_validation_deadline", default=float("inf"))
_CHECK_EVERY = 64  # nodes between two looks at the clock


class ValidationDeadline(ASTValidationRule):
    """Aborts validation once it has run past the deadline `DocumentGuard` set for it."""

    def __init__(self, context: ValidationContext) -> None:
        super().__init__(context)
        self.deadline = _deadline.get()
        self.seen = 0

    def enter(self, *_args: Any) -> None:
        self.seen += 1
        if self.seen % _CHECK_EVERY == 0 and time.perf_counter() > self.deadline:
            raise _refusal("validation took too long and was stopped", RequestErrorCode.VALIDATION_TIMEOUT)


@dataclass
class _Entry:
    document: DocumentNode
    errors: tuple[GraphQLError, ...] | None = None


class _LRU:
    def __init__(self, size: int) -> None:
        self.size = size
        self.items: OrderedDict[Any, Any] = OrderedDict()
        self.hits = 0

    def get(self, key: Any) -> Any:
        try:
            value = self.items[key]
        except KeyError:
            return None
        self.items.move_to_end(key)
        self.hits += 1
        return value

    def put(self, key: Any, value: Any) -> None:
        self.items[key] = value
        if len(self.items) > self.size:
            self.items.popitem(last=False)


@dataclass(frozen=True)
class DocumentPolicy:
    max_length: int
    max_tokens: int
    max_fields: int
    max_depth: int
    max_aliases: int
    max_field_comparisons: int
    validation_timeout: float
    hide_suggestions: bool
    extra_rules: tuple[type[ASTValidationRule], ...] = ()
    cache_size: int = 512


class DocumentGate:
    """The parse and validation steps under a `DocumentPolicy`, with their caches; built once
    per schema. `DocumentGuard` runs it for each request."""

    def __init__(self, policy: DocumentPolicy) -> None:
        self.policy = policy
        # graphql-core's documented knob (a module attribute, so process-wide): the budget of
        # field comparisons OverlappingFieldsCanBeMerged may spend before it aborts; its work
        # is quadratic in repeated fields and fragments of one selection set (200 spreads of
        # distinct one-field fragments: 100k units, half a second). The console's documents
        # spend at most a few units and the introspection query none.
        overlapping_fields.MAX_COMPLEXITY_BUDGET = policy.max_field_comparisons
        self.rules: tuple[type[ASTValidationRule], ...] = (
            document_limits_rule(
                max_fields=policy.max_fields, max_depth=policy.max_depth, max_aliases=policy.max_aliases
            ),
            *policy.extra_rules,
            InputTextRule,
            *specified_rules,
            ValidationDeadline,
            MaybeNullValidationRule,
            OneOfInputValidationRule,
        )
        self.documents = _LRU(policy.cache_size)

    @property
    def parse_options(self) -> dict[str, Any]:
        limit = self.policy
        return {
            "max_source_length": limit.max_length,
            "max_lexical_tokens": limit.max_tokens,
            "max_comments": limit.max_tokens,
        }

    def cached(self, query: str) -> DocumentNode | None:
        entry = self.documents.get(query)
        return entry.document if entry is not None else None

    def remember(self, query: str, document: DocumentNode) -> None:
        entry = self.documents.get(query)
        if entry is None or entry.document is not document:
            self.documents.put(query, _Entry(document))

    def validate(self, schema: GraphQLSchema, query: str | None, document: DocumentNode) -> list[GraphQLError]:
        # cached by the query text: hashing a document hashes its whole tree
        entry = self.documents.get(query) if query is not None else None
        if entry is not None and entry.document is document and entry.errors is not None:
            return list(entry.errors)
        token = _deadline.set(time.perf_counter() + self.policy.validation_timeout)
        try:
            errors = validate(schema, document, self.rules, hide_suggestions=self.policy.hide_suggestions)
        finally:
            _deadline.reset(token)
        timed_out = any((e.extensions or {}).get("code") == RequestErrorCode.VALIDATION_TIMEOUT for e in errors)
        if entry is not None and entry.document is document and not timed_out:
            entry.errors = tuple(errors)  # a timeout says more about the machine's load than the document
        return errors


@dataclass
class InFlight:
    """What the request deadline needs to know of the request it bounds."""

    mutating: bool = False


in_flight: contextvars.ContextVar[InFlight | None] = contextvars.ContextVar("gshare_in_flight", default=None)


class DocumentGuard(SchemaExtension):
    """Per request: the document from the gate's parse step, then its validation."""

    def __init__(self, gate: DocumentGate) -> None:
        super().__init__()
        self.gate = gate

    def on_parse(self) -> Iterator[None]:
        # a miss is parsed by strawberry itself under the gate's options: its parse step is
        # where every transport turns a syntax error (or a limit) into an answer
        context = self.execution_context
        context.parse_options.update(self.gate.parse_options)
        query = context.query
        if context.graphql_document is None and query is not None:
            context.graphql_document = self.gate.cached(query)
        yield
        if context.graphql_document is not None and query is not None:
            self.gate.remember(query, context.graphql_document)

    def on_validate(self) -> Iterator[None]:
        context = self.execution_context
        document = context.graphql_document
        if document is not None and context.pre_execution_errors is None:
            errors = self.gate.validate(context.schema._schema, context.query, document)
            context.pre_execution_errors = errors or variable_problems(context.variables)
        yield

    def on_execute(self) -> Iterator[None]:
        flight = in_flight.get()
        if flight is not None and self.execution_context.operation_type is OperationType.MUTATION:
            flight.mutating = True
        yield

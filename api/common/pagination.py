"""Relay-style connections with opaque offset cursors (`first`/`after`, `last`/`before`)."""

from __future__ import annotations

import base64
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

import strawberry

from domain.common.errors import InvalidValueError
from domain.tenancy.services import MAX_PAGE, Page

T = TypeVar("T")
N = TypeVar("N")
DEFAULT_PAGE = 50


@strawberry.type
class PageInfo:
    has_next_page: bool
    has_previous_page: bool
    start_cursor: str | None
    end_cursor: str | None


@strawberry.type
class Edge(Generic[T]):
    cursor: str
    node: T


@strawberry.type
class Connection(Generic[T]):
    edges: list[Edge[T]]
    page_info: PageInfo
    total_count: int

    @strawberry.field(description="The nodes of this page, without their cursors.")
    def nodes(self) -> list[T]:
        return [e.node for e in self.edges]


def encode_cursor(offset: int) -> str:
    return base64.urlsafe_b64encode(f"o:{offset}".encode()).decode()


def decode_cursor(cursor: str, field: str) -> int:
    try:
        kind, _, value = base64.urlsafe_b64decode(cursor.encode()).decode().partition(":")
        if kind != "o":
            raise ValueError
        return int(value)
    except (ValueError, UnicodeDecodeError) as exc:
        raise InvalidValueError(field, "not a cursor from this API") from exc


@dataclass(frozen=True)
class Window:
    offset: int
    limit: int

    @property
    def page(self) -> Page:
        return Page(self.offset, self.limit)


def window(first: int | None, after: str | None, last: int | None, before: str | None) -> Window:
    if first is not None and not 0 <= first <= MAX_PAGE:
        raise InvalidValueError("first", f"first must be between 0 and {MAX_PAGE}")
    if last is not None and not 0 <= last <= MAX_PAGE:
        raise InvalidValueError("last", f"last must be between 0 and {MAX_PAGE}")
    start = decode_cursor(after, "after") + 1 if after else 0
    if before is not None:
        end = decode_cursor(before, "before")
        size = last if last is not None else (first if first is not None else DEFAULT_PAGE)
        begin = max(start, end - size)
        return Window(begin, max(0, end - begin))
    return Window(start, first if first is not None else DEFAULT_PAGE)


def connection(items: Sequence[N], total: int, w: Window, to_node: Callable[[N], T]) -> Connection[T]:
    edges = [Edge(cursor=encode_cursor(w.offset + i), node=to_node(x)) for i, x in enumerate(items)]
    return Connection(
        edges=edges,
        page_info=PageInfo(
            has_next_page=w.offset + len(items) < total,
            has_previous_page=w.offset > 0,
            start_cursor=edges[0].cursor if edges else None,
            end_cursor=edges[-1].cursor if edges else None,
        ),
        total_count=total,
    )


async def paginate(
    fetch: Callable[[Page], Awaitable[tuple[list[N], int]]],
    to_node: Callable[[N], T],
    first: int | None,
    after: str | None,
    last: int | None,
    before: str | None,
) -> Connection[T]:
    w = window(first, after, last, before)
    if w.limit == 0:
        _, total = await fetch(Page(w.offset, 1))
        return connection([], total, w, to_node)
    items, total = await fetch(w.page)
    return connection(items, total, w, to_node)

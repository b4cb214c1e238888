"""DataLoaders keep the busiest lists at a constant number of SQL statements (no N+1)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import event

from tests.support.api import Gql, World, make_user, unique

USERS_QUERY = """
query($orgId: ID!, $n: Int!) {
  users(organizationId: $orgId, first: $n) {
    totalCount
    nodes { username activeGroup { name } memberships { role group { name organization { name } } } adminOf { name } }
  }
}"""


@contextmanager
def statements(container: Any) -> Iterator[list[str]]:
    seen: list[str] = []

    def count(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        seen.append(statement)

    event.listen(container.engine.sync_engine, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        event.remove(container.engine.sync_engine, "before_cursor_execute", count)


async def test_user_list_statement_count_does_not_grow_with_the_page(
    http: Any, container: Any, world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.support.api import gid

    for _ in range(12):
        await make_user(container, world.org_a, unique("bulk"), groups=[world.g1])
    gql = Gql(http, world.tokens["super_admin"])
    org = gid("Organization", world.org_a)
    # the token's actor is read once here and kept for the whole test: with the cache's 10 s
    # lifetime an entry the fixtures cached could expire between the two measured requests, and
    # the first would read the token and the actor again (CI on a loaded machine: 11
    # statements against 7); what is counted is the list's own statements
    monkeypatch.setattr(container.actors, "ttl", 3600.0)
    container.actors.forget_user(None)
    await gql(USERS_QUERY, orgId=org, n=1)  # warm up: the token's last-used stamp is written once a minute
    with statements(container) as small:
        a = await gql(USERS_QUERY, orgId=org, n=2)
    with statements(container) as large:
        b = await gql(USERS_QUERY, orgId=org, n=12)
    assert len(a["users"]["nodes"]) == 2 and len(b["users"]["nodes"]) == 12
    assert len(large) == len(small), (len(small), len(large))

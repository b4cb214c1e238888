"""What one admission costs the database: statements and transactions of a `sessionCreate`
through GraphQL (issue 19: the admission's round trips), counted with SQLAlchemy's engine
events on every engine the container uses."""

from __future__ import annotations

import contextvars
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import event

from domain.catalog.model import GpuTier
from domain.inventory.model import Card, Node, SharingMode
from domain.tenancy import services as tenancy
from tests.support.api import SYSTEM, Gql, add_gpu_catalog, add_simulated_cluster, fund_user, gid, make_user, unique

CREATE = """
mutation($input: SessionCreateInput!) {
  sessionCreate(input: $input) { session { id state } errors { code field message } }
}"""

# before issue 19 an admission cost 21 statements in 8 transactions (its pod's STARTING report
# included); since, 10 in 2: the admission's one transaction (capacity lock, wallet lock,
# session, hold, held amount, placement, capacity epoch and change, audit entry) and the
# report (the catalog, scope names, policies and budgets from the process's cache). One more
# for the report's update, which may or may not land while the request is counted.
BOUND_STATEMENTS = 11
BOUND_TRANSACTIONS = 2


_COUNTED: contextvars.ContextVar[bool] = contextvars.ContextVar("counted", default=False)


@contextmanager
def database_work(container: Any) -> Iterator[dict[str, list[str]]]:
    """Every statement and every transaction begun on the container's engine by this task
    while inside (the in-process ASGI app runs the request in the caller's task; status
    reports of other sessions, in tasks of their own, are not counted)."""
    seen: dict[str, list[str]] = {"statements": [], "transactions": []}

    def statement(conn: Any, cursor: Any, text: str, *args: Any) -> None:
        if _COUNTED.get():
            seen["statements"].append(" ".join(text.split())[:160])

    def begin(conn: Any) -> None:
        if _COUNTED.get():
            seen["transactions"].append("begin")

    engine = container.engine.sync_engine
    event.listen(engine, "before_cursor_execute", statement)
    event.listen(engine, "begin", begin)
    token = _COUNTED.set(True)
    try:
        yield seen
    finally:
        _COUNTED.reset(token)
        event.remove(engine, "before_cursor_execute", statement)
        event.remove(engine, "begin", begin)


async def test_statements_and_transactions_of_one_admission(container: Any, runtime: Any, http: Any) -> None:
    c = container
    model = unique("T4-stmt")
    nodes = (
        Node("stmt-0", "stmt-0", "stmt", SharingMode.HAMI, 64000, 512 * 1024, (Card("GPU-stmt-0", model, 16384),)),
    )
    cluster = await add_simulated_cluster(c, "stmt", nodes, start_delay=60)  # no status report meanwhile
    cat = await add_gpu_catalog(
        c, model, 16384, 720_000, preset={"cpu_millicores": 500, "memory_mib": 512, "tier": GpuTier.S}
    )
    async with c.uow() as uow:
        org = await tenancy.organization_create(uow, SYSTEM, c.ids, c.clock, name=unique("Stmt"))
        group = await tenancy.group_create(uow, SYSTEM, c.ids, c.clock, organization_id=org.id, name="Lab")
        await uow.commit()
    uid, token = await make_user(c, org.id, unique("stmt"), groups=[group.id])
    await fund_user(c, org.id, group.id, uid, 100)
    gql = Gql(http, token)
    await gql(
        "mutation($g: ID!) { activeGroupSet(input: {groupId: $g}) { errors { code } } }", g=gid("Group", group.id)
    )
    ids = {
        "imageId": gid("Image", cat["image"].id),
        "presetId": gid("Preset", cat["preset"].id),
        "offeringId": gid("Offering", cat["offering"].id),
        "expiry": "H1",
    }
    await gql(CREATE, input={"name": "warm", **ids})  # the caches of the first request
    with database_work(c) as seen:
        data = await gql(CREATE, input={"name": "counted", **ids})
    assert data["sessionCreate"]["errors"] == []
    print(f"\n{len(seen['statements'])} statements in {len(seen['transactions'])} transactions")
    for s in seen["statements"]:
        print("  ", s)
    assert len(seen["statements"]) <= BOUND_STATEMENTS and len(seen["transactions"]) <= BOUND_TRANSACTIONS
    await cluster.close()

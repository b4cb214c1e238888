"""Lists the console pages through: personal access tokens as a Relay connection, and the
ledger history's total count (with its filters, whatever the page)."""

from __future__ import annotations

from typing import Any

from domain.tenancy import services as tenancy
from domain.tenancy.auth import TokenScope
from domain.tenancy.services import load_actor
from tests.support.api import Gql, World, fund_user, gid, make_user, unique

TOKENS = """query($first: Int, $after: String) {
  personalAccessTokens(first: $first, after: $after) {
    totalCount pageInfo { hasNextPage hasPreviousPage endCursor } nodes { id name active }
  }
}"""

HISTORY = """query($a: AccountInput, $k: TransferKind, $first: Int, $after: String) {
  ledgerHistory(account: $a, kind: $k, first: $first, after: $after) {
    totalCount pageInfo { hasNextPage endCursor } nodes { id }
  }
}"""


async def test_personal_access_tokens_page_newest_first(container: Any, world: World, http: Any) -> None:
    c = container
    uid, token = await make_user(c, world.org_a, unique("pat"), groups=[world.g1])
    async with c.uow() as uow:
        actor = await load_actor(uow, uid)
        assert actor is not None
        for i in range(4):
            await tenancy.token_create(
                uow, actor, c.ids, c.clock, c.secrets, name=f"t{i}", scope=TokenScope.READ_ONLY, expires_in_days=1
            )
        await uow.commit()
    gql = Gql(http, token)
    names: list[str] = []
    after = None
    while True:
        page = (await gql(TOKENS, first=2, after=after))["personalAccessTokens"]
        assert page["totalCount"] == 5  # the four and the one the test signs in with
        names += [n["name"] for n in page["nodes"]]
        assert page["pageInfo"]["hasPreviousPage"] == (after is not None)
        if not page["pageInfo"]["hasNextPage"]:
            break
        after = page["pageInfo"]["endCursor"]
    assert sorted(names) == ["t0", "t1", "t2", "t3", "tests"] and len(names) == 5
    # only one's own
    other = (await Gql(http, world.tokens["member"])(TOKENS, first=50))["personalAccessTokens"]
    assert not {n["name"] for n in other["nodes"]} & {"t0", "t1", "t2", "t3"}


async def test_ledger_history_counts_every_page(container: Any, world: World, http: Any) -> None:
    c = container
    uid, token = await make_user(c, world.org_a, unique("hist"), groups=[world.g1])
    for _ in range(3):
        await fund_user(c, world.org_a, world.g1, uid, 1)
    wallet = {"id": gid("User", uid)}
    gql = Gql(http, token)
    first = (await gql(HISTORY, a=wallet, first=2))["ledgerHistory"]
    assert first["totalCount"] == 3 and len(first["nodes"]) == 2 and first["pageInfo"]["hasNextPage"]
    second = (await gql(HISTORY, a=wallet, first=2, after=first["pageInfo"]["endCursor"]))["ledgerHistory"]
    assert second["totalCount"] == 3 and len(second["nodes"]) == 1
    assert (await gql(HISTORY, a=wallet, k="CHARGE", first=2))["ledgerHistory"]["totalCount"] == 0
    hidden = await Gql(http, world.tokens["foreign_member"]).raw(HISTORY, a=wallet, first=2)
    assert hidden["data"] is None and hidden["errors"]

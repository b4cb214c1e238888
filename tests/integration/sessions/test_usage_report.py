"""Usage reports by offering: a metering charge is attributed to the offering of the session it
was posted for (through the session reference in its idempotency key), over GraphQL and CSV."""

from __future__ import annotations

import csv
import io
from datetime import timedelta
from typing import Any

from domain.credits import services as credits
from domain.credits.model import AccountRef
from domain.policies.model import ScopeChain
from domain.sessions import services as sessions
from domain.sessions.model import SessionState
from tests.integration.billing.support import charges_of
from tests.integration.sessions.test_lifecycle import catalog_for, member, wait_state
from tests.support.api import Gql, World, gid, unique

REPORT = """
query($scope: ScopeInput!, $since: DateTime, $until: DateTime, $by: UsageDimension, $interval: UsageInterval) {
  usageReport(scope: $scope, since: $since, until: $until, by: $by, interval: $interval) {
    by interval periods
    spent { micro }
    rows { kind id name spent { micro } series { micro } }
  }
}"""


async def test_usage_by_offering_follows_the_session_of_each_charge(
    container: Any, world: World, runtime: Any, http: Any
) -> None:
    c = container
    cat = await catalog_for(c)
    actor, token = await member(c, world, world.g2, credits=50, prefix="usage")
    uid = actor.user_id
    s = await sessions.session_create(
        c.sessions,
        actor,
        sessions.SessionRequest(
            name=unique("u"), image_id=cat["image"].id, preset_id=cat["preset"].id, offering_id=cat["offering"].id
        ),
    )
    await wait_state(c, s.id, SessionState.RUNNING)
    now = c.clock.now()
    billed = await c.sessions.billing.bill(now + timedelta(hours=1), [s.id], close=False)
    assert billed.charged_micro > 0
    # a charge posted by hand names no session: it counts, under no offering
    chain = ScopeChain(uid, world.g2, world.org_a, actor.username, "G2", "")
    await credits.charge_wallet(
        c.credits.ledger,
        c.clock,
        c.ids,
        wallet=AccountRef.user(uid),
        chain=chain,
        amount_micro=7,
        idempotency_key=unique("manual"),
    )
    await sessions.session_stop(c.sessions, actor, s.id)
    total = await charges_of(c.engine, uid)

    scope = {"kind": "USER", "id": gid("User", uid)}
    window = {"since": (now - timedelta(days=1)).isoformat(), "until": (now + timedelta(days=2)).isoformat()}
    data = await Gql(http, world.tokens["org_admin"])(REPORT, scope=scope, by="OFFERING", interval="DAY", **window)
    r = data["usageReport"]
    assert r["by"] == "OFFERING" and r["interval"] == "DAY" and len(r["periods"]) in (3, 4)
    assert int(r["spent"]["micro"]) == total
    rows = {row["name"]: row for row in r["rows"]}
    gpu = rows["A100-80GB"]
    assert gpu["kind"] == "OFFERING" and gpu["id"] == gid("Offering", cat["offering"].id)
    assert int(gpu["spent"]["micro"]) == total - 7
    assert sum(int(x["micro"]) for x in gpu["series"]) == total - 7 and len(gpu["series"]) == len(r["periods"])
    assert rows[None]["id"] is None and int(rows[None]["spent"]["micro"]) == 7

    # the owner sees their own report; another organisation's admin does not
    mine = await Gql(http, token)(REPORT, scope=scope, by="OFFERING", **window)
    assert [int(x["spent"]["micro"]) for x in mine["usageReport"]["rows"]] == [total - 7, 7]
    refused = await Gql(http, world.tokens["foreign_admin"]).raw(REPORT, scope=scope, **window)
    assert refused["data"] is None and refused["errors"]
    coarse = await Gql(http, token).raw(REPORT, scope=scope, by="GROUP", **window)
    assert coarse["errors"]

    # the same report as CSV
    params = {"scopeKind": "USER", "scope": gid("User", uid), "by": "OFFERING", **window}
    resp = await http.get(
        "/exports/usage.csv", params=params, headers={"authorization": f"Bearer {world.tokens['org_admin']}"}
    )
    assert resp.status_code == 200, resp.text
    assert resp.headers["content-type"].startswith("text/csv")
    parsed = list(csv.DictReader(io.StringIO(resp.text)))
    assert [(row["key_name"], row["spent_credits"]) for row in parsed][1] == ("", "0.000007")
    assert parsed[0]["key_name"] == "A100-80GB" and parsed[0]["key_id"] == str(cat["offering"].id)
    foreign = await http.get(
        "/exports/usage.csv", params=params, headers={"authorization": f"Bearer {world.tokens['foreign_admin']}"}
    )
    assert foreign.status_code == 404
    anonymous = await http.get("/exports/usage.csv", params=params)
    assert anonymous.status_code == 401

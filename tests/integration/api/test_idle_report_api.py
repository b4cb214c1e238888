"""`idleReclaimReport` (issue 15): the admin's view of what idle reclaim gave back (the numbers
themselves: tests/unit/sessions/test_jobs_unit.py and tests/integration/billing/test_system_audit.py)."""

from __future__ import annotations

import httpx

from tests.support.api import World

REPORT = "query($s: DateTime!, $u: DateTime) { idleReclaimReport(since: $s, until: $u) { since until pausedSessions gpuHoursReturned } }"


async def test_the_report_answers_admins_and_members_alike_within_their_scopes(
    http: httpx.AsyncClient, world: World
) -> None:
    variables = {"s": "2000-01-01T00:00:00+00:00", "u": "2000-01-02T00:00:00+00:00"}
    for who in ("super_admin", "member"):
        r = await http.post(
            "/graphql",
            json={"query": REPORT, "variables": variables},
            headers={"Authorization": f"Bearer {world.tokens[who]}"},
        )
        body = r.json()
        assert "errors" not in body, body
        assert body["data"]["idleReclaimReport"] == {
            "since": "2000-01-01T00:00:00+00:00",
            "until": "2000-01-02T00:00:00+00:00",
            "pausedSessions": 0,
            "gpuHoursReturned": 0.0,
        }

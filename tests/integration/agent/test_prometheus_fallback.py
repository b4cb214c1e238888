"""Issue 15, Must show 3: the Prometheus fallback feeds the same store and subscription.

A cluster without node agents points its live usage at its Prometheus (`clusterUsageSourceSet`,
a bearer token); the `usage.prometheus` job asks that Prometheus (answers recorded in
tests/support/telemetry, see SOURCES.md) for the per-pod cAdvisor, HAMi and DCGM series, and a
GraphQL `sessionUsage` subscriber connected to the real app gets the session's numbers."""

from __future__ import annotations

import asyncio
import ssl
from typing import Any

import httpx
import pytest

from domain.sessions.model import Session
from infra.clusters.prometheus import queries
from tests.support.api import World, gid, make_user, unique
from tests.support.telemetry import PrometheusServer, add_cluster, forget, running_session, serving
from tests.support.ws import graphql_ws, subscribe
from workers import jobs

SET = """
mutation($i: ClusterUsageSourceSetInput!) {
  clusterUsageSourceSet(input: $i) { cluster { id prometheusUrl hasPrometheusToken } errors { code field message } }
}"""
USAGE = (
    "subscription($s: ID!) { sessionUsage(sessionId: $s) { at cpuMillicores memoryMib gpuUtilPercent gpuMemoryMib } }"
)


async def test_the_prometheus_fallback_feeds_the_sessionusage_subscription(
    container: Any, world: World, app: Any, http: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    c = container
    loads_on_loop: list[bool] = []  # each CA bundle load: on the event loop? (infra/tls.py: never)
    real_load = ssl.SSLContext.load_verify_locations

    def recorded(self: ssl.SSLContext, *args: Any, **kwargs: Any) -> None:
        try:
            asyncio.get_running_loop()
            loads_on_loop.append(True)
        except RuntimeError:
            loads_on_loop.append(False)
        real_load(self, *args, **kwargs)

    cluster_id, _ = await add_cluster(c)
    other_cluster, _ = await add_cluster(c)
    owner, token = await make_user(c, world.org_a, unique("prom"), groups=[world.g1])
    dcgm: Session = await running_session(c, world, cluster_id, owner=owner)
    hami: Session = await running_session(c, world, cluster_id, owner=owner)
    elsewhere: Session = await running_session(c, world, other_cluster, owner=owner)
    names = {"SESSION_DCGM": str(dcgm.id), "SESSION_HAMI": str(hami.id), "SESSION_OTHER_CLUSTER": str(elsewhere.id)}
    admin = {"Authorization": f"Bearer {world.tokens['super_admin']}"}
    try:
        with PrometheusServer(names) as prom:
            bad = await http.post(
                "/graphql",
                json={"query": SET, "variables": {"i": {"clusterId": cluster_id, "prometheusUrl": "ftp://x"}}},
                headers=admin,
            )
            assert bad.json()["data"]["clusterUsageSourceSet"]["errors"][0]["field"] == "prometheusUrl"
            r = await http.post(
                "/graphql",
                json={
                    "query": SET,
                    "variables": {
                        "i": {"clusterId": cluster_id, "prometheusUrl": prom.url, "prometheusBearerToken": "prom-token"}
                    },
                },
                headers=admin,
            )
            assert r.json()["data"]["clusterUsageSourceSet"] == {
                "cluster": {"id": cluster_id, "prometheusUrl": prom.url, "hasPrometheusToken": True},
                "errors": [],
            }
            ws_url = "/graphql"
            async with (
                serving(app) as url,
                # one socket per subscription: a tests.support.ws Subscription skips the others' messages
                graphql_ws(url.replace("http", "ws") + ws_url, {"authorization": f"Bearer {token}"}) as ws_d,
                graphql_ws(url.replace("http", "ws") + ws_url, {"authorization": f"Bearer {token}"}) as ws_h,
            ):
                subs = {
                    "dcgm": await subscribe(ws_d, "d", USAGE, s=gid("Session", dcgm.id)),
                    "hami": await subscribe(ws_h, "h", USAGE, s=gid("Session", hami.id)),
                }
                for sub in subs.values():
                    assert (await sub.next())["sessionUsage"] == []  # nothing yet
                monkeypatch.setattr(ssl.SSLContext, "load_verify_locations", recorded)
                summary = await jobs.poll_prometheus(c)
                monkeypatch.undo()
                assert True not in loads_on_loop  # its client's TLS context was not built on the loop
                assert "2 usage sample(s)" in summary.text and summary.counts["samples"] == "2", summary
                got = {name: (await sub.next(within=10))["sessionUsage"] for name, sub in subs.items()}
            numbers = {
                n: [(s["cpuMillicores"], s["memoryMib"], s["gpuUtilPercent"], s["gpuMemoryMib"]) for s in v]
                for n, v in got.items()
            }
            assert numbers == {
                "dcgm": [(250, 2048, 87.0, 20480)],  # dcgm-exporter's own pod labels
                "hami": [(1500, 768, 42.0, 4000)],  # HAMi's exported_namespace / exported_pod
            }
            # the same store the agents feed; the other cluster's session got nothing from this one
            assert [s.gpu_util_percent for s in await c.usage.recent(dcgm.id)] == [87.0]
            assert await c.usage.recent(elsewhere.id) == []
            # every query of the fallback, each with the cluster's token
            assert sorted(q for q, _ in prom.queries) == sorted(queries("gshare-sessions").values())
            assert {auth for _, auth in prom.queries} == {"Bearer prom-token"}
    finally:
        await forget(c, cluster_id, [dcgm.id, hami.id, elsewhere.id])
        await forget(c, other_cluster, [])
        await asyncio.sleep(0)

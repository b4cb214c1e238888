"""Subscriptions at scale (issue 15): the `sessionUsage` subscribers of one session with the same
document and variables share one execution per event (api.fanout) - each still gets its own
first message (the current window, after the check that it may see the session), all get the
same live messages, a viewer who may not see the session is refused as before, and the group
ends with its last subscriber."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from typing import Any

from starlette.routing import WebSocketRoute

from domain.inventory.ports import UsageSample
from infra.usage import record_usage
from tests.support.api import World, gid, make_user, unique
from tests.support.telemetry import add_cluster, forget, running_session, serving
from tests.support.ws import graphql_ws, subscribe

USAGE = "subscription($s: ID!) { sessionUsage(sessionId: $s) { at cpuMillicores gpuUtilPercent } }"
OTHER_SELECTION = "subscription($s: ID!) { sessionUsage(sessionId: $s) { gpuMemoryMib } }"


def _view(app: Any) -> Any:
    route = next(r for r in app.routes if isinstance(r, WebSocketRoute) and r.path == "/graphql")
    return route.endpoint


def _streams(app: Any) -> Any:
    return _view(app).shared_streams


async def _eventually(check: Any, within: float = 5.0) -> None:
    deadline = asyncio.get_running_loop().time() + within
    while not check():
        assert asyncio.get_running_loop().time() < deadline, "not within time"
        await asyncio.sleep(0.02)


async def test_subscribers_of_one_session_share_one_execution_and_each_gets_every_sample(
    container: Any, world: World, app: Any
) -> None:
    c = container
    cluster_id, _ = await add_cluster(c)
    owner, token = await make_user(c, world.org_a, unique("fan"), groups=[world.g1])
    _, stranger_token = await make_user(c, world.org_b, unique("fan-b"))
    session = await running_session(c, world, cluster_id, owner=owner)
    earlier = UsageSample(session.id, datetime.now(UTC), 100, 512, 10.0, 64)
    await record_usage(c.usage, c.events, [earlier])
    streams = _streams(app)
    sid = gid("Session", session.id)
    try:
        async with serving(app) as url:
            ws_url = url.replace("http", "ws") + "/graphql"
            async with (
                graphql_ws(ws_url, {"authorization": f"Bearer {token}"}) as a,
                graphql_ws(ws_url, {"authorization": f"Bearer {token}"}) as b,
                graphql_ws(ws_url, {"authorization": f"Bearer {token}"}) as other,
                graphql_ws(ws_url, {"authorization": f"Bearer {stranger_token}"}) as stranger,
            ):
                sub_a = await subscribe(a, "a", USAGE, s=sid)
                sub_b = await subscribe(b, "b-1", USAGE, s=sid)
                sub_other = await subscribe(other, "o", OTHER_SELECTION, s=sid)
                # each its own window first
                for sub in (sub_a, sub_b):
                    assert [s["cpuMillicores"] for s in (await sub.next())["sessionUsage"]] == [100]
                assert (await sub_other.next())["sessionUsage"] == [{"gpuMemoryMib": 64}]
                # the stranger is refused as an unshared subscription would be, and completes
                await stranger.send(
                    json.dumps({"id": "x", "type": "subscribe", "payload": {"query": USAGE, "variables": {"s": sid}}})
                )
                refused = json.loads(await asyncio.wait_for(stranger.recv(), 10))
                assert refused["id"] == "x" and refused["payload"]["errors"], refused
                assert json.loads(await asyncio.wait_for(stranger.recv(), 10)) == {"id": "x", "type": "complete"}

                assert len(streams) == 2  # one group per (document, variables), whoever subscribes
                group = streams.group((USAGE, "", json.dumps({"s": sid}, separators=(",", ":"))))
                assert group is not None and len(group.members) == 2
                # every live payload is encoded once, whatever the number of its subscribers
                view = _view(app)
                encoded: list[Any] = []
                plain = view.encode_json

                def counting(data: Any) -> Any:
                    live = isinstance(data, dict) and set(data) == {"data"}
                    if live and "cpuMillicores" in json.dumps(data):
                        encoded.append(data)
                    return plain(data)

                view.encode_json = counting

                for i in range(3):
                    live = UsageSample(session.id, datetime.now(UTC), 200 + i, 512, 50.0 + i, 128)
                    await record_usage(c.usage, c.events, [live])
                    got_a, got_b = (await sub_a.next())["sessionUsage"], (await sub_b.next())["sessionUsage"]
                    assert (
                        got_a
                        == got_b
                        == [{"at": live.at.isoformat(), "cpuMillicores": 200 + i, "gpuUtilPercent": 50.0 + i}]
                    )
                    assert (await sub_other.next())["sessionUsage"] == [{"gpuMemoryMib": 128}]
                assert group.results == 3  # executed once per sample, not once per subscriber
                assert len(encoded) == 3  # and encoded once per sample: two subscribers, three encodings
                del view.encode_json

                # the group's leader runs in the first subscriber's context: when that socket
                # closes, the others still get every sample
                await a.close()
                await _eventually(lambda: len(group.members) == 1)
                live = UsageSample(session.id, datetime.now(UTC), 300, 512, 70.0, 128)
                await record_usage(c.usage, c.events, [live])
                assert (await sub_b.next())["sessionUsage"] == [
                    {"at": live.at.isoformat(), "cpuMillicores": 300, "gpuUtilPercent": 70.0}
                ]
                # a subscriber that completes leaves the group; the last one ends it
                await b.send(json.dumps({"id": "b-1", "type": "complete"}))
                await _eventually(lambda: streams.group(group.key) is None)
                await other.close()
                await _eventually(lambda: len(streams) == 0)
    finally:
        await forget(c, cluster_id, [session.id])

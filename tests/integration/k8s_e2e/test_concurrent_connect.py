"""Two connections of one cluster at once in one process (issue 14, production shape): the
registration mutation connects the cluster it registered while the process's ClusterFollower,
woken by the registration's announcement, connects it too. The later adapter replaced the
earlier one and closed it while its first inventory read was in flight ("first inventory read
failed ... Connector is closed" in replica A's log). One adapter results, none is closed under
a caller, and no read fails."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from infra.clusters.keys import sessionmaker_for
from infra.clusters.repository import kubernetes_clusters
from infra.clusters.wiring import connect_cluster
from tests.integration.k8s_e2e.conftest import E2ECluster


async def test_two_connections_at_once_leave_one_open_adapter(
    e2e: E2ECluster, container: Any, caplog: pytest.LogCaptureFixture
) -> None:
    record = next(r for r in await kubernetes_clusters(sessionmaker_for(container.engine)) if r.id == e2e.id)
    with caplog.at_level(logging.WARNING, logger="infra.clusters.wiring"):
        ports = await asyncio.gather(*(connect_cluster(container, record) for _ in range(3)))
    assert [r.getMessage() for r in caplog.records if "inventory read failed" in r.getMessage()] == []
    current = container.clusters.get(e2e.id)
    assert all(p is current for p in ports)
    assert len((await current.read_inventory()).nodes) == 4

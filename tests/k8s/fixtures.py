"""Pytest fixtures for the Kubernetes API test server.

Import them into a conftest: `from tests.k8s.fixtures import kube_api, kube_client  # noqa`.
`kube_api` is a running `KubeApiServer` (namespaces default, kube-system, gshare-system,
gshare-sessions and gshare-infra exist); `kube_api.configuration()` is a kubernetes-asyncio
`Configuration` for it and `kube_api.write_kubeconfig(path)` writes a kubeconfig file.
`kube_client` is a kubernetes-asyncio `ApiClient` connected to it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from kubernetes_asyncio.client import ApiClient

from tests.k8s.apiserver import KubeApiServer


@pytest.fixture
async def kube_api() -> AsyncIterator[KubeApiServer]:
    server = KubeApiServer()
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


@pytest.fixture
async def kube_client(kube_api: KubeApiServer) -> AsyncIterator[ApiClient]:
    async with ApiClient(configuration=kube_api.configuration()) as api:
        yield api

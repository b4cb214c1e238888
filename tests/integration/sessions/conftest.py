from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest


@pytest.fixture(scope="session")
async def runtime(container: Any) -> AsyncIterator[Any]:
    """The simulated demo cluster registered in the test database, pods starting in 0.2 s."""
    from infra.runtime import start_runtime

    container.settings.simulated_start_delay = 0.2
    container.settings.simulated_cluster = True
    rt = await start_runtime(container)
    yield rt
    await rt.aclose()

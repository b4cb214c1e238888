"""Real service endpoints for integration tests; a missing one fails under CI=true."""

from __future__ import annotations

import os

import pytest


def require_redis() -> str:
    url = os.environ.get("GSHARE_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except redis.RedisError as exc:
        if os.environ.get("CI") == "true":
            raise RuntimeError(f"Redis is required under CI=true and is down at {url}") from exc
        pytest.skip(f"Redis not reachable at {url}")
    return url

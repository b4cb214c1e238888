"""Broker selection: Redis in production, an in-process stub broker in the embedded default."""

from __future__ import annotations

import dramatiq
from dramatiq.brokers.redis import RedisBroker
from dramatiq.brokers.stub import StubBroker

from infra.settings import Settings


def configure_broker(settings: Settings) -> dramatiq.Broker:
    broker: dramatiq.Broker = RedisBroker(url=settings.redis_url) if settings.redis_url else StubBroker()
    dramatiq.set_broker(broker)
    return broker

"""Issue 13, finding 8: what is rendered into a pod never carries a variable the GPU stack
reads, even for a session stored before the rule existed or a resource written by hand."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from gshare_operator.children import ChildSettings, desired_pod

from domain.sessions.model import Expiry, Session, SessionKind, SessionState
from domain.sessions.services import workload_spec

SMUGGLED = {
    "NVIDIA_VISIBLE_DEVICES": "all",
    "CUDA_DEVICE_MEMORY_LIMIT": "80g",
    "CUDA_DISABLE_CONTROL": "true",
    "LD_PRELOAD": "/tmp/x.so",
}


def stored_session(env: dict[str, str]) -> Session:
    now = datetime(2026, 1, 1, tzinfo=UTC)
    return Session(
        uuid.uuid4(),
        "old",
        uuid.uuid4(),
        uuid.uuid4(),
        uuid.uuid4(),
        SessionKind.INTERACTIVE,
        SessionState.QUEUED,
        uuid.uuid4(),
        "docker.io/library/ubuntu:24.04",
        None,
        1000,
        1024,
        128,
        10,
        None,
        Expiry.H4,
        now,
        now,
        env=env,
    )


def test_a_stored_session_with_reserved_variables_is_rendered_without_them() -> None:
    spec = workload_spec(stored_session({"TZ": "UTC", **SMUGGLED}))
    assert dict(spec.env) == {"TZ": "UTC"}


def test_the_operator_never_puts_reserved_variables_into_a_pod() -> None:
    cr = {
        "metadata": {
            "name": "old-session",
            "namespace": "gshare-sessions",
            "uid": "0b4f5c2e-0000-4000-8000-000000000001",
        },
        "spec": {
            "sessionId": "id-old",
            "image": "docker.io/library/ubuntu:24.04",
            "resources": {"cpu": "1", "memory": "1Gi"},
            "env": [{"name": "TZ", "value": "UTC"}, *({"name": k, "value": v} for k, v in SMUGGLED.items())],
        },
    }
    pod = desired_pod(cr, ChildSettings())
    names = {e["name"] for e in pod["spec"]["containers"][0]["env"]}
    assert "TZ" in names and not names & set(SMUGGLED)

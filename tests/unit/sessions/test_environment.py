"""Issue 13, finding 8: what is rendered into a pod never carries a variable the GPU stack
reads, even for a session stored before the rule existed or a resource written by hand."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest
from gshare_operator.children import ChildSettings, desired_pod

from domain.common.errors import InvalidValueError
from domain.sessions.environment import check_environment, is_variable_name, without_reserved
from domain.sessions.errors import SessionError, SessionErrorCode
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


# Every name the GPU stack reads, as found in the projects' code (sources in
# domain/sessions/environment.py's docstring), and names a user legitimately sets.
GPU_STACK = [
    "NVIDIA_VISIBLE_DEVICES",
    "NVIDIA_DRIVER_CAPABILITIES",
    "NVIDIA_REQUIRE_CUDA",
    "NVIDIA_DISABLE_REQUIRE",
    "NVIDIA_IMEX_CHANNELS",
    "NVIDIA_MIG_CONFIG_DEVICES",
    "NVIDIA_MIG_MONITOR_DEVICES",
    "NVIDIA_GDRCOPY",
    "NVIDIA_GDS",
    "NVIDIA_MOFED",
    "CUDA_VERSION",
    "CUDA_MPS_PIPE_DIRECTORY",
    "CUDA_MPS_LOG_DIRECTORY",
    "CUDA_DEVICE_MEMORY_LIMIT",
    "CUDA_DEVICE_MEMORY_LIMIT_0",
    "CUDA_DEVICE_MEMORY_LIMIT_7",
    "CUDA_DEVICE_SM_LIMIT",
    "CUDA_DEVICE_MEMORY_SHARED_CACHE",
    "CUDA_VISIBLE_DEVICES",
    "CUDA_OVERSUBSCRIBE",
    "CUDA_DISABLE_CONTROL",
    "CUDA_TASK_PRIORITY",
    "CUDA_REDIRECT",
    "LIBCUDA_LOG_LEVEL",
    "GPU_CORE_UTILIZATION_POLICY",
    "ACTIVE_OOM_KILLER",
    "RECORD_KERNEL_INTERVAL",
    "LD_PRELOAD",
    "LD_LIBRARY_PATH",
    "LD_AUDIT",
    "GSHARE_SESSION_ID",
    "GSHARE_ACCESS_TOKEN",
    "nvidia_visible_devices",
]
USERS_OWN = ["TZ", "PATH", "HOME", "PYTHONPATH", "HF_HOME", "OMP_NUM_THREADS", "CUDA_LAUNCH_BLOCKING", "JUPYTER_TOKEN"]


@pytest.mark.parametrize("name", GPU_STACK)
def test_every_variable_the_gpu_stack_reads_is_refused_naming_the_field(name: str) -> None:
    with pytest.raises(SessionError) as refused:
        check_environment({"TZ": "UTC", name: "x"})
    assert (refused.value.code, refused.value.field) == (SessionErrorCode.ENV_RESERVED, "env")
    assert name in refused.value.message
    assert without_reserved({name: "x"}) == {}


@pytest.mark.parametrize("name", USERS_OWN)
def test_a_users_own_variables_pass(name: str) -> None:
    check_environment({name: "1"})
    assert without_reserved({name: "1"}) == {name: "1"}


@pytest.mark.parametrize("name", ["", "1ABC", "A-B", "A=B", "ÄBC", "A B"])
def test_a_malformed_name_is_refused_naming_the_field(name: str) -> None:
    with pytest.raises(InvalidValueError) as refused:
        check_environment({name: "1"})
    assert refused.value.field == "env"


def test_a_name_may_start_with_an_underscore() -> None:
    check_environment({"_MY_VAR": "1", "_x": "2"})
    assert is_variable_name("_") and is_variable_name("_a1") and not is_variable_name("1_a")

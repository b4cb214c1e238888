"""The node agent's parts: cgroup paths and numbers, the recorded exporters' text, the poster's
bounded buffer and backoff, its settings."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from gshare_agent import cgroups, gpu
from gshare_agent.sender import BACKOFF_MAX, MAX_MERGED, UsagePoster
from gshare_agent.settings import load_settings
from gshare_agent.transport import HttpError, Response

from tests.support.telemetry import MIB, cgroup_root, recorded, set_counters, write_pod_cgroup

UID = "8a3e0f7c-1b2d-4c5e-9f60-7a8b9c0d1e2f"


@pytest.mark.parametrize(
    ("driver", "qos", "runtime", "expected"),
    [
        ("systemd", "guaranteed", "containerd", f"kubepods.slice/kubepods-pod{UID.replace('-', '_')}.slice"),
        (
            "systemd",
            "burstable",
            "crio",
            f"kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod{UID.replace('-', '_')}.slice",
        ),
        ("cgroupfs", "besteffort", "containerd", f"kubepods/besteffort/pod{UID}"),
        ("cgroupfs", "guaranteed", "crio", f"kubepods/pod{UID}"),
        (
            "kind",
            "burstable",
            "containerd",
            "kubelet.slice/kubelet-kubepods.slice/kubelet-kubepods-burstable.slice/"
            f"kubelet-kubepods-burstable-pod{UID.replace('-', '_')}.slice",
        ),
    ],
)
def test_a_pods_cgroup_is_found_from_its_uid_for_each_driver_and_runtime(
    tmp_path: Path, driver: str, qos: str, runtime: str, expected: str
) -> None:
    root = cgroup_root(tmp_path)
    write_pod_cgroup(
        root, UID, driver=driver, qos=qos, runtime=runtime, usage_usec=5, memory_current=3 * MIB, inactive_file=MIB
    )
    # another pod's cgroup beside it is never taken for this one
    write_pod_cgroup(
        root,
        "0" * 8 + UID[8:],
        driver=driver,
        qos=qos,
        runtime=runtime,
        usage_usec=1,
        memory_current=1,
        inactive_file=0,
    )
    found = cgroups.CgroupLocator(str(root)).find(UID)
    assert found == str(root / expected)
    reading = cgroups.read(found)
    assert (reading.usage_usec, reading.memory_current, reading.working_set) == (5, 3 * MIB, 2 * MIB)


def test_a_pod_without_a_cgroup_is_not_found_and_a_v1_node_is_refused_saying_so(tmp_path: Path) -> None:
    root = cgroup_root(tmp_path)
    assert cgroups.CgroupLocator(str(root)).find(UID) is None
    v1 = tmp_path / "v1"
    (v1 / "cpu,cpuacct").mkdir(parents=True)
    with pytest.raises(cgroups.CgroupV1, match="cgroup v1 is not supported"):
        cgroups.check_v2(str(v1))
    cgroups.check_v2(str(root))


def test_millicores_are_the_usage_delta_over_the_elapsed_time() -> None:
    a = cgroups.CgroupReading(1_000_000, 0, 0)
    assert cgroups.millicores(a, cgroups.CgroupReading(1_500_000, 0, 0), 2.0) == 250
    assert cgroups.millicores(a, cgroups.CgroupReading(5_000_000, 0, 0), 1.0) == 4000
    assert cgroups.millicores(a, cgroups.CgroupReading(900_000, 0, 0), 1.0) == 0  # a new cgroup, same UID
    assert cgroups.millicores(a, a, 0.0) == 0


def test_the_recorded_hami_and_dcgm_text_gives_per_pod_gpu_numbers() -> None:
    legacy = gpu.from_hami(recorded("hami_vgpu_monitor_legacy.prom"))
    assert legacy == {("gshare-sessions", "s-hami-a"): gpu.PodGpu(99.0, 2012)}
    current = gpu.from_hami(recorded("hami_vgpu_monitor.prom"))
    assert current == {("gshare-sessions", "s-hami-b"): gpu.PodGpu(21.0, 4000)}
    dcgm = gpu.from_dcgm(recorded("dcgm_exporter.prom"))
    assert dcgm == {("gshare-sessions", "s-dcgm-c"): gpu.PodGpu(78.0, 12792)}  # the free GPU names no pod
    # a pod both name: HAMi's per-container share wins over the whole card
    both = gpu.merged(
        {("ns", "p"): gpu.PodGpu(10.0, 1)}, {("ns", "p"): gpu.PodGpu(90.0, 9), ("ns", "q"): gpu.PodGpu(5.0, 2)}
    )
    assert both == {("ns", "p"): gpu.PodGpu(10.0, 1), ("ns", "q"): gpu.PodGpu(5.0, 2)}


def test_dcgm_on_mig_reports_the_graphics_engine_activity_as_a_percentage() -> None:
    text = (
        "# HELP DCGM_FI_PROF_GR_ENGINE_ACTIVE Ratio of time the graphics engine is active.\n"
        "# TYPE DCGM_FI_PROF_GR_ENGINE_ACTIVE gauge\n"
        'DCGM_FI_PROF_GR_ENGINE_ACTIVE{gpu="0",UUID="GPU-1",GPU_I_PROFILE="1g.10gb",GPU_I_ID="7",'
        'namespace="gshare-sessions",pod="s-mig",container="session"} 0.375\n'
    )
    assert gpu.from_dcgm(text) == {("gshare-sessions", "s-mig"): gpu.PodGpu(37.5, 0)}


class FakeOrigin:
    """Answers in turn (an int: that status; an exception: raised)."""

    def __init__(self, answers: list[Any]) -> None:
        self.answers = answers
        self.bodies: list[dict[str, Any]] = []

    def request(self, method: str, path: str, body: bytes | None = None, headers: Any = None) -> Response:
        assert (method, path) == ("POST", "/usage")
        assert headers["Authorization"] == f"Bearer signed:{len(body or b'')}"
        self.bodies.append(json.loads(body or b"{}"))
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return Response(answer, b"{}")


class FakeSigner:
    cluster_id = "c1"

    def sign(self, body: bytes) -> str:
        return f"signed:{len(body)}"


def _poster(answers: list[Any], capacity: int = 3) -> tuple[UsagePoster, FakeOrigin]:
    origin = FakeOrigin(answers)
    return UsagePoster(origin, FakeSigner(), "gpu-1", capacity=capacity, jitter=lambda: 1.0), origin  # type: ignore[arg-type]


def test_the_poster_keeps_a_bounded_buffer_while_the_control_plane_is_away_then_sends_it_in_one_post() -> None:
    poster, origin = _poster([HttpError("refused"), 503, 202])
    for second in range(5):
        poster.submit([{"sessionId": "s", "second": second}])
    assert poster.waiting == 3 and poster.dropped_batches == 2  # the oldest two are gone
    assert not poster.send_waiting() and poster.backoff() == 0.5
    assert not poster.send_waiting() and poster.backoff() == 1.0
    assert poster.send_waiting() and poster.backoff() == 0.0
    assert poster.waiting == 0 and poster.sent_batches == 3
    last = origin.bodies[-1]
    assert (last["type"], last["cluster"], last["node"]) == ("usage", "c1", "gpu-1")
    assert [s["second"] for s in last["samples"]] == [2, 3, 4]


def test_backoff_doubles_to_its_cap_and_a_refusal_drops_the_batch() -> None:
    poster, _ = _poster([500] * 12 + [400])
    poster.submit([{"sessionId": "s"}])
    waits = []
    for _ in range(12):
        assert not poster.send_waiting()
        waits.append(poster.backoff())
    assert waits[:4] == [0.5, 1.0, 2.0, 4.0] and max(waits) == BACKOFF_MAX
    assert poster.send_waiting()  # 400: refused for good, not retried
    assert poster.waiting == 0 and poster.refused_batches == 1 and poster.sent_batches == 0


def test_at_most_max_merged_batches_go_in_one_post() -> None:
    poster, origin = _poster([202, 202], capacity=MAX_MERGED + 5)
    for second in range(MAX_MERGED + 5):
        poster.submit([{"second": second}])
    assert poster.send_waiting() and poster.waiting == 5
    assert poster.send_waiting() and poster.waiting == 0
    assert [len(b["samples"]) for b in origin.bodies] == [MAX_MERGED, 5]


def test_settings_from_arguments_and_environment() -> None:
    env = {
        "GSHARE_CLUSTER_ID": "c1",
        "NODE_NAME": "gpu-1",
        "GSHARE_CALLBACK_URL": "https://cp/callbacks",
        "GSHARE_CALLBACK_KEY_PATH": "/k.pem",
        "GSHARE_AGENT_INTERVAL": "0.5",
        "GSHARE_AGENT_BUFFER_SECONDS": "30",
    }
    s = load_settings(["--cgroup-root", "/host/sys/fs/cgroup"], env)
    assert (s.cluster_id, s.node_name, s.interval, s.buffer_seconds, s.cgroup_root) == (
        "c1",
        "gpu-1",
        0.5,
        30,
        "/host/sys/fs/cgroup",
    )
    with pytest.raises(SystemExit, match="--private-key / \\$GSHARE_CALLBACK_KEY_PATH"):
        load_settings([], {k: v for k, v in env.items() if k != "GSHARE_CALLBACK_KEY_PATH"})


def test_a_pods_cgroup_files_stay_open_and_are_read_again_each_tick(tmp_path: Path) -> None:
    root = cgroup_root(tmp_path)
    d = write_pod_cgroup(
        root,
        UID,
        driver="systemd",
        qos="burstable",
        runtime="containerd",
        usage_usec=5,
        memory_current=3 * MIB,
        inactive_file=MIB,
    )
    files = cgroups.PodFiles(str(d))
    try:
        assert files.read() == cgroups.CgroupReading(5, 3 * MIB, MIB)
        set_counters(d, usage_usec=123_456_789, memory_current=7 * MIB, inactive_file=0)
        assert files.read() == cgroups.CgroupReading(123_456_789, 7 * MIB, 0)
    finally:
        files.close()


def test_the_scraper_parses_a_series_once_and_reads_its_new_value_each_scrape(monkeypatch: pytest.MonkeyPatch) -> None:
    text = recorded("hami_vgpu_monitor_legacy.prom")
    scraper = gpu.hami_scraper()
    first = scraper(text)
    assert first[("gshare-sessions", "s-hami-a")] == gpu.PodGpu(99.0, 2012)
    parsed: list[str] = []
    real = gpu._text_parser

    def counting() -> Any:
        parse = real()
        return lambda s: (parsed.append(s), parse(s))[1]

    monkeypatch.setattr(gpu, "_text_parser", counting)
    busier = text.replace("} 99", "} 37").replace("} 2.109867008e+09", "} 1.048576e+09")
    assert scraper(busier)[("gshare-sessions", "s-hami-a")] == gpu.PodGpu(37.0, 1000)
    assert parsed == []  # the same series: only their values were read
    # a new series (another pod, a label value holding a brace and an escaped quote) is parsed
    extra = 'vGPU_device_memory_usage_in_bytes{ctrname="c}\\"",deviceuuid="GPU-x",podname="s-new",podnamespace="ns",vdeviceid="0",zone="vGPU"} 1048576\n'
    assert scraper(busier + extra)[("ns", "s-new")] == gpu.PodGpu(0.0, 1)
    assert len(parsed) == 1
    # and the whole text's families other than the wanted ones are never parsed
    assert gpu.from_hami(text) == first

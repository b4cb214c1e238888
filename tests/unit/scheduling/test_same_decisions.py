"""The placement policies choose exactly what the reference code chose.

`same_decisions.txt` holds every decision the policies made at commit 56ed19e (the code
before the speed work of issue 17) on two seeded streams: the FGD bench's cluster at a
twentieth of its size, filled past its capacity and then churned (places and releases),
and a mixed inventory (HAMi, exclusive, time-sliced and MIG cards, CPU-only nodes, two
clusters, cordons) with fractional, forced, whole-card, time-slice, class-of-cards and
CPU-only requests. A faster policy or index must reproduce it line for line.

    python -m tests.unit.scheduling.test_same_decisions --write   # re-record (only when a
                                                                  # decision change is meant)
"""

from __future__ import annotations

import hashlib
import random
import sys
from collections.abc import Iterator
from pathlib import Path

from domain.inventory.model import Card, Cluster, GpuKind, Inventory, MigInstance, MigProfile, Node, SharingMode
from domain.scheduling.model import CPU_QUEUE, GpuRequest, ModelChoice
from domain.scheduling.policies import POLICIES
from domain.scheduling.scheduler import Scheduler
from tests.bench.workload import Workload, cluster

RECORD = Path(__file__).with_name("same_decisions.txt")
FULL_BENCH_DIGEST = "1faf26d49a71031de8b146bb3b8826ef5178ecead5c03184056f0b59cfa2b353"  # at 56ed19e
MODELS = {"A": (81920, 100), "B": (24576, 100), "C": (46068, 100)}
MIG_LAYOUTS = (
    ("1g.10gb",) * 7,
    ("3g.40gb", "2g.20gb", "1g.10gb", "1g.10gb"),
    ("4g.40gb", "3g.40gb"),
)


def _line(s: Scheduler, step: int, request: GpuRequest) -> str:
    a = s.place(request)
    if a is None:
        return f"{step} {request.workload_id} -"
    p = a.placement
    cards = ",".join(sh.card_uuid + (f"/{sh.mig_instance_id}" if sh.mig_instance_id else "") for sh in p.shares)
    kind = "cpu" if p.kind is None else p.kind.value
    return f"{step} {request.workload_id} {p.node_id} {kind} {p.model or ''} {cards}"


def bench_stream(policy: str, seed: int = 11, scale: float = 0.05, churn: int = 1500) -> Iterator[str]:
    inventory = cluster(policy, scale)
    s = Scheduler(inventory)
    total = sum(len(n.cards) for n in inventory.nodes)
    workload = Workload(seed)
    rng = random.Random(seed)
    live: list[str] = []
    asked = 0.0
    step = 0
    while asked < 1.3 * total:
        request, gpus = workload.next()
        asked += gpus
        line = _line(s, step, request)
        if not line.endswith(" -"):
            live.append(request.workload_id)
        yield line
        step += 1
    for _ in range(churn):
        if rng.random() < 0.5 and live:
            i = rng.randrange(len(live))
            live[i], live[-1] = live[-1], live[i]
            s.release(live.pop())
        else:
            request = workload.next()[0]
            line = _line(s, step, request)
            if not line.endswith(" -"):
                live.append(request.workload_id)
            yield line
        step += 1


def mixed_inventory(policy: str, rng: random.Random) -> Inventory:
    nodes = []
    for n in range(60):
        mode = rng.choice([SharingMode.HAMI, SharingMode.HAMI, SharingMode.EXCLUSIVE, SharingMode.TIMESLICING])
        cards = []
        n_cards = 0 if n % 10 == 9 else rng.choice([1, 2, 4, 8])
        model = rng.choice(sorted(MODELS))
        for c in range(n_cards):
            vram, cores = MODELS[model]
            uuid = f"n{n}g{c}"
            migs: tuple[MigInstance, ...] = ()
            if model == "A" and mode is not SharingMode.TIMESLICING and rng.random() < 0.3:
                layout = rng.choice(MIG_LAYOUTS)
                migs = tuple(MigInstance(f"{uuid}m{i}", MigProfile.parse(p)) for i, p in enumerate(layout))
            replicas = rng.choice([2, 4]) if mode is SharingMode.TIMESLICING else 1
            cards.append(Card(uuid, model, vram, cores, migs, replicas))
        cpu = rng.choice([16_000, 32_000, 64_000, 128_000])
        mem = rng.choice([65_536, 262_144, 524_288])
        nodes.append(Node(f"n{n}", f"n{n}", f"c{n % 2}", mode, cpu, mem, tuple(cards)))
    return Inventory((Cluster("c0", "c0", policy), Cluster("c1", "c1", policy)), tuple(nodes))


def mixed_request(rng: random.Random, wid: str) -> GpuRequest:
    model = rng.choice(sorted(MODELS))
    vram, _ = MODELS[model]
    kind = rng.choice(["fraction", "fraction", "fraction", "exclusive", "shared", "forced", "cpu", "any", "any"])
    cpu = rng.choice([0, 1000, 2000, 4000, 8000, 16000])
    mem = rng.choice([0, 4096, 16384, 65536])
    clusters = rng.choice([None, None, None, frozenset({"c0"}), frozenset({"c1"})])
    if kind == "cpu":
        return GpuRequest(wid, CPU_QUEUE, cpu_only=True, cpu_millicores=cpu, memory_mib=mem, clusters=clusters)
    if kind == "any":
        num, den = rng.choice([(1, 2), (1, 4), (1, 8), (3, 10)])
        exclusive = rng.choice([0, 0, 1, 2])
        models = sorted(rng.sample(sorted(MODELS), rng.choice([2, 3])))
        choices = tuple(
            ModelChoice(
                m,
                0 if exclusive else MODELS[m][0] * num // den,
                0 if exclusive else 100 * num // den,
                1000 * (i + 1),
            )
            for i, m in enumerate(models)
        )
        return GpuRequest(
            wid,
            "any",
            vram_mib=choices[0].vram_mib,
            cores=choices[0].cores,
            exclusive_cards=exclusive,
            cpu_millicores=cpu,
            memory_mib=mem,
            clusters=clusters,
            choices=choices,
        )
    if kind == "exclusive":
        return GpuRequest(
            wid, model, exclusive_cards=rng.choice([1, 1, 2, 4]), cpu_millicores=cpu, memory_mib=mem, clusters=clusters
        )
    if kind == "shared":
        return GpuRequest(wid, model, shared=True, cpu_millicores=cpu, memory_mib=mem, clusters=clusters)
    share = rng.choice([5, 10, 20, 25, 30, 50, 75])
    forced = rng.choice([GpuKind.HAMI, GpuKind.MIG]) if kind == "forced" else None
    return GpuRequest(
        wid,
        model,
        vram_mib=vram * share // 100,
        cores=share,
        cpu_millicores=cpu,
        memory_mib=mem,
        clusters=clusters,
        forced_kind=forced,
    )


def mixed_stream(policy: str, seed: int = 5, steps: int = 2500) -> Iterator[str]:
    rng = random.Random(seed)
    s = Scheduler(mixed_inventory(policy, rng))
    live: list[str] = []
    for step in range(steps):
        roll = rng.random()
        if roll < 0.35 and live:
            i = rng.randrange(len(live))
            live[i], live[-1] = live[-1], live[i]
            s.release(live.pop())
        elif roll < 0.37:
            node = f"n{rng.randrange(60)}"
            s.set_cordoned(node, rng.random() < 0.5)
        else:
            request = mixed_request(rng, f"w{step}")
            line = _line(s, step, request)
            if not line.endswith(" -"):
                live.append(request.workload_id)
            yield line


def full_bench_digest(decisions: int = 5300) -> str:
    """The first decisions of the fragmentation-aware policy on the bench's full cluster (seed
    107): a place there depends on the order each index bucket saw its members come and go
    (`lowest_passing` looks at the first heap entries), which the small streams above do not
    reach (decision 5203 differed when buckets were kept as sorted lists)."""
    inventory = cluster("fragmentation-aware", 1.0)
    s = Scheduler(inventory)
    workload = Workload(107)
    digest = hashlib.sha256()
    for step in range(decisions):
        digest.update((_line(s, step, workload.next()[0]) + "\n").encode())
    return digest.hexdigest()


def record() -> list[str]:
    lines: list[str] = []
    for policy in sorted(POLICIES):
        lines.append(f"# bench {policy}")
        lines.extend(bench_stream(policy))
        lines.append(f"# mixed {policy}")
        lines.extend(mixed_stream(policy))
    return lines


def test_every_policy_decides_as_the_reference_did() -> None:
    expected = RECORD.read_text().splitlines()
    got = record()
    for i, (want, have) in enumerate(zip(expected, got, strict=False)):
        assert have == want, f"decision {i} differs: expected {want!r}, got {have!r}"
    assert len(got) == len(expected)
    assert sum(1 for line in got if not line.endswith(" -") and not line.startswith("#")) > 8_000


def test_the_full_bench_cluster_decides_as_the_reference_did() -> None:
    assert full_bench_digest() == FULL_BENCH_DIGEST


# Digests of further seeded streams as the code at 707ce0b decided them (the speed work of
# issue 17 must keep every decision): the mixed inventory at three more seeds for every policy
# (1,500 steps), and the bench's cluster at a tenth of its size for the fragmentation-aware
# policy at two more seeds (filled past capacity, then 2,000 places and releases).
MORE_DIGESTS: dict[tuple[str, str, int], str] = {
    ("mixed", "best-fit", 23): "c23df241b03a83179eb725698f7fcd492d1a8a6c80b564a200ee438ce774f022",
    ("mixed", "first-fit", 23): "9f6f2b10a7e823cc8850be7d8c028a6061b2f229be7544d5ae518536b9c2705f",
    ("mixed", "fragmentation-aware", 23): "19577398b3805f20a2c12139ede121fb7dd9a3f552a4cd884b58b7c891a227ab",
    ("mixed", "gpu-packing", 23): "ccf1e5f4d3b10163dd6c96b2156bb2d6d149f5b0d3f190015cd7056bed341200",
    ("mixed", "best-fit", 41): "36c8b8a8bd815e9c1487bbe5c9a7c595c2efdf8f0d68222fc94766cb3fd4354c",
    ("mixed", "first-fit", 41): "c05f584e9d17d85966c1728940ea57d6fda3fd6aebb89177c940997345032113",
    ("mixed", "fragmentation-aware", 41): "48fda616cb25b10b7a8bbc415e1d4b96e8624dc11684f0406c39013f7bbb4737",
    ("mixed", "gpu-packing", 41): "e4252de09cc1104e5cf1e5a9f6f7a9d43110404b74f845318debd956a4e7d3ce",
    ("mixed", "best-fit", 59): "5d80d195c80761755ab38042637ec3800685d4c667cbba9a180a55f7f47d4a9c",
    ("mixed", "first-fit", 59): "a01d4cbd0d9b91b377c3a69fe73cf6eb0a7bd66660421ebf65f445a297e9c467",
    ("mixed", "fragmentation-aware", 59): "afe30c99c01839c4e315218c546eb2eb80460005b5b4ef3047915ac69426fc46",
    ("mixed", "gpu-packing", 59): "bb2a86e6e565fc4d36f3a6a3acf3d1cb184400257660ab50be5a8885efe82ef7",
    ("bench", "fragmentation-aware", 31): "55fcdd0193ea50ce8352a73500adf293a5fa4fb7fe67cc2016123b645532f9fb",
    ("bench", "fragmentation-aware", 73): "267d39b8d8e66d8f6c33cfe1c6be7677a548a0842dcd56093c86cce046164b4f",
}


def _digest(lines: Iterator[str]) -> str:
    digest = hashlib.sha256()
    for line in lines:
        digest.update((line + "\n").encode())
    return digest.hexdigest()


def more_digests() -> dict[tuple[str, str, int], str]:
    out: dict[tuple[str, str, int], str] = {}
    for stream, policy, seed in MORE_DIGESTS:
        if stream == "mixed":
            out[(stream, policy, seed)] = _digest(mixed_stream(policy, seed, 1500))
        else:
            out[(stream, policy, seed)] = _digest(bench_stream(policy, seed, 0.1, 2000))
    return out


def test_more_seeded_streams_decide_as_the_reference_did() -> None:
    got = more_digests()
    differ = sorted(k for k, v in MORE_DIGESTS.items() if got[k] != v)
    assert not differ, f"decisions differ on {differ}"


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        RECORD.write_text("\n".join(record()) + "\n")

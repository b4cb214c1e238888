"""Placement benchmark: naive first-fit vs best fit vs fragmentation-aware, in one run.

    python -m tests.bench.placement            # 1,000 nodes × 8 cards, 20,000 events
    python -m tests.bench.placement --quick    # a small smoke run
    python -m tests.bench.placement --seeds 5  # five seeds (7, 107, …): mean ± sd [min–max]

Inventory: one cluster of mixed nodes (50 % HAMi A100-80GB, 15 % H100 with four MIG cards
and four whole cards, 15 % time-sliced A30 with 4 replicas, 20 % exclusive H100). Requests:
the four tiers, custom presets (VRAM-heavy, compute-heavy, random shares), whole-card
sessions and jobs of 1–8 cards, and time-slices.

Rates are decisions per CPU-second of this process (`time.process_time`), so that other
processes sharing the machine do not distort them; the best of several runs is kept.

Printed per policy:
* decisions/s while replaying the trace (place and release events; the loop is timed whole);
* filling run (no releases, same request stream for every policy): share of GPU capacity
  allocated when the first request fails, and the GPUs left unallocated when the cluster is
  full (the stream keeps failing); capacity is counted physically: a HAMi card is used by
  max(VRAM share, core share), a MIG card by its taken instances' compute slices, a
  time-sliced card by taken slices / replicas, an exclusive card wholly;
* unallocatable GPUs (the fragmentation target): in the filling run, per model, the free
  capacity left when arrivals reach the cluster's size that requests refused although the
  model's free total would have sufficed could have used, i.e. min(demand refused with room,
  free capacity), each free GPU counted once (see `fill`); beside it the same with free
  capacity counted card by card, and the earlier flow figure (refused demand summed over
  refusals), which counts the same stranded GPUs once per refused request;
* requests that failed during the replay while the model's total free capacity of a usable
  kind would have sufficed (they would have had to queue because of fragmentation);
and, for best fit, decisions/s at 10× the cards (both sizes measured in steady state after
filling to the same utilisation).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from domain.inventory.model import (
    Card,
    Cluster,
    Inventory,
    MigInstance,
    MigProfile,
    Node,
    SharingMode,
)
from domain.scheduling.model import GpuRequest, RequestMode
from domain.scheduling.scheduler import Scheduler

POLICIES = ("first-fit", "best-fit", "fragmentation-aware")
A100, H100, A30 = "A100-80GB", "H100-80GB", "A30-24GB"
VRAM_80G, VRAM_24G = 81920, 24576
MIG_LAYOUTS = (
    ("1g.10gb",) * 7,
    ("3g.40gb", "2g.20gb", "1g.10gb", "1g.10gb"),
    ("4g.40gb", "3g.40gb"),
)


def build_inventory(nodes: int, cards_per_node: int, policy: str) -> Inventory:
    out: list[Node] = []
    for i in range(nodes):
        slot = i % 20  # 10 HAMi, 3 MIG, 3 time-sliced, 4 exclusive in every 20 nodes
        nid = f"n{i:05d}"
        cards: list[Card] = []
        if slot < 10:
            mode = SharingMode.HAMI
            cards = [Card(f"{nid}-g{j}", A100, VRAM_80G) for j in range(cards_per_node)]
        elif slot < 13:
            mode = SharingMode.EXCLUSIVE
            for j in range(cards_per_node):
                layout = MIG_LAYOUTS[(i + j) % len(MIG_LAYOUTS)] if j < cards_per_node // 2 else ()
                migs = tuple(MigInstance(f"{nid}-g{j}-m{k}", MigProfile.parse(p)) for k, p in enumerate(layout))
                cards.append(Card(f"{nid}-g{j}", H100, VRAM_80G, mig_instances=migs))
        elif slot < 16:
            mode = SharingMode.TIMESLICING
            cards = [Card(f"{nid}-g{j}", A30, VRAM_24G, timeslice_replicas=4) for j in range(cards_per_node)]
        else:
            mode = SharingMode.EXCLUSIVE
            cards = [Card(f"{nid}-g{j}", H100, VRAM_80G) for j in range(cards_per_node)]
        out.append(Node(nid, nid, "bench", mode, 256_000, 2_097_152, tuple(cards)))
    return Inventory((Cluster("bench", "bench", policy),), tuple(out))


TIERS = ((40960, 50), (20480, 25), (10240, 12), (5120, 6))
CUSTOM = ((30720, 10), (8192, 40), (49152, 15), (12288, 45))


def make_request(rng: random.Random, wid: str) -> GpuRequest:
    """One request from the benchmark's mix, weighted so that each model's demand is close
    to its share of the cluster (A100 52 %, H100 22 %, A30 26 % of requests)."""
    roll = rng.random()
    cpu, mem = 2000, 8192
    if roll < 0.52:
        kind = rng.random()
        if kind < 0.5:
            v, c = rng.choice(TIERS)
        elif kind < 0.8:  # admins' custom presets, and one-off custom shares
            if rng.random() < 0.6:
                v, c = rng.choice(CUSTOM)
            else:
                v, c = rng.randrange(2, 60) * 1024, rng.randrange(5, 70)
        else:
            n = rng.choice((1, 1, 1, 2, 2, 4, 8))
            return GpuRequest(wid, A100, exclusive_cards=n, cpu_millicores=cpu * n, memory_mib=mem)
        return GpuRequest(wid, A100, vram_mib=v, cores=c, cpu_millicores=cpu, memory_mib=mem)
    if roll < 0.74:
        if rng.random() < 0.55:  # H100 fractions run on MIG: no half-card (XL) profile fits them
            v, c = rng.choice(TIERS[1:])
            return GpuRequest(wid, H100, vram_mib=v, cores=c, cpu_millicores=cpu, memory_mib=mem)
        n = rng.choice((1, 1, 1, 2, 2, 4, 8))
        return GpuRequest(
            wid,
            H100,
            exclusive_cards=n,
            cpu_millicores=cpu * n,
            memory_mib=mem,
            is_job=rng.random() < 0.3,
        )
    return GpuRequest(wid, A30, shared=True, cpu_millicores=cpu, memory_mib=mem)


Event = tuple[str, str, GpuRequest | None]


def make_trace(events: int, seed: int) -> list[Event]:
    """Places and releases; a release names a random earlier place (policy-independent).
    Placement-heavy for the first 60 % (the cluster fills up), then balanced churn."""
    rng = random.Random(seed)
    live: list[str] = []
    trace: list[Event] = []
    n = 0
    for i in range(events):
        p_place = 0.9 if i < events * 0.6 else 0.5
        if live and rng.random() >= p_place:
            wid = live.pop(rng.randrange(len(live)))
            trace.append(("release", wid, None))
        else:
            wid = f"w{n}"
            n += 1
            live.append(wid)
            trace.append(("place", wid, make_request(rng, wid)))
    return trace


def allocated_gpus(s: Scheduler) -> tuple[float, int]:
    """(GPUs in use, GPUs in total), counted physically (see the module docstring)."""
    total = 0
    used = 0.0
    for node in s.inventory.nodes:
        for card in node.cards:
            total += 1
            vram, cores, slices = s.card_free(card.uuid)
            if card.mig_enabled:
                used += sum(m.profile.compute_slices / 7 for m in card.mig_instances if s.mig_tenant(m.id) is not None)
            elif node.sharing_mode is SharingMode.TIMESLICING:
                used += (card.timeslice_replicas - slices) / card.timeslice_replicas
            else:
                used += max(1 - vram / card.vram_mib, 1 - cores / card.cores)
    return used, total


def would_have_fit(s: Scheduler, r: GpuRequest) -> bool:
    """Would the model's free capacity of a kind the request may use, summed over the
    cluster, have sufficed? For whole cards, partly used HAMi cards count by their free
    share: capacity scattered over them is exactly what fragmentation withholds."""
    free = s.free_summary(r.offering)
    hami_cards = min(free.hami_vram_mib / VRAM_80G, free.hami_cores / 100)
    if r.mode is RequestMode.EXCLUSIVE:
        return free.whole_cards - free.hami_whole_cards + hami_cards >= r.cards_wanted
    if r.mode is RequestMode.SHARED:
        return free.timeslices >= 1
    hami = free.hami_vram_mib >= r.vram_mib and free.hami_cores >= r.cores
    mig_vram = sum(MigProfile.parse(p).vram_mib * n for p, n in free.mig_instances.items())
    return hami or (free.mig_instances != {} and mig_vram >= r.vram_mib)


@dataclass
class ReplayResult:
    events: int
    seconds: float
    failed: int
    failed_with_room: int

    @property
    def rate(self) -> float:
        return self.events / self.seconds if self.seconds else 0.0


def replay(inventory: Inventory, trace: list[Event], repeat: int = 3) -> ReplayResult:
    """Replay the trace `repeat` times on fresh schedulers; the fastest run is reported
    (other processes share the machine). Failures are then recounted, untimed, with the
    free capacity each failing request saw."""
    best = float("inf")
    failed: set[str] = set()
    for _ in range(repeat):
        s = Scheduler(inventory)
        failed = set()
        placed: set[str] = set()
        start = time.process_time()
        for op, wid, request in trace:
            if op == "place":
                assert request is not None
                if s.place(request) is None:
                    failed.add(wid)
                else:
                    placed.add(wid)
            elif wid in placed:
                s.release(wid)
                placed.discard(wid)
        best = min(best, time.process_time() - start)
    s = Scheduler(inventory)
    with_room = 0
    for op, wid, request in trace:
        if op == "place":
            assert request is not None
            if wid in failed:
                with_room += would_have_fit(s, request)
            else:
                s.place(request)
        elif wid not in failed:
            s.release(wid)
    return ReplayResult(len(trace), best, len(failed), with_room)


def demand(r: GpuRequest) -> float:
    """What a request asks for in GPU-equivalents (its ratio)."""
    if r.mode is RequestMode.EXCLUSIVE:
        return float(r.cards_wanted)
    if r.mode is RequestMode.SHARED:
        return 0.25
    return max(r.vram_mib / VRAM_80G, r.cores / 100)


def free_capacity(s: Scheduler, model: str) -> float:
    """The model's free capacity in GPU-equivalents, in the measure `would_have_fit` uses:
    whole free cards, scattered HAMi capacity by the smaller of its summed VRAM and core
    shares, free MIG instances by compute slices / 7, free time-slices / replicas."""
    free = s.free_summary(model)
    size = next(((c.vram_mib, c.cores) for n in s.inventory.nodes for c in n.cards if c.model == model), (1, 1))
    replicas = max(
        (
            c.timeslice_replicas
            for n in s.inventory.nodes
            if n.sharing_mode is SharingMode.TIMESLICING
            for c in n.cards
            if c.model == model
        ),
        default=1,
    )
    hami = min(free.hami_vram_mib / size[0], free.hami_cores / size[1])
    mig = sum(MigProfile.parse(p).compute_slices / 7 * k for p, k in free.mig_instances.items())
    return free.whole_cards - free.hami_whole_cards + hami + mig + free.timeslices / replicas


def free_gpus_per_card(s: Scheduler) -> dict[str, float]:
    """Free GPUs per model counted card by card as `allocated_gpus` counts use (a HAMi card
    is free by the smaller of its free shares): capacity stranded in one dimension on a card
    whose other dimension is used up does not count here."""
    out: dict[str, float] = {}
    for node in s.inventory.nodes:
        for card in node.cards:
            vram, cores, slices = s.card_free(card.uuid)
            if card.mig_enabled:
                free = sum(m.profile.compute_slices / 7 for m in card.mig_instances if s.mig_tenant(m.id) is None)
            elif node.sharing_mode is SharingMode.TIMESLICING:
                free = slices / card.timeslice_replicas
            else:
                free = min(vram / card.vram_mib, cores / card.cores)
            out[card.model] = out.get(card.model, 0.0) + free
    return out


@dataclass
class FillResult:
    share_at_first_failure: float
    refused_with_room: float  # GPU-equivalents refused although the free total sufficed (a flow)
    unallocatable: float  # free GPU-equivalents left that refused requests could have used
    unallocatable_per_card: float  # the same, free capacity counted card by card
    unallocated: float  # GPUs still free when arrivals reach the cluster's size


def fill(inventory: Inventory, seed: int) -> FillResult:
    """The FGD paper's protocol: requests arrive (no releases; one that does not fit is
    dropped) until what has arrived adds up to the cluster's GPU count.

    Unallocatable GPUs, per model: the free capacity left at the end (`free_capacity`) that
    requests refused with room asked for, i.e. min(demand refused with room, free capacity).
    A GPU is counted once, not once per refused request: summing refused demand alone (the
    `refused_with_room` flow, still reported) counts the same stranded capacity again for
    every request that arrives after a pool is full, so it grows with how far arrivals
    overshoot the pool rather than with how fragmented the pool is."""
    s = Scheduler(inventory)
    rng = random.Random(seed)
    total = sum(len(n.cards) for n in inventory.nodes)
    first_share: float | None = None
    arrived = 0.0
    with_room: dict[str, float] = {}
    n = 0
    while arrived < total:
        request = make_request(rng, f"f{n}")
        n += 1
        arrived += demand(request)
        if s.place(request) is None:
            if first_share is None:
                first_share = allocated_gpus(s)[0] / total
            if would_have_fit(s, request):
                with_room[request.offering] = with_room.get(request.offering, 0.0) + demand(request)
    used, _ = allocated_gpus(s)
    per_card = free_gpus_per_card(s)
    return FillResult(
        first_share or 1.0,
        sum(with_room.values()),
        sum(min(d, free_capacity(s, m)) for m, d in with_room.items()),
        sum(min(d, per_card.get(m, 0.0)) for m, d in with_room.items()),
        total - used,
    )


def steady_rate(inventory: Inventory, seed: int, events: int, chunks: int = 5) -> float:
    """Decisions/s of balanced churn (place or release) after filling the cluster to ~80 %
    of its GPUs; the fastest of `chunks` consecutive slices is reported."""
    s = Scheduler(inventory)
    rng = random.Random(seed)
    live: list[str] = []
    total = sum(len(n.cards) for n in inventory.nodes)
    placed_demand = 0.0
    n = 0
    while placed_demand < 0.8 * total and n < 40 * total:
        request = make_request(rng, f"s{n}")
        n += 1
        if s.place(request) is not None:
            live.append(request.workload_id)
            placed_demand += demand(request)
    ops: list[tuple[GpuRequest | None, int]] = []
    for _ in range(events):
        if rng.random() < 0.5:
            ops.append((make_request(rng, f"s{n}"), 0))
            n += 1
        else:
            ops.append((None, rng.randrange(1 << 30)))
    size = max(1, len(ops) // chunks)
    best = 0.0
    for k in range(chunks):
        chunk = ops[k * size : (k + 1) * size]
        start = time.process_time()
        for op, pick in chunk:
            if op is not None:
                if s.place(op) is not None:
                    live.append(op.workload_id)
            elif live:
                i = pick % len(live)
                live[i], live[-1] = live[-1], live[i]
                s.release(live.pop())
        best = max(best, len(chunk) / (time.process_time() - start))
    return best


def run(
    nodes: int,
    events: int,
    seed: int,
    out: Callable[[str], None],
    fill_seeds: int = 10,
    scaling: bool = True,
    legend: bool = True,
) -> dict[str, dict[str, float]]:
    cards_per_node = 8
    trace = make_trace(events, seed)
    places = sum(1 for e in trace if e[0] == "place")
    out(
        f"inventory: {nodes} nodes × {cards_per_node} cards = {nodes * cards_per_node} GPUs "
        f"(50 % HAMi A100, 15 % MIG H100, 15 % time-sliced A30, 20 % exclusive H100)"
    )
    out(f"trace: {len(trace)} events ({places} places, {len(trace) - places} releases), seed {seed}")
    out(
        f"filling runs: {fill_seeds} request streams (seeds {seed + 1}–{seed + fill_seeds}), arrivals up to the cluster's GPU count"
    )
    out("")
    out(
        f"{'policy':<20}{'decisions/s':>12}{'queued':>8}{'w/ room':>9}{'alloc @1st fail':>17}"
        f"{'refused w/ room':>17}{'unallocatable':>15}{'per card':>10}{'free @100%':>12}"
    )
    results: dict[str, dict[str, float]] = {}
    for policy in POLICIES:
        inventory = build_inventory(nodes, cards_per_node, policy)
        r = replay(inventory, trace)
        fills = [fill(inventory, seed + 1 + k) for k in range(fill_seeds)]

        def mean(values: list[float]) -> float:
            return sum(values) / len(values)

        results[policy] = {
            "rate": r.rate,
            "failed": r.failed,
            "failed_with_room": r.failed_with_room,
            "share_at_first_failure": mean([f.share_at_first_failure for f in fills]),
            "refused_with_room_gpus": mean([f.refused_with_room for f in fills]),
            "unallocatable_gpus": mean([f.unallocatable for f in fills]),
            "unallocatable_per_card_gpus": mean([f.unallocatable_per_card for f in fills]),
            "unallocated_gpus": mean([f.unallocated for f in fills]),
        }
        m = results[policy]
        out(
            f"{policy:<20}{r.rate:>12,.0f}{r.failed:>8}{r.failed_with_room:>9}"
            f"{m['share_at_first_failure']:>17.1%}{m['refused_with_room_gpus']:>13.1f} GPU"
            f"{m['unallocatable_gpus']:>11.1f} GPU{m['unallocatable_per_card_gpus']:>6.1f} GPU"
            f"{m['unallocated_gpus']:>8.0f} GPU"
        )
    out("")
    if legend:
        out("decisions/s: place and release events of the trace per CPU-second of this process")
        out("queued: trace requests that did not fit when they arrived; w/ room: of those, the ones")
        out("  for which the model's total free capacity of a usable kind would have sufficed")
        out("refused w/ room: GPU-equivalents refused in the filling run although the model's free")
        out("  total would have sufficed, summed over refusals (counts the same free GPUs once per")
        out("  refused request, so it grows with arrivals after a pool is full), mean per run")
        out("unallocatable: the model's free GPU-equivalents left when arrivals reach the cluster's")
        out("  size that refused requests could have used (min of the two above, per model; each free")
        out("  GPU counted once): capacity that fragmentation made unusable, mean per run")
        out("per card: the same with free capacity counted card by card (a HAMi card's free = its")
        out("  smaller free share), i.e. not counting VRAM or cores stranded beside a used-up other half")
        out("free @100%: GPUs left free when arrivals reach the cluster's size (includes demand")
        out("  that went to other models' pools: not all of it is fragmentation)")
    gains = fewer_than_best_fit(results)
    out(
        f"fragmentation-aware vs best fit: {gains['unallocatable_gpus']:.0%} fewer unallocatable GPUs "
        f"(target ≥ 30 %); per card {gains['unallocatable_per_card_gpus']:.0%}; "
        f"refused w/ room {gains['refused_with_room_gpus']:.0%}"
    )
    if scaling:
        small = steady_rate(build_inventory(nodes, cards_per_node, "best-fit"), seed + 2, events)
        big = steady_rate(build_inventory(nodes * 10, cards_per_node, "best-fit"), seed + 2, events)
        results["scaling"] = {"rate_1x": small, "rate_10x": big, "ratio": big / small}
        out(
            f"best fit, steady state at ~80 % use: {small:,.0f} decisions/s with {nodes * cards_per_node} "
            f"GPUs, {big:,.0f}/s with {nodes * cards_per_node * 10} (×{big / small:.2f}; target > ×0.5)"
        )
    return results


def fewer_than_best_fit(results: dict[str, dict[str, float]]) -> dict[str, float]:
    """How much lower the fragmentation-aware policy's figures are than best fit's (0.3 = 30 %)."""
    bf, fa = results["best-fit"], results["fragmentation-aware"]
    keys = ("unallocatable_gpus", "unallocatable_per_card_gpus", "refused_with_room_gpus")
    return {k: 1 - fa[k] / bf[k] if bf[k] else 0.0 for k in keys}


def _spread(values: list[float]) -> str:
    mean = statistics.fmean(values)
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    return f"{mean:,.1f} ± {sd:,.1f} [{min(values):,.1f}–{max(values):,.1f}]"


def run_seeds(nodes: int, events: int, seeds: list[int], out: Callable[[str], None], fill_seeds: int) -> None:
    """The whole benchmark once per base seed (its own trace and filling streams); prints
    each run, then mean ± standard deviation [min–max] over the seeds. Scaling is measured
    with the first seed only."""
    runs: list[dict[str, dict[str, float]]] = []
    for k, seed in enumerate(seeds):
        out(f"== seed {seed} ==")
        runs.append(run(nodes, events, seed, out, fill_seeds, scaling=k == 0, legend=k == 0))
        out("")
    out(f"== over {len(seeds)} seeds {seeds}: mean ± sd [min–max] ==")
    metrics = (
        ("rate", "decisions/s"),
        ("unallocatable_gpus", "unallocatable GPUs"),
        ("unallocatable_per_card_gpus", "unallocatable GPUs, per card"),
        ("refused_with_room_gpus", "refused w/ room GPUs"),
        ("share_at_first_failure", "alloc @1st fail"),
    )
    for key, label in metrics:
        scale, unit = (100.0, " %") if key == "share_at_first_failure" else (1.0, "")
        out(f"{label}:")
        for policy in POLICIES:
            out(f"  {policy:<20}{_spread([scale * r[policy][key] for r in runs])}{unit}")
    out("fragmentation-aware vs best fit, fewer (per seed):")
    for key, label in metrics[1:4]:
        values = [100 * fewer_than_best_fit(r)[key] for r in runs]
        out(f"  {label:<30}{_spread(values)} %")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="placement benchmark")
    parser.add_argument("--quick", action="store_true", help="a small smoke run")
    parser.add_argument("--nodes", type=int, default=None)
    parser.add_argument("--events", type=int, default=None)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--seeds",
        default=None,
        help="run once per seed and report mean and spread: a comma-separated list (7,107,207) "
        "or a count N (seeds --seed, --seed+100, …; 100 apart so filling streams do not overlap)",
    )
    args = parser.parse_args(argv)
    nodes = args.nodes or (40 if args.quick else 1000)
    events = args.events or (1000 if args.quick else 20_000)
    fill_seeds = 3 if args.quick else 10
    if args.seeds is None:
        run(nodes, events, args.seed, print, fill_seeds=fill_seeds)
        return 0
    if "," in args.seeds:
        seeds = [int(x) for x in args.seeds.split(",") if x.strip()]
    else:
        seeds = [args.seed + 100 * k for k in range(int(args.seeds))]
    run_seeds(nodes, events, seeds, print, fill_seeds)
    return 0


if __name__ == "__main__":
    sys.exit(main())

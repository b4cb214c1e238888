"""A synthetic GPU-sharing cluster and workload in the shape of the FGD evaluation.

The setting follows "Beware of Fragmentation" (Weng et al., USENIX ATC '23), §6 and its
simulator (hkust-adsl/kubernetes-scheduler-simulator): one cluster of GPU nodes (no
CPU-only nodes: CPU-only tasks run beside GPU tasks), heterogeneous card models, tasks
that ask for a share of one GPU, one or several whole GPUs, or no GPU, and that may or may
not name the GPU model. Which figures are published and which are gshare's assumptions:

Published (cited):
* cluster size: "an emulated cluster comprising more than 6,200 GPUs" (abstract, §6); the
  simulator's example run (README "An example output") totals 6,212 GPUs, 107,018 vCPUs and
  528,302,452,244,480 bytes (≈ 492 TiB) of memory on the GPU nodes. The shapes below add up
  to 1,213 nodes, 6,212 GPUs, 106,688 vCPUs and ≈ 493 TiB;
* at most 8 GPUs and 128 vCPUs per node (simulator `MaxSpecGpu`, `MaxSpecCpu`), GPU models
  and their memory from the simulator's `MapGpuTypeMemoryMiB` (V100M16 16,160 MiB, V100M32
  32,510, P100 16,280, T4 15,109, A10 22,731, G2 20,000);
* task classes: CPU-only ("non-GPU"), GPU-sharing (a share of one GPU), one GPU, and 2, 4
  and 8 GPUs (the simulator's `GpuNumTypeList`), a minority naming a GPU model;
* the ranges the paper's sensitivity study sweeps (Figs. 11–14, per the simulator's
  `experiments/plot` scripts): GPU-sharing tasks 20–100 % of tasks, GPUs taken by multi-GPU
  tasks 20–50 %, GPUs taken by tasks with a GPU-type constraint 10–33 %, non-GPU tasks
  5–25 %. The defaults here sit inside those ranges (see `Mix`).

Assumed (the paper's per-task tables were not available to this workspace — the search
store holds its abstract and the simulator, not its full text): the split of nodes between
shapes, each shape's CPU and memory, the distribution of GPU shares, CPU and memory per
task. They are plausible for such a cluster, not measured: treat results as relative.

No production trace file is read: everything is drawn from the distributions below.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from domain.inventory.model import Card, Cluster, Inventory, Node, SharingMode
from domain.scheduling.model import CPU_QUEUE, GpuRequest, ModelChoice

GIB = 1024

# (model, VRAM MiB, GPUs per node, vCPUs, memory GiB, nodes)
SHAPES: tuple[tuple[str, int, int, int, int, int], ...] = (
    ("V100M16", 16160, 8, 96, 512, 300),
    ("V100M32", 32510, 8, 96, 512, 218),
    ("G2", 20000, 8, 128, 768, 96),
    ("P100", 16280, 4, 64, 256, 150),
    ("T4", 15109, 2, 64, 256, 251),
    ("A10", 22731, 1, 96, 320, 198),
)
MODELS = tuple(s[0] for s in SHAPES)
VRAM = {s[0]: s[1] for s in SHAPES}


def cluster(policy: str, scale: float = 1.0, mode: SharingMode = SharingMode.HAMI) -> Inventory:
    """The node shapes × `scale` (node counts rounded), all HAMi (GPU-sharing) nodes."""
    nodes: list[Node] = []
    for model, vram, gpus, cpus, mem, count in SHAPES:
        for i in range(max(1, round(count * scale))):
            nid = f"{model}-{i:05d}"
            cards = tuple(Card(f"{nid}-g{j}", model, vram) for j in range(gpus))
            nodes.append(Node(nid, nid, "fgd", mode, cpus * 1000, mem * GIB, cards))
    return Inventory((Cluster("fgd", "fgd", policy),), tuple(nodes))


@dataclass(frozen=True)
class Mix:
    """Task classes by share of all tasks, and how GPU tasks are drawn.

    Defaults: 10 % CPU-only (Fig. 14 sweeps 5–25 %); of GPU tasks, 45 % GPU-sharing
    (Fig. 11: 20–100 %); 2-, 4- and 8-GPU tasks at 4 %, 2 % and 1.5 % of GPU tasks, which
    gives them about 30 % of the GPUs asked for (Fig. 12: 20–50 %); 10 % of GPU tasks name
    one model (about 10 % of GPUs; Fig. 13: 10–33 %), the rest take any model."""

    cpu_only: float = 0.10
    sharing: float = 0.45
    two: float = 0.04
    four: float = 0.02
    eight: float = 0.015
    constrained: float = 0.10


# (GPU share, weight): what GPU-sharing tasks ask for, in thousandths of a card
SHARES = ((100, 15), (200, 10), (250, 20), (300, 5), (400, 5), (500, 35), (600, 5), (750, 5))
CPU_ONLY_CPUS = ((2, 20), (4, 30), (8, 25), (16, 15), (32, 10))
SHARING_CPUS = ((1, 15), (2, 30), (4, 35), (6, 10), (8, 10))
ONE_GPU_CPUS = ((4, 30), (8, 35), (12, 20), (16, 15))
MULTI_GPU_CPUS_PER_GPU = ((4, 30), (6, 35), (8, 20), (12, 15))
GIB_PER_CPU = ((2, 30), (4, 50), (8, 20))


def _pick(rng: random.Random, table: tuple[tuple[int, int], ...]) -> int:
    return rng.choices([v for v, _ in table], [w for _, w in table])[0]


def _models_for(gpus: int) -> tuple[str, ...]:
    return tuple(s[0] for s in SHAPES if s[2] >= gpus)


class Workload:
    """Draws tasks (with replacement, as the simulator's `tuneUpPods` does) from `Mix`."""

    def __init__(self, seed: int, mix: Mix = Mix()) -> None:
        self.rng = random.Random(seed)
        self.mix = mix
        self.n = 0
        # capacity per model, for choosing the model a constrained task names
        self._weights = {s[0]: s[2] * s[5] for s in SHAPES}

    def next(self) -> tuple[GpuRequest, float]:
        """The next task and the GPUs it asks for."""
        rng, mix = self.rng, self.mix
        wid = f"t{self.n}"
        self.n += 1
        if rng.random() < mix.cpu_only:
            cpu = _pick(rng, CPU_ONLY_CPUS)
            mem = cpu * _pick(rng, GIB_PER_CPU) * GIB
            return GpuRequest(wid, CPU_QUEUE, cpu_only=True, cpu_millicores=cpu * 1000, memory_mib=mem), 0.0
        roll = rng.random()
        multi = ((mix.two, 2), (mix.four, 4), (mix.eight, 8))
        gpus = 1
        for p, n in multi:
            if roll < p:
                gpus = n
                break
            roll -= p
        sharing = gpus == 1 and rng.random() < mix.sharing / (1 - mix.two - mix.four - mix.eight)
        models = _models_for(gpus)
        if rng.random() < mix.constrained:
            models = (rng.choices(models, [self._weights[m] for m in models])[0],)
        if sharing:
            milli = _pick(rng, SHARES)
            cpu = _pick(rng, SHARING_CPUS)
            choices = tuple(ModelChoice(m, VRAM[m] * milli // 1000, milli // 10) for m in models)
            request = GpuRequest(
                wid,
                models[0] if len(models) == 1 else "any",
                vram_mib=choices[0].vram_mib,
                cores=choices[0].cores,
                cpu_millicores=cpu * 1000,
                memory_mib=cpu * _pick(rng, GIB_PER_CPU) * GIB,
                choices=choices if len(models) > 1 else (),
            )
            return request, milli / 1000
        per_gpu = _pick(rng, ONE_GPU_CPUS if gpus == 1 else MULTI_GPU_CPUS_PER_GPU)
        cpu = per_gpu * gpus
        request = GpuRequest(
            wid,
            models[0] if len(models) == 1 else "any",
            exclusive_cards=gpus,
            cpu_millicores=cpu * 1000,
            memory_mib=cpu * _pick(rng, GIB_PER_CPU) * GIB,
            choices=tuple(ModelChoice(m) for m in models) if len(models) > 1 else (),
        )
        return request, float(gpus)

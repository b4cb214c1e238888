"""Issue 20, Must show 2: the four bugs the suite once let through, applied by hand, each fail a
test of `make test`.

    python -m tests.mutation.hand_mutants            # all four (needs PostgreSQL, as `make test`)
    python -m tests.mutation.hand_mutants drain      # one

Each mutant is applied to a copy of the repository (never to the working tree); the tests that
pin it are run there, and the mutant counts as caught only when they fail. A mutant whose code
is no longer found exactly once fails the run (the code moved: update the mutant here).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class HandMutant:
    name: str
    what: str
    path: str
    original: str
    mutated: str
    tests: tuple[str, ...]


MUTANTS = (
    HandMutant(
        "mig-cores",
        "MIG best fit drops the core check of an instance (memory alone decides)",
        "domain/scheduling/policies.py",
        # best fit's loop (16 spaces in; fragmentation-aware has the same test deeper)
        "\n                if bucket is None or profile.vram_mib < v or profile.cores < c:",
        "\n                if bucket is None or profile.vram_mib < v:",
        ("tests/unit/scheduling/test_placement_examples.py",),
    ),
    HandMutant(
        "preemption-count",
        "preemption on one node picks the victim set with the fewest victims, not the cheapest",
        "domain/scheduling/preemption.py",
        "        subsets.sort(key=_cost_key)\n",
        "        subsets.sort(key=lambda s: (len(s), _cost_key(s)))\n",
        ("tests/unit/scheduling/test_queue_and_preemption.py",),
    ),
    HandMutant(
        "drain",
        "a queued session admitted by a drain skips the policy limits (step 4 asks for nothing)",
        "domain/sessions/services.py",
        "svc.policies, uow.usage, chain, _resources(s.gpu, s.cpu_millicores, s.memory_mib), counted=True",
        "svc.policies, uow.usage, chain, ResourceRequest(sessions=0)",
        ("tests/unit/policies/test_resolution.py", "tests/integration/sessions/test_admission_steps.py"),
    ),
    HandMutant(
        "role-matrix",
        "a group admin may appoint group admins",
        "domain/tenancy/access.py",
        "    if role == Role.GROUP_ADMIN:\n        return actor.is_org_admin(group.organization_id)\n",
        "    if role == Role.GROUP_ADMIN:\n"
        "        return actor.is_org_admin(group.organization_id) or actor.is_group_admin(group.id, group.organization_id)\n",
        ("tests/integration/api/test_role_matrix.py",),
    ),
)


def copy_repository(tree: Path) -> None:
    files = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split("\0")
    for rel in files:
        if rel and not rel.startswith("web/") and (ROOT / rel).is_file():
            (tree / rel).parent.mkdir(parents=True, exist_ok=True)
            (tree / rel).write_bytes((ROOT / rel).read_bytes())


def run(mutant: HandMutant, tree: Path) -> bool:
    """True when the mutant fails at least one of its tests."""
    source = (ROOT / mutant.path).read_text()
    if source.count(mutant.original) != 1:
        raise SystemExit(f"{mutant.name}: the code to mutate is not found exactly once in {mutant.path}")
    target = tree / mutant.path
    target.write_text(source.replace(mutant.original, mutant.mutated))
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONDONTWRITEBYTECODE": "1"}
    try:
        result = subprocess.run(
            [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:randomly", "-p", "no:cacheprovider", *mutant.tests],
            cwd=tree,
            env=env,
            capture_output=True,
            text=True,
        )
    finally:
        target.write_text(source)
    last = (result.stdout.strip().splitlines() or ["(no output)"])[-1]
    caught = result.returncode == 1  # tests failed (not an error collecting them, not a pass)
    print(f"  {mutant.name:<17} {'caught' if caught else 'NOT CAUGHT'}: {mutant.what}\n    {last}")
    return caught


def main(argv: list[str]) -> int:
    chosen = [m for m in MUTANTS if not argv or m.name in argv]
    if not chosen:
        raise SystemExit(f"unknown mutant; choose from {', '.join(m.name for m in MUTANTS)}")
    with tempfile.TemporaryDirectory(prefix="gshare-hand-mutants-") as tmp:
        tree = Path(tmp)
        copy_repository(tree)
        print("the four hand-applied mutants of issue 20 (each must fail a test):")
        caught = [run(m, tree) for m in chosen]
    print(f"{sum(caught)} of {len(chosen)} caught")
    return 0 if all(caught) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Scheduling: placement policies over indexed free capacity, the wait queue, preemption.

Public API (import from the submodules):

* `model`: `GpuRequest`, `RequestMode`, `Allocation`, `fraction_ratio`, `exclusive_ratio`,
  `timeslice_ratio`;
* `scheduler`: `Scheduler` (build from inventory + allocations; `place`, `find`, `apply`,
  `release`, `observe`, `reservation`, `set_cordoned`, `free_summary`, `to_dict` / `from_dict`);
* `policies`: `PlacementPolicy`, `BestFit`, `FirstFit`, `FragmentationAware`, `POLICIES`;
* `queue`: `GpuQueue`, `QueueEntry`, `QueuePosition`, `DrainResult`;
* `preemption`: `plan_preemption`, `preempt`, `PreemptionPlan`;
* `services`: `admit`, `release`, `withdraw`, `Admission` (the use cases);
* `errors`: `SchedulingErrorCode`, `SchedulingError`, `JobCapacityRefused`.
"""

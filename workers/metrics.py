"""Prometheus metrics of the background workers (prometheus_client's default registry).

Every process keeps its own: a `gshare worker` serves them on its metrics port, the embedded
`gshare serve` on `/metrics` beside the API's. Aggregate across workers in PromQL
(e.g. `max by (job) (gshare_periodic_job_last_success_timestamp_seconds)`).
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

ACTOR_FAILURES = Counter(
    "gshare_worker_actor_failures",
    "Messages whose actor raised (each failed attempt, retried or not).",
    ["actor", "queue"],
)
MESSAGES = Counter("gshare_worker_messages", "Messages processed, by result.", ["actor", "queue", "result"])
MESSAGE_DURATION = Histogram(
    "gshare_worker_message_duration_seconds",
    "Time an actor took to process one message.",
    ["actor", "queue"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300),
)
QUEUE_LAG = Histogram(
    "gshare_worker_queue_lag_seconds",
    "Time from enqueue (or the end of a retry delay) to the start of processing.",
    ["queue"],
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900),
)
QUEUE_LAG_LAST = Gauge(
    "gshare_worker_queue_lag_last_seconds",
    "Queue lag of the most recent message started, per queue (alert on this).",
    ["queue"],
)
IN_PROGRESS = Gauge("gshare_worker_messages_in_progress", "Messages being processed now.", ["queue"])
PERIODIC_CLAIMS = Counter(
    "gshare_periodic_claims", "Periods this process claimed and enqueued (exactly one process claims each).", ["job"]
)
PERIODIC_MISSED = Counter(
    "gshare_periodic_missed_periods", "Periods folded into one catch-up run after downtime.", ["job"]
)
PERIODIC_LAST_SUCCESS = Gauge(
    "gshare_periodic_job_last_success_timestamp_seconds",
    "Unix time of the last successful run of each periodic job (in this process).",
    ["job"],
)
PERIODIC_RUNS = Counter("gshare_periodic_runs", "Periodic job executions, by outcome.", ["job", "outcome"])
SCHEDULER_ERRORS = Counter("gshare_periodic_scheduler_errors", "Scheduler ticks that failed (database unreachable …).")
QUEUE_DEPTH = Gauge("gshare_worker_queue_depth", "Messages waiting in the queue (sampled).", ["queue"])
QUEUE_OLDEST_AGE = Gauge(
    "gshare_worker_queue_oldest_message_age_seconds",
    "Age of the oldest waiting message (sampled; 0 when empty). Grows when no worker consumes.",
    ["queue"],
)

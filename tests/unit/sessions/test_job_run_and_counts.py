"""A job's stored part (what it runs, how it ended) read back as written, its log tail clipped,
and the counts each periodic run keeps beside its summary (the operator's run history shows
them by name): exactly what each outcome holds."""

from __future__ import annotations

from uuid import UUID

from domain.sessions.history import HistoryOutcome
from domain.sessions.jobs import IdleOutcome, MeterOutcome
from domain.sessions.model import LOG_TAIL_CHARS, LOG_TAIL_LINES, JobRun, clip_log_tail
from domain.sessions.ports import BillingResult
from domain.sessions.residue import ResidueOutcome

U = [UUID(int=i) for i in range(1, 9)]


def test_a_job_run_is_stored_field_by_field_and_read_back_as_it_was() -> None:
    run = JobRun(command=("python", "train.py"), args=("--epochs", "3"), backoff_limit=2, exit_code=137, log_tail="x")
    data = run.to_dict()
    assert data == {
        "command": ["python", "train.py"],
        "args": ["--epochs", "3"],
        "backoff_limit": 2,
        "exit_code": 137,
        "log_tail": "x",
    }
    assert JobRun.from_dict(data) == run
    # an exit code of 0 is an exit code (a job that succeeded), not a missing one
    assert JobRun.from_dict({**data, "exit_code": 0}).exit_code == 0


def test_a_job_run_stored_with_fields_missing_or_null_reads_as_its_defaults() -> None:
    assert JobRun.from_dict({}) == JobRun((), (), 0, None, "")
    assert JobRun.from_dict(
        {"command": None, "args": None, "backoff_limit": None, "exit_code": None, "log_tail": None}
    ) == JobRun((), (), 0, None, "")
    # what JSON gives back is normalised to the field's type
    got = JobRun.from_dict({"command": [1, "b"], "args": [2], "backoff_limit": "4", "exit_code": "3", "log_tail": 5})
    assert got == JobRun(("1", "b"), ("2",), 4, 3, "5")
    assert isinstance(got.exit_code, int) and isinstance(got.backoff_limit, int)


def test_a_log_tail_keeps_the_last_lines_and_at_most_its_characters() -> None:
    lines = [f"line {i}" for i in range(LOG_TAIL_LINES + 50)]
    assert clip_log_tail("\n".join(lines)) == "\n".join(lines[-LOG_TAIL_LINES:])
    assert clip_log_tail("a\nb\n") == "a\nb"
    long = "x" * (LOG_TAIL_CHARS - 1) + "yz"
    clipped = clip_log_tail(long)
    assert len(clipped) == LOG_TAIL_CHARS and clipped.endswith("yz") and clipped.startswith("x")
    assert clip_log_tail("") == ""


def test_each_periodic_run_counts_what_it_did_by_name() -> None:
    residue = ResidueOutcome(
        holds_released=(U[0], U[1]),
        released_micro=1500,
        handed_off_again=(U[2],),
        failed=(U[3], U[4], U[5]),
        asked_again=(),
        ended=(U[6],),
        capacity_freed=("a", "b", "c", "d"),
        queue_withdrawn=("q",),
        resumed_after_drain=(U[7], U[6]),
    )
    assert residue.counts() == {
        "holds": "2",
        "micro": "1500",
        "handedOff": "1",
        "failed": "3",
        "askedAgain": "0",
        "ended": "1",
        "allocations": "4",
        "queueEntries": "1",
        "resumedAfterDrain": "2",
    }
    meter = MeterOutcome(BillingResult(5, 3, 2_500_000), BillingResult(2, 0, 0), paused=(U[0],), warned=(U[1], U[2]))
    assert meter.counts() == {
        "sessions": "5",
        "charges": "3",
        "credits": "2.5",
        "settlements": "2",
        "warned": "2",
        "paused": "1",
    }
    idle = IdleOutcome(paused=(U[0], U[1]), warned=3, no_data=(U[2],))
    assert idle.counts() == {"paused": "2", "warned": "3", "noData": "1"}
    assert HistoryOutcome(sessions=4, minutes=17, forgotten=9).counts() == {
        "sessions": "4",
        "minutes": "17",
        "forgotten": "9",
    }

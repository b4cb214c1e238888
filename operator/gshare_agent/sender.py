"""Posting the samples: one signed POST per second, retried with backoff, a bounded buffer.

`POST {callback_url}/usage`, body (compact JSON, keys sorted)::

    {"type": "usage", "cluster": "c1", "node": "gpu-1",
     "samples": [{"sessionId": "…", "namespace": "gshare-sessions", "pod": "s-…", "uid": "…",
                  "at": "2026-…+00:00", "cpuMillicores": 250, "memoryMiB": 812,
                  "memoryCurrentMiB": 1024, "gpuUtilPercent": 37.5, "gpuMemoryMiB": 2012}]}

signed exactly as the operator's callbacks (`gshare_operator.signing.CallbackSigner`: the
cluster's key, a fresh short-lived token per attempt bound to the body's SHA-256).

Batches wait in a deque of at most `capacity` batches (one per second: `buffer_seconds`);
when the control plane is away the oldest are dropped, never queued without bound. Up to
`MAX_MERGED` waiting batches go out in one POST once it answers again. 408, 429, 5xx and no
answer are retried with exponential backoff (0.5 s doubling to 30 s, jittered); another 4xx
drops the batch (sending it again would be refused again).
"""

from __future__ import annotations

import json
import logging
import random
import threading
from collections import deque
from collections.abc import Callable
from typing import Any

from gshare_agent.transport import HttpError, Origin

log = logging.getLogger("gshare.agent")
MAX_MERGED = 30
BACKOFF_FIRST = 0.5
BACKOFF_MAX = 30.0

Batch = list[dict[str, Any]]


class UsagePoster:
    def __init__(
        self,
        origin: Origin,
        signer: Any,
        node_name: str,
        *,
        capacity: int = 60,
        jitter: Callable[[], float] = random.random,
    ) -> None:
        self._origin = origin
        self._signer = signer
        self._node = node_name
        self._buffer: deque[Batch] = deque(maxlen=max(1, capacity))
        self._jitter = jitter
        self._wake = threading.Condition()
        self._stopping = False
        self.failures = 0
        self.sent_batches = 0
        self.dropped_batches = 0
        self.refused_batches = 0

    # ------------------------------------------------------------------ producer side

    def submit(self, samples: Batch) -> None:
        if not samples:
            return
        with self._wake:
            if len(self._buffer) == self._buffer.maxlen:
                self.dropped_batches += 1
                if self.dropped_batches == 1 or self.dropped_batches % 60 == 0:
                    log.warning("control plane away: %d batch(es) of samples dropped so far", self.dropped_batches)
            self._buffer.append(samples)
            self._wake.notify()

    @property
    def waiting(self) -> int:
        return len(self._buffer)

    # ------------------------------------------------------------------ sender side

    def body(self, samples: Batch) -> bytes:
        report = {"type": "usage", "cluster": self._signer.cluster_id, "node": self._node, "samples": samples}
        return json.dumps(report, separators=(",", ":"), sort_keys=True).encode()

    def send_waiting(self) -> bool:
        """Send what waits (up to MAX_MERGED batches in one POST). True when it was taken or
        refused for good, False when it should be retried later (it stays in the buffer)."""
        with self._wake:
            taken = list(self._buffer)[:MAX_MERGED]
        if not taken:
            return True
        samples = [s for batch in taken for s in batch]
        body = self.body(samples)
        headers = {"Content-Type": "application/json", "Authorization": f"Bearer {self._signer.sign(body)}"}
        try:
            response = self._origin.request("POST", "/usage", body=body, headers=headers)
        except HttpError as exc:
            self._failed(f"unreachable: {exc}")
            return False
        if response.status in (408, 429) or response.status >= 500:
            self._failed(f"answered {response.status}")
            return False
        self._drop_sent(taken)
        if 200 <= response.status < 300:
            self.sent_batches += len(taken)
        else:
            self.refused_batches += len(taken)
            log.error("control plane refused %d sample(s) (%d): %s", len(samples), response.status, response.body[:200])
        if self.failures:
            log.info("control plane answers again after %d failed attempt(s)", self.failures)
        self.failures = 0
        return True

    def _drop_sent(self, taken: list[Batch]) -> None:
        with self._wake:
            # batches dropped meanwhile (buffer full) may already be gone: remove by identity
            sent = {id(b) for b in taken}
            kept = [b for b in self._buffer if id(b) not in sent]
            self._buffer.clear()
            self._buffer.extend(kept)

    def _failed(self, why: str) -> None:
        self.failures += 1
        if self.failures == 1 or self.failures % 30 == 0:
            log.warning("posting usage failed (%d in a row): %s", self.failures, why)

    def backoff(self) -> float:
        if not self.failures:
            return 0.0
        base = min(BACKOFF_MAX, BACKOFF_FIRST * float(2 ** (self.failures - 1)))
        return base * (0.5 + 0.5 * self._jitter())

    def run(self) -> None:
        """The sender thread: wait for batches, send them, back off while failing."""
        while True:
            with self._wake:
                while not self._buffer and not self._stopping:
                    self._wake.wait()
                if self._stopping:
                    return
            if not self.send_waiting():
                with self._wake:
                    self._wake.wait_for(lambda: self._stopping, timeout=self.backoff())

    def stop(self) -> None:
        with self._wake:
            self._stopping = True
            self._wake.notify_all()

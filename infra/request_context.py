"""The request a log line belongs to: a context variable set for each HTTP request and
WebSocket connection (`api.http.RequestContext`), copied into every task it starts, and
stamped on every log record (`%(request_id)s`, "-" outside a request; `%(request_tag)s`,
" [<id>]" or nothing, is what gshare's log format shows)."""

from __future__ import annotations

import logging
import re
import uuid
from contextvars import ContextVar

request_id: ContextVar[str] = ContextVar("gshare_request_id", default="-")

# what a proxy or a client may hand us to reuse: short, and nothing a log or header could mangle
_SANE = re.compile(r"[A-Za-z0-9._:-]{1,128}")


def new_request_id() -> str:
    return uuid.uuid4().hex[:16]


def accepted_request_id(incoming: str | None) -> str:
    """The incoming `X-Request-Id` when it is sane, else a fresh one."""
    return incoming if incoming is not None and _SANE.fullmatch(incoming) else new_request_id()


def install_log_record_factory() -> None:
    """Every record gets `request_id`, whichever handler and formatter write it (idempotent)."""
    previous = logging.getLogRecordFactory()
    if getattr(previous, "stamps_request_id", False):
        return

    def factory(*args: object, **kwargs: object) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        rid = request_id.get()
        record.request_id = rid
        record.request_tag = f" [{rid}]" if rid != "-" else ""  # lines outside a request stay as they were
        return record

    factory.stamps_request_id = True  # type: ignore[attr-defined]
    logging.setLogRecordFactory(factory)

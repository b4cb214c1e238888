"""Every `gshare serve`/`gshare worker` process pays for what api.app and the worker runtime
import (the test suite starts dozens of them): kubernetes_asyncio (seconds to import on a
loaded machine) is imported only when a Kubernetes cluster is connected."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_serve_and_worker_modules_do_not_import_kubernetes_asyncio() -> None:
    code = (
        "import sys, api.app, infra.bootstrap, infra.startup, workers.runtime, workers.main\n"
        "print(sorted(m for m in sys.modules if m.startswith(('kubernetes_asyncio', 'infra.cluster.kubernetes'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip() == "[]", out.stdout

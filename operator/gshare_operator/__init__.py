"""gshare's per-cluster operator: GShareSession → Pod/Service/Ingress/Secret, signed reports.

Entry point: `gshare_operator.main(argv) -> int`.
"""

from gshare_operator.main import main

__all__ = ["main"]

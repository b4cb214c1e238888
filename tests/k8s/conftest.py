import sys
from pathlib import Path

from tests.k8s.fixtures import kube_api, kube_client

_OPERATOR_DIR = str(Path(__file__).resolve().parents[2] / "operator")
if _OPERATOR_DIR not in sys.path:
    sys.path.insert(0, _OPERATOR_DIR)

__all__ = ["kube_api", "kube_client"]

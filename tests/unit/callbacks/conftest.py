import sys
from pathlib import Path

_OPERATOR_DIR = str(Path(__file__).resolve().parents[3] / "operator")
if _OPERATOR_DIR not in sys.path:
    sys.path.insert(0, _OPERATOR_DIR)

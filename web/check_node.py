"""Check that Node.js and npm are installed in versions web/package.json's "engines" accepts.

`make serve`, `make web` and `make test` build the console with them; without this check a
missing or old Node.js shows up as npm's or Vite's own errors, far from the cause. Exits 0 when
both fit, 1 with one line saying what is missing and what to install otherwise.

    python3 web/check_node.py
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

PACKAGE_JSON = Path(__file__).with_name("package.json")
INSTALL_HINT = "install Node.js with npm (Debian/Ubuntu: `apt-get install nodejs npm`; or from nodejs.org)"


def parse_version(text: str) -> tuple[int, int, int]:
    m = re.search(r"(\d+)(?:\.(\d+))?(?:\.(\d+))?", text)
    if m is None:
        raise ValueError(f"not a version: {text!r}")
    return int(m.group(1)), int(m.group(2) or 0), int(m.group(3) or 0)


def _one(comparator: str, version: tuple[int, int, int]) -> bool:
    comparator = comparator.strip()
    if comparator.startswith("^"):
        low = parse_version(comparator[1:])
        return version >= low and version[0] == low[0]
    for op in (">=", "<=", ">", "<", "="):
        if comparator.startswith(op):
            bound = parse_version(comparator[len(op) :])
            return {
                ">=": version >= bound,
                "<=": version <= bound,
                ">": version > bound,
                "<": version < bound,
                "=": version == bound,
            }[op]
    if comparator in ("", "*", "x"):
        return True
    parts = re.findall(r"\d+", comparator)  # a bare `20` or `20.19` is every version it prefixes
    return list(version[: len(parts)]) == [int(x) for x in parts]


def satisfies(version: tuple[int, int, int], range_: str) -> bool:
    """The subset of npm's semver ranges that "engines" uses here: alternatives joined by `||`,
    each a space-separated list of `^x.y.z`, `>=x.y.z`, `<x.y.z` … comparators."""
    range_ = re.sub(r"(>=|<=|>|<|=|\^)\s+", r"\1", range_)  # `>= 16` is `>=16`
    return any(all(_one(c, version) for c in alt.split()) for alt in range_.split("||"))


def _installed(tool: str) -> tuple[int, int, int] | None:
    path = shutil.which(tool)
    if path is None:
        return None
    try:
        out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30, check=True).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    return parse_version(out)


def problems(engines: dict[str, str], installed: dict[str, tuple[int, int, int] | None]) -> list[str]:
    out = []
    for tool, label in (("node", "Node.js"), ("npm", "npm")):
        wanted = engines.get(tool)
        if wanted is None:
            continue
        have = installed.get(tool)
        if have is None:
            out.append(f"{label} {wanted} is needed to build the web console, and `{tool}` is not on PATH")
        elif not satisfies(have, wanted):
            out.append(f"{label} {wanted} is needed to build the web console; this machine has {'.'.join(map(str, have))}")
    return out


def main() -> int:
    engines = json.loads(PACKAGE_JSON.read_text())["engines"]
    found = problems(engines, {"node": _installed("node"), "npm": _installed("npm")})
    for line in found:
        print(f"gshare: {line}: {INSTALL_HINT}", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())

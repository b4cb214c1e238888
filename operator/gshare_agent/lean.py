"""Importing one module of a package without running the package's `__init__`.

`prometheus_client/__init__` imports its exposition servers (http.server, wsgiref, …: ~11 MiB
resident) and `gshare_operator/__init__` the operator's main (asyncio: ~4 MiB); the agent needs
only `prometheus_client.parser` and `gshare_operator.signing`, which import nothing of their
package's `__init__`. A stand-in package object is registered while the module loads and removed
afterwards, so a later plain `import <package>` in the same process runs the real `__init__`
(reusing the submodules already loaded)."""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types


def import_alone(dotted: str) -> types.ModuleType:
    if dotted in sys.modules:
        return sys.modules[dotted]
    package_name = dotted.rpartition(".")[0]
    if package_name in sys.modules:
        return importlib.import_module(dotted)
    spec = importlib.util.find_spec(package_name)
    if spec is None or spec.submodule_search_locations is None:
        raise ImportError(f"{package_name} is not installed")
    package = types.ModuleType(package_name)
    package.__path__ = list(spec.submodule_search_locations)
    sys.modules[package_name] = package
    try:
        return importlib.import_module(dotted)
    finally:
        if sys.modules.get(package_name) is package:
            del sys.modules[package_name]

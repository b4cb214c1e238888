"""The console's first load: gzipped JavaScript and the dashboard's time to interactive.

    python -m tests.bench.console [--runs 5] [--url http://127.0.0.1:8000 --password …]

Builds `web/` when `web/dist` is missing, starts a real `gshare serve` on the embedded defaults
(unless `--url` names a running one), signs in as the bootstrap admin, then loads the dashboard
`--runs` times in fresh Chromium contexts (cold HTTP cache, the session cookie copied over)
over loopback. It prints:

- the JavaScript fetched on first load (every script response before the dashboard is
  interactive), each file's size and its gzip -9 size, against the 300 KB target; the server
  sends the files uncompressed today, so the gzip figure is what a compressing proxy would send;
- time to interactive: navigation start → the dashboard's data rendered and the main thread's
  first idle moment after it (`requestIdleCallback`), median and worst of the runs, against
  the 1.5 s target.
"""

from __future__ import annotations

import argparse
import gzip
import statistics
import sys
import tempfile
from contextlib import ExitStack
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "web" / "dist"
JS_TARGET_KB = 300
TTI_TARGET_S = 1.5


def _sign_in(browser: Any, url: str, password: str) -> Any:
    ctx = browser.new_context(locale="en-US")
    page = ctx.new_page()
    page.goto(url + "/")
    page.get_by_label("Username", exact=True).fill("admin")
    page.get_by_label("Password", exact=True).fill(password)
    page.get_by_role("button", name="Sign in", exact=True).click()
    page.get_by_test_id("dashboard").wait_for()
    state = ctx.storage_state()
    ctx.close()
    return state


def _one_load(browser: Any, url: str, state: Any) -> tuple[float, list[str]]:
    ctx = browser.new_context(locale="en-US", storage_state=state)
    page = ctx.new_page()
    scripts: list[str] = []
    page.on("response", lambda r: scripts.append(urlsplit(r.url).path) if r.request.resource_type == "script" else None)
    page.goto(url + "/", wait_until="commit")
    page.get_by_test_id("dashboard").wait_for()
    page.get_by_test_id("active-group").wait_for()
    tti_ms = page.evaluate("() => new Promise(r => requestIdleCallback(() => r(performance.now()), {timeout: 5000}))")
    ctx.close()
    return float(tti_ms) / 1000, scripts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--url", help="a running gshare serve (default: start one)")
    parser.add_argument("--password", help="the admin password of --url")
    args = parser.parse_args(argv)

    from playwright.sync_api import sync_playwright

    from tests.e2e.console.conftest import CHROMIUM_ARGS, chromium_path, ensure_console_built
    from tests.support.serve import gshare_serve

    ensure_console_built()
    chromium = chromium_path()
    if chromium is None:
        print("chromium is not installed (apt-get install chromium)", file=sys.stderr)
        return 2

    with ExitStack() as stack:
        if args.url:
            url, password = args.url.rstrip("/"), args.password or ""
        else:
            tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="gshare-bench-console-")))
            served = stack.enter_context(gshare_serve(tmp))
            url, password = served.url, served.admin_password
        p = stack.enter_context(sync_playwright())
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        stack.callback(browser.close)

        state = _sign_in(browser, url, password)
        _one_load(browser, url, state)  # warm the server (first queries, DataLoaders, pool)
        times: list[float] = []
        scripts: list[str] = []
        for _ in range(args.runs):
            tti, scripts = _one_load(browser, url, state)
            times.append(tti)

    print("First-load JavaScript (dashboard, signed in):")
    total_raw = total_gz = 0
    for path in dict.fromkeys(scripts):
        f = DIST / path.lstrip("/")
        if not f.is_file():
            continue
        raw = f.read_bytes()
        gz = len(gzip.compress(raw, 9))
        total_raw += len(raw)
        total_gz += gz
        print(f"  {path:<48} {len(raw) / 1024:8.1f} KB  gzip {gz / 1024:7.1f} KB")
    verdict = "OK" if total_gz / 1024 < JS_TARGET_KB else "OVER"
    print(
        f"  total {total_raw / 1024:.1f} KB, gzipped {total_gz / 1024:.1f} KB (target < {JS_TARGET_KB} KB: {verdict})"
    )
    med = statistics.median(times)
    verdict = "OK" if med < TTI_TARGET_S else "OVER"
    print(
        f"Dashboard time to interactive over loopback, {len(times)} cold loads: "
        f"median {med:.3f} s, worst {max(times):.3f} s (target < {TTI_TARGET_S} s: {verdict})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

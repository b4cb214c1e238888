"""Issue 18, Must show 2: every console page rendered in Korean in Chromium, as the super admin
on a fresh serve with the living demo, with the English-word check; each page's screenshot is
saved, and no badge on any page cuts its label (each badge's label scroll width fits its client
width).

The English-word check: every Latin-letter word a page shows (its text, and the placeholders,
titles and accessible labels of what is visible) must be a name the data holds (a value the
server sent under a name-like key: an organisation's, a user's, an image's reference...), a
product name or identifier, or a unit (ALLOWED). Server prose (refusal messages, background
jobs' descriptions) is not data: it must arrive localised from its code and parameters."""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.serve import Served, gshare_serve

from .conftest import ensure_console_built

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]

PAGES = [
    ("/", "dashboard"),
    ("/sessions", "sessions"),
    ("/sessions/new", "session-new"),
    ("/sessions/{session}", "session"),
    ("/jobs", "jobs"),
    ("/wallet", "wallet"),
    ("/volumes", "volumes"),
    ("/templates", "templates"),
    ("/images", "my-images"),
    ("/tokens", "tokens"),
    ("/admin/organizations", "organizations"),
    ("/admin/organizations/{organization}", "organization"),
    ("/admin/users", "users"),
    ("/admin/users/{user}", "user"),
    ("/admin/sessions", "admin-sessions"),
    ("/admin/credits", "credits"),
    ("/admin/policies", "policies"),
    ("/admin/usage", "usage"),
    ("/admin/history", "history"),
    ("/admin/clusters", "clusters"),
    ("/admin/queue", "queue"),
    ("/admin/catalog/offerings", "catalog-offerings"),
    ("/admin/catalog/presets", "catalog-presets"),
    ("/admin/catalog/registries", "catalog-registries"),
    ("/admin/catalog/images", "catalog-images"),
    ("/admin/audit", "audit"),
    ("/admin/operations", "operations"),
]

# Product names and identifiers, protocols and formats, and units: what a Korean console shows in
# Latin letters on purpose.
_ALLOWED = """gshare GPU GPUs CPU CPUs MIG HAMi NVIDIA CUDA DCGM Kubernetes GraphQL GraphiQL SSH Jupyter
    JupyterLab VS Code PyTorch TensorFlow Prometheus cAdvisor WebSocket ID URL CSV API HTTP HTTPS
    TCP OCI PAT HBM VRAM GiB MiB KiB TiB GB MB KB TB W vCPU"""
ALLOWED = set(_ALLOWED.split())

# Keys under which the server sends names and references (data), not prose.
_NAME_KEYS = """name displayName username email slug ref image imageRef command model gpuModel placedModel
    host hostname url registry repository tag path mountPath key node nodeName cluster namespace
    server prefix sshUser sessionName offering profile"""
NAME_KEYS = set(_NAME_KEYS.split())

WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[-_.'][A-Za-z0-9]+)*")
NOT_WORDS = re.compile(
    r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"  # UUIDs
    r"|\b[0-9a-f]{7,}\b"  # hashes, short ids
    r"|https?://\S+|[\w.+-]+@[\w.-]+"  # addresses
    r"|[\w.-]+\.[a-z]{2,}/[\w./:@-]+"  # resource names (nvidia.com/gpu), image references
    r"|\bGPU-[\w-]+"  # device UUIDs
    r"|\b\d+g\.\d+gb\b"  # MIG profiles (1g.10gb)
    r"|[A-Za-z0-9+/=_-]{24,}"  # tokens, opaque ids
)

SHOWN_TEXT = """() => {
  const out = [document.title];
  // what is marked as not to translate (code, identifiers) or as another language (the
  // language picker's "English") is not Korean text
  const skipped = (el) => el.closest('script,style,noscript,[translate=no]')
    || !(el.closest('[lang]')?.lang || 'ko').toLowerCase().startsWith('ko');
  const visible = (el) => el && el.getClientRects().length > 0
    && getComputedStyle(el).visibility !== 'hidden';
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || skipped(el) || !visible(el)) continue;
    if (n.textContent.trim()) out.push(n.textContent);
  }
  for (const el of document.body.querySelectorAll('[placeholder],[title],[aria-label]')) {
    if (!visible(el) || skipped(el)) continue;
    for (const a of ['placeholder', 'title', 'aria-label']) {
      const v = el.getAttribute(a); if (v) out.push(v);
    }
  }
  return out;
}"""

CUT_BADGES = """() => [...document.querySelectorAll('.mantine-Badge-root')]
  .filter((b) => b.offsetParent !== null)
  .map((b) => { const l = b.querySelector('.mantine-Badge-label') || b;
                return { text: b.textContent, scroll: l.scrollWidth, client: l.clientWidth }; })
  .filter((b) => b.scroll > b.client)"""


def words(text: str) -> list[str]:
    return WORD.findall(NOT_WORDS.sub(" ", text))


def names_in(value: Any, into: set[str], key: str = "") -> None:
    """Every word of the strings the server sent under a name-like key."""
    if isinstance(value, dict):
        for k, v in value.items():
            names_in(v, into, k)
    elif isinstance(value, list):
        for v in value:
            names_in(v, into, key)
    elif isinstance(value, str) and key in NAME_KEYS:
        into.update(words(value))


def english_words(texts: list[str], names: set[str]) -> dict[str, str]:
    """Each word not allowed, with the text it was found in."""
    found: dict[str, str] = {}
    for text in texts:
        for w in words(text):
            if w not in ALLOWED and w not in names and w.upper() not in ALLOWED:
                found.setdefault(w, text.strip()[:120])
    return found


def settle(page: Any, busy: set[Any], quiet_ms: int = 400, timeout_s: float = 30) -> None:
    """Until the page has loaded its lazy code and its queries: no request in flight and no
    loader shown for `quiet_ms`."""
    deadline = time.monotonic() + timeout_s
    quiet_since: float | None = None
    while time.monotonic() < deadline:
        page.wait_for_timeout(100)
        loading = page.evaluate(
            "() => [...document.querySelectorAll('.mantine-Loader-root')].some((l) => l.getClientRects().length)"
        )
        if busy or loading:
            quiet_since = None
        elif quiet_since is None:
            quiet_since = time.monotonic()
        elif (time.monotonic() - quiet_since) * 1000 >= quiet_ms:
            return
    raise AssertionError(f"{page.url} did not settle: {len(busy)} request(s) in flight")


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory, browser: Any) -> Iterator[Served]:
    ensure_console_built()
    with gshare_serve(tmp_path_factory.mktemp("korean"), premade_postgres=True) as s:
        s.printed_accounts()  # the demo is seeded: its sessions, ledger and audit fill the pages
        yield s


def test_the_word_check_tells_english_from_names() -> None:
    names: set[str] = set()
    names_in({"data": {"org": {"name": "Demo University", "description": "Left open"}}}, names)
    texts = [
        "Demo University 조직",
        "3 h 53 min 남음",
        "H100 GPU 2장 · 80 GiB",
        "Left open",
        "id 0f1e2d3c-aaaa-bbbb-cccc-0123456789ab",
    ]
    assert english_words(texts, names) == {
        "h": "3 h 53 min 남음",
        "min": "3 h 53 min 남음",
        "H100": "H100 GPU 2장 · 80 GiB",
        "Left": "Left open",
        "open": "Left open",
    }


def detail_ids(ctx: Any, url: str) -> dict[str, str]:
    data = ctx.request.post(
        url + "/graphql",
        data={"query": "{ organizations { nodes { id } } users { nodes { id username } } sessions { nodes { id } } }"},
    ).json()["data"]
    return {
        "organization": data["organizations"]["nodes"][0]["id"],
        "user": next(u["id"] for u in data["users"]["nodes"] if u["username"] == "demo"),
        "session": data["sessions"]["nodes"][0]["id"],
    }


def test_every_page_in_korean_with_no_english_word_and_no_cut_badge(
    browser: Any, fresh: Served, screenshots: Path
) -> None:
    ctx = browser.new_context(locale="ko-KR", viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    errors: list[str] = []
    names: set[str] = set()

    def take(response: Any) -> None:
        if "/graphql" in response.url and response.ok:
            with contextlib.suppress(ValueError, json.JSONDecodeError):
                names_in(response.json(), names)

    def frames(ws: Any) -> None:  # live queries and subscriptions come over the WebSocket
        def frame(payload: Any) -> None:
            with contextlib.suppress(TypeError, ValueError):
                names_in(json.loads(payload), names)

        ws.on("framereceived", frame)

    busy: set[Any] = set()  # requests in flight (a hash route's change is no navigation to wait for)
    page.on("request", lambda r: busy.add(r))
    page.on("requestfinished", lambda r: busy.discard(r))
    page.on("requestfailed", lambda r: busy.discard(r))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("response", take)
    page.on("websocket", frames)
    page.goto(fresh.url + "/")
    english: dict[str, Any] = {}
    page.get_by_label("사용자 이름", exact=True).wait_for()
    # a refusal, said in Korean from its code (the server's message is English)
    page.get_by_label("사용자 이름", exact=True).fill("admin")
    page.get_by_label("비밀번호", exact=True).fill("not-the-password")
    page.get_by_role("button", name="로그인", exact=True).click()
    page.get_by_text("사용자 이름 또는 비밀번호가 틀렸습니다").wait_for()
    page.screenshot(path=str(screenshots / "ko-sign-in-refused.png"), full_page=True)
    sign_in_words = english_words(page.evaluate(SHOWN_TEXT), names)
    if sign_in_words:
        english["(sign-in)"] = sign_in_words
    page.get_by_label("사용자 이름", exact=True).fill("admin")
    page.get_by_label("비밀번호", exact=True).fill(fresh.admin_password)
    page.get_by_role("button", name="로그인", exact=True).click()
    page.get_by_test_id("dashboard").wait_for()
    assert page.evaluate("() => document.documentElement.lang") in ("ko", "ko-KR")
    ids = detail_ids(ctx, fresh.url)
    cut: dict[str, Any] = {}
    for path, name in PAGES:
        path = path.format(**ids)
        page.goto(f"{fresh.url}/#{path}")
        settle(page, busy)
        page.screenshot(path=str(screenshots / f"ko-{name}.png"), full_page=True)
        found = page.evaluate(CUT_BADGES)
        if found:
            cut[path] = found
        shown = english_words(page.evaluate(SHOWN_TEXT), names)
        if shown:
            english[path] = shown
        whole = re.search(r"\b\d+/1\b", page.inner_text("main"))
        assert whole is None, f"{path} shows whole cards as a ratio: {whole}"
        tabs = page.get_by_role("tab")  # a page's other tabs are screens too
        for i in range(1, tabs.count()):
            tabs.nth(i).click()
            settle(page, busy)
            page.screenshot(path=str(screenshots / f"ko-{name}-tab{i}.png"), full_page=True)
            shown = english_words(page.evaluate(SHOWN_TEXT), names)
            if shown:
                english[f"{path} (tab {i})"] = shown
            ratio = re.search(r"· \d+/\d+\b", page.inner_text("main"))
            assert ratio is None, f"{path} (tab {i}) shows a GPU as a bare ratio: {ratio}"
            if page.evaluate(CUT_BADGES):
                cut[f"{path} (tab {i})"] = page.evaluate(CUT_BADGES)
        if path == "/":  # the capacity table per resource has no column of "—" (its rows carry no model)
            cells = page.eval_on_selector_all(
                "[data-testid=capacity-by-resource] td", "tds => tds.map((td) => td.textContent.trim())"
            )
            assert cells and "—" not in [c[:1] for c in cells], cells
        if path == "/sessions/new":  # cards per model now, and the caps on the admin's chain
            assert page.get_by_test_id("gpu-availability-row").count() > 0
            assert page.get_by_test_id("group-caps").count() == 1
        if path == "/admin/usage":  # opens on the demo's organisation, not the empty default one
            assert page.get_by_role("heading", name=re.compile("^Demo University:")).count() == 1
        if path == "/admin/audit":  # targets by name where they have one, not only by UUID
            assert page.get_by_test_id("audit-target-name").count() > 0
        if path == "/admin/clusters":
            text = page.inner_text("main")
            assert not re.search(r"MiB ?/ ?\d[\d.]* GiB", text), "mixed units in one quantity"
            modes = page.eval_on_selector_all("[data-mode]", "els => els.map((e) => e.textContent)")
            assert "MIG" in modes, modes  # the MIG node is not labelled exclusive
    report = json.dumps(english, ensure_ascii=False, indent=1)
    (screenshots / "ko-english-words.json").write_text(report)  # beside the screenshots
    assert english == {}, report
    assert cut == {}, cut
    assert errors == [], errors
    ctx.close()


def test_an_admin_deletes_a_user_after_typing_their_name(browser: Any, fresh: Served, screenshots: Path) -> None:
    """Issue 18, admin screens: deleting a user is a guarded operation (the name typed to
    confirm), said in Korean; the user keeps their id under a placeholder name."""
    ctx = browser.new_context(locale="ko-KR", viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    page.goto(fresh.url + "/")
    page.get_by_label("사용자 이름", exact=True).fill("admin")
    page.get_by_label("비밀번호", exact=True).fill(fresh.admin_password)
    page.get_by_role("button", name="로그인", exact=True).click()
    page.get_by_test_id("dashboard").wait_for()
    org = ctx.request.post(fresh.url + "/graphql", data={"query": "{ organizations { nodes { id } } }"}).json()
    made = ctx.request.post(
        fresh.url + "/graphql",
        data={
            "query": "mutation($i: UserCreateInput!) { userCreate(input: $i) { user { id } errors { code } } }",
            "variables": {
                "i": {
                    "organizationId": org["data"]["organizations"]["nodes"][0]["id"],
                    "username": "leaver",
                    "email": "leaver@demo-university.example",
                }
            },
        },
    ).json()["data"]["userCreate"]
    assert made["errors"] == [], made
    uid = made["user"]["id"]
    page.goto(f"{fresh.url}/#/admin/users/{uid}")
    page.get_by_test_id("user-delete").click()
    submit = page.get_by_test_id("user-delete-submit")
    assert submit.is_disabled()  # not before the name is typed
    page.get_by_test_id("user-delete-typed").fill("leave")
    assert submit.is_disabled()
    page.get_by_test_id("user-delete-typed").fill("leaver")
    page.screenshot(path=str(screenshots / "ko-user-delete.png"), full_page=True)
    shown = english_words([page.get_by_role("dialog").inner_text()], {"leaver"})  # the confirmation, in Korean
    assert shown == {}, shown
    submit.click()
    page.wait_for_url(re.compile(r"#/admin/users$"))
    after = ctx.request.post(
        fresh.url + "/graphql",
        data={
            "query": "query($id: ID!) { node(id: $id) { ... on User { username isActive } } }",
            "variables": {"id": uid},
        },
    ).json()["data"]["node"]
    assert after["isActive"] is False and re.fullmatch(r"deleted-[0-9a-f]{12}", after["username"]), after
    ctx.close()


def test_an_admin_cordons_uncordons_and_drains_a_node_after_confirming(
    browser: Any, fresh: Served, screenshots: Path
) -> None:
    """Issue 18, admin screens: cordon, uncordon and drain a node as guarded operations (a
    drain asks for the node's name), said in Korean; the node's badge follows."""
    ctx = browser.new_context(locale="ko-KR", viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    page.goto(fresh.url + "/")
    page.get_by_label("사용자 이름", exact=True).fill("admin")
    page.get_by_label("비밀번호", exact=True).fill(fresh.admin_password)
    page.get_by_role("button", name="로그인", exact=True).click()
    page.get_by_test_id("dashboard").wait_for()
    nodes = ctx.request.post(
        fresh.url + "/graphql", data={"query": "{ clusterNodes { name cordoned allocations { sessionId } } }"}
    ).json()["data"]["clusterNodes"]
    idle = next(n["name"] for n in nodes if not n["allocations"] and not n["cordoned"])
    page.goto(f"{fresh.url}/#/admin/clusters")
    card = page.get_by_test_id("node-card").filter(has=page.get_by_role("heading", name=idle, exact=True))
    cordoned = card.get_by_text("코든됨", exact=True)

    card.get_by_test_id("node-cordon").click()
    page.get_by_test_id("node-guard-submit").click()
    cordoned.wait_for()
    card.get_by_test_id("node-cordon").click()  # now "uncordon"
    page.get_by_test_id("node-guard-submit").click()
    cordoned.wait_for(state="detached")

    card.get_by_test_id("node-drain").click()
    submit = page.get_by_test_id("node-guard-submit")
    assert submit.is_disabled()  # not before the node's name is typed
    page.get_by_test_id("node-guard-typed").fill(idle)
    shown = english_words([page.get_by_role("dialog").inner_text()], set(words(idle)))
    assert shown == {}, shown
    page.screenshot(path=str(screenshots / "ko-node-drain.png"), full_page=True)
    submit.click()
    page.get_by_test_id("node-drained").wait_for()
    page.get_by_role("dialog").get_by_role("button", name="닫기", exact=True).click()
    cordoned.wait_for()  # a drained node stays cordoned until uncordoned
    card.get_by_test_id("node-cordon").click()
    page.get_by_test_id("node-guard-submit").click()
    cordoned.wait_for(state="detached")
    ctx.close()

"""Issue 18, Must show 1 and 3: a fresh `gshare serve` (README command 1) is usable as shipped, in
Debian's Chromium. The member whose credentials the serve printed signs in and starts a GPU
session with no other set-up; the session page's cost rises while it runs; GraphiQL loads from
the server itself and runs a query while every request to anything but 127.0.0.1 is blocked; a
batch job submitted from the console's Jobs page runs to completion on the simulated cluster
and its log tail shows."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.support.serve import Served, gshare_serve

from .conftest import ensure_console_built

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(240)]


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory, browser: Any) -> Iterator[Served]:
    ensure_console_built()
    # a simulated batch job runs 3 s (the default is 30 s) so Must show 3 ends quickly
    env = {"GSHARE_SIMULATED_JOB_SECONDS": "3"}
    with gshare_serve(tmp_path_factory.mktemp("first-run"), env=env) as s:
        yield s


def shot(page: Any, screenshots: Path, name: str) -> None:
    page.screenshot(path=str(screenshots / f"{name}.png"), full_page=True)


def offline_context(browser: Any, blocked: list[str], **kwargs: Any) -> Any:
    """A browser context that can reach 127.0.0.1 only: any other host is aborted (and noted)."""
    ctx = browser.new_context(**kwargs)

    def gate(route: Any) -> None:
        if urlsplit(route.request.url).hostname == "127.0.0.1":
            route.continue_()
        else:
            blocked.append(route.request.url)
            route.abort()

    ctx.route("**/*", gate)
    return ctx


def test_the_printed_member_starts_a_session_and_its_cost_rises(browser: Any, fresh: Served, screenshots: Path) -> None:
    accounts = fresh.printed_accounts()
    assert "demo" in accounts, fresh.log.read_text()[-3000:]
    blocked: list[str] = []
    ctx = offline_context(browser, blocked, locale="en-US", viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    gets: list[str] = []  # the console's GraphQL GETs: a document's hash, not its text, in the URL
    page.on("request", lambda r: gets.append(r.url) if r.method == "GET" and "/graphql?" in r.url else None)
    page.goto(fresh.url + "/")
    page.get_by_label("Username", exact=True).fill("demo")
    page.get_by_label("Password", exact=True).fill(accounts["demo"])
    page.get_by_role("button", name="Sign in", exact=True).click()
    page.get_by_test_id("dashboard").wait_for()
    page.wait_for_function("() => document.querySelector('[data-testid=active-group]')?.value?.endsWith('/ ML-Lab')")
    # the home page says what is left of the group's caps (the demo's ML-Lab: 4 sessions, 4 GPUs)
    sessions_cap = page.get_by_test_id("group-caps").get_by_test_id("cap-maxConcurrentSessions")
    sessions_cap.wait_for()
    assert re.search(r"\d+ / 4\b", sessions_cap.inner_text()), sessions_cap.inner_text()
    shot(page, screenshots, "first-run-dashboard")

    # a GPU session, straight away: credits, policy and active group came with the demo
    page.get_by_test_id("nav-/sessions").click()
    page.get_by_test_id("session-new").click()
    page.get_by_label("Name", exact=True).fill("my-first-gpu")
    # before choosing: the cards of each model now (Total / Used / Available) and the caps left
    page.get_by_test_id("gpu-availability-row").first.wait_for()
    page.get_by_test_id("group-caps").get_by_test_id("cap-maxGpus").wait_for()
    page.get_by_test_id("offering-select").click()
    page.get_by_role("option", name=re.compile("A100-80GB")).click()
    page.get_by_test_id("preset-select").click()
    page.get_by_role("option", name=re.compile("^GPU S")).click()
    page.get_by_test_id("image-select").click()
    page.get_by_role("option", name=re.compile("PyTorch")).click()
    page.get_by_test_id("session-submit").click()
    page.get_by_test_id("session-page").wait_for()
    page.get_by_test_id("session-state").get_by_text("Running").wait_for(timeout=60_000)

    cost = page.get_by_test_id("cost-so-far")
    page.wait_for_function(
        "() => BigInt(document.querySelector('[data-testid=cost-so-far]').dataset.micro) > 0n", timeout=30_000
    )
    first = int(cost.get_attribute("data-micro") or 0)
    shown_first = cost.inner_text()
    page.wait_for_function(
        f"() => BigInt(document.querySelector('[data-testid=cost-so-far]').dataset.micro) > {first}n + 100n",
        timeout=30_000,
    )
    assert cost.inner_text() != shown_first  # what the member reads moves too
    shot(page, screenshots, "first-run-session-cost")
    assert gets and all("persistedQuery" in u and "query=" not in u for u in gets), gets[:3]
    assert max(len(u) for u in gets) < 600, max(gets, key=len)
    assert errors == [] and blocked == [], (errors, blocked)
    ctx.close()


def test_graphiql_runs_a_query_with_the_internet_blocked(browser: Any, fresh: Served, screenshots: Path) -> None:
    blocked: list[str] = []
    ctx = offline_context(browser, blocked, locale="en-US", viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # signed in (the session cookie, as after the console's sign-in), GraphiQL's own query runs
    accounts = fresh.printed_accounts()
    signed = ctx.request.post(
        fresh.url + "/graphql",
        data={
            "query": 'mutation($p: String!) { login(input: {username: "demo", password: $p}) { errors { code } } }',
            "variables": {"p": accounts["demo"]},
        },
    )
    assert signed.json()["data"]["login"]["errors"] == []
    page.goto(fresh.url + "/graphql")
    run = page.locator(".graphiql-execute-button")
    run.wait_for(timeout=30_000)
    page.get_by_text("displayName").first.wait_for()  # the default query is in the editor
    run.click()
    result = page.locator(".graphiql-response")
    result.get_by_text(re.compile('"username": "demo"')).wait_for(timeout=30_000)
    assert '"displayName": "Demo Member"' in result.inner_text()
    shot(page, screenshots, "graphiql-offline")
    assert errors == [] and blocked == [], (errors, blocked)
    ctx.close()


def sign_in_member(ctx: Any, fresh: Served) -> Any:
    page = ctx.new_page()
    page.goto(fresh.url + "/")
    page.get_by_label("Username", exact=True).fill("demo")
    page.get_by_label("Password", exact=True).fill(fresh.printed_accounts()["demo"])
    page.get_by_role("button", name="Sign in", exact=True).click()
    page.get_by_test_id("dashboard").wait_for()
    return page


def test_a_job_from_the_console_runs_to_completion_and_shows_its_log(
    browser: Any, fresh: Served, screenshots: Path
) -> None:
    blocked: list[str] = []
    ctx = offline_context(browser, blocked, locale="en-US", viewport={"width": 1280, "height": 900})
    page = sign_in_member(ctx, fresh)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.get_by_test_id("nav-/jobs").click()
    page.get_by_test_id("jobs-page").wait_for()
    page.get_by_test_id("job-name").fill("train-resnet")
    page.get_by_test_id("job-image").click()
    page.get_by_role("option", name=re.compile("PyTorch")).click()
    page.get_by_test_id("job-offering").click()
    page.get_by_role("option", name=re.compile("H100-80GB")).click()
    page.get_by_test_id("job-preset").click()
    page.get_by_role("option", name="GPU 1 card").click()
    page.get_by_test_id("job-command-input").fill("python train.py --epochs 1")
    shot(page, screenshots, "jobs-submit")
    page.get_by_test_id("job-submit").click()
    detail = page.get_by_test_id("job-detail")
    detail.get_by_test_id("job-state").get_by_text("Succeeded").wait_for(timeout=90_000)
    log = detail.get_by_test_id("job-log")
    log.wait_for()
    text = log.inner_text()
    assert "[simulated]" in text and "exited with code 0" in text, text
    assert "Exit code 0" in detail.inner_text()
    page.get_by_test_id("job-row-train-resnet").get_by_text("Succeeded").wait_for(timeout=15_000)
    shot(page, screenshots, "jobs-succeeded")
    assert errors == [] and blocked == [], (errors, blocked)
    ctx.close()


def gql(page: Any, fresh: Served, query: str, **variables: Any) -> dict[str, Any]:
    """A GraphQL request as the signed-in user of `page` (its session cookie)."""
    body = page.request.post(fresh.url + "/graphql", data={"query": query, "variables": variables}).json()
    assert "errors" not in body, body
    return body["data"]  # type: ignore[no-any-return]


def test_a_template_saved_from_the_form_keeps_its_instance_variables_shared_memory_and_volumes(
    browser: Any, fresh: Served, screenshots: Path
) -> None:
    """Issue 18: templates saved from the session form with the instance, environment
    variables, volumes and shared memory; choosing it fills a new form with all of them, and the
    session started from it has them."""
    blocked: list[str] = []
    ctx = offline_context(browser, blocked, locale="en-US", viewport={"width": 1280, "height": 1000})
    page = sign_in_member(ctx, fresh)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    made = gql(
        page,
        fresh,
        'mutation { volumeCreate(input: {name: "datasets", sizeMib: 1024}) { volume { id } errors { code message } } }',
    )["volumeCreate"]
    assert made["errors"] == [], made
    page.goto(fresh.url + "/#/sessions/new")
    page.get_by_label("Name", exact=True).fill("cpu-train")
    page.get_by_test_id("preset-select").click()
    page.get_by_role("option", name=re.compile("^CPU small")).click()
    page.get_by_test_id("image-select").click()
    page.get_by_role("option", name=re.compile("Jupyter SciPy")).click()
    page.get_by_label("datasets (1 GiB)").check()
    page.get_by_test_id("env-add").click()
    page.get_by_test_id("env-name-0").fill("EPOCHS")
    page.get_by_test_id("env-value-0").fill("3")
    page.get_by_test_id("session-shm").fill("1024")
    page.get_by_test_id("template-save").click()
    page.get_by_test_id("template-name").fill("cpu-train-recipe")
    page.get_by_test_id("template-save-submit").click()
    page.get_by_test_id("template-saved").wait_for()
    shot(page, screenshots, "template-saved-from-form")

    page.goto(fresh.url + "/#/templates")
    details = page.get_by_test_id("template-details").first
    details.wait_for()
    assert details.inner_text() == "EPOCHS · shm 1 GiB · /mnt/datasets", details.inner_text()

    page.goto(fresh.url + "/#/sessions/new")
    page.get_by_role("combobox", name="Template", exact=True).click()
    page.get_by_role("option", name="cpu-train-recipe").click()
    assert page.get_by_test_id("env-name-0").input_value() == "EPOCHS"
    assert page.get_by_test_id("env-value-0").input_value() == "3"
    assert page.get_by_test_id("session-shm").input_value() == "1024"
    assert page.get_by_label("datasets (1 GiB)").is_checked()
    assert page.get_by_test_id("preset-select").input_value().startswith("CPU small")
    page.get_by_label("Name", exact=True).fill("from-recipe")
    page.get_by_test_id("session-submit").click()
    page.get_by_test_id("session-page").wait_for()
    sid = page.url.rsplit("/", 1)[-1]
    s = gql(
        page,
        fresh,
        "query($id: ID!) { node(id: $id) { ... on Session { templateName shmMib cpuMillicores env { name value } "
        "mounts { volumeName mountPath } } } }",
        id=sid.replace("%3D", "="),
    )["node"]
    assert s == {
        "templateName": "cpu-train-recipe",
        "shmMib": 1024,
        "cpuMillicores": 2000,
        "env": [{"name": "EPOCHS", "value": "3"}],
        "mounts": [{"volumeName": "datasets", "mountPath": "/mnt/datasets"}],
    }, s
    assert errors == [] and blocked == [], (errors, blocked)
    ctx.close()

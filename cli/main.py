"""The `gshare` command: serve, worker, operator, agent, db and day-one admin commands."""

from __future__ import annotations

import argparse
import asyncio
import getpass
import logging
import sys
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from infra.settings import Settings

log = logging.getLogger("gshare")


def _settings(args: argparse.Namespace) -> Settings:
    overrides: dict[str, Any] = {}
    for key in ("host", "port", "database_url", "data_dir"):
        value = getattr(args, key, None)
        if value is not None:
            overrides[key] = value
    if getattr(args, "no_demo", False):
        overrides["demo"] = False
    return Settings(**overrides)


def _logging(level: str) -> None:
    from infra.request_context import install_log_record_factory

    install_log_record_factory()
    logging.basicConfig(level=level.upper(), format="%(asctime)s %(levelname)s %(name)s%(request_tag)s: %(message)s")
    if logging.getLogger().level >= logging.INFO:
        # the embedded server's initdb/pg_ctl transcripts and each migration's name: below INFO
        for noisy in ("pgserver", "alembic", "httpx"):
            logging.getLogger(noisy).setLevel(logging.WARNING)


# ---------------------------------------------------------------- serve


async def _serve(settings: Settings) -> int:
    import uvicorn

    from api.app import create_app
    from infra.bootstrap import build_container
    from infra.demo import seed_demo
    from infra.startup import DatabaseBehind, ensure_bootstrap_admin, resolve_database

    try:
        url = await resolve_database(settings)
    except DatabaseBehind as exc:
        print(f"gshare: {exc}", file=sys.stderr)
        return 2
    container = build_container(settings, url)
    workers = None
    try:
        admin_password = await ensure_bootstrap_admin(container)
        seeded = settings.demo and settings.embedded and await seed_demo(container)
        if not settings.redis_url:
            # embedded default: the background actors and the periodic scheduler run in this
            # process (dramatiq StubBroker + Worker); with Redis they run in `gshare worker`
            from workers.runtime import WorkerRuntime, build_broker

            workers = WorkerRuntime(container, build_broker(None), threads=2)
            await workers.start()
        app = create_app(container)
        config = uvicorn.Config(
            app,
            host=settings.host,
            port=settings.port,
            log_level=settings.log_level,
            lifespan="on",
            access_log=False,  # api.http.RequestContext writes it, with the request id
            # a WebSocket message over it closes the socket (1009) before it is buffered whole
            ws_max_size=settings.max_websocket_message_bytes,
            # permessage-deflate holds a compressor per socket (~100 KiB resident): off by default
            ws_per_message_deflate=settings.websocket_compression,
            # uvicorn's sans-I/O websockets protocol (its future default): a send costs 0.024 ms of CPU
            # against the legacy one's 0.042, and a socket ~7 KiB less (issue 15, subscriptions at scale)
            ws="websockets-sansio",
        )
        server = uvicorn.Server(config)
        mode = "embedded PostgreSQL" if settings.embedded else "PostgreSQL"
        log.info("serving on http://%s:%s/ (%s)", settings.host, settings.port, mode)
        announce = asyncio.create_task(
            _announce(server, settings, admin_password, seed_activity=bool(seeded and admin_password))
        )
        if workers is not None:
            # uvicorn re-raises SIGTERM/SIGINT once it has shut down, which would end the process
            # before the in-process workers finish their messages; a no-op handler makes it
            # return here instead, so the finally block stops them and closes the database
            import signal

            for sig in (signal.SIGINT, signal.SIGTERM):
                signal.signal(sig, lambda *_: None)
        _tune_gc()
        await server.serve()
        if not announce.done():
            announce.cancel()
            await asyncio.gather(announce, return_exceptions=True)
    finally:
        if workers is not None:
            await workers.stop(timeout_seconds=10)
        await container.aclose()
    return 0


async def _announce(server: Any, settings: Settings, admin_password: str | None, *, seed_activity: bool) -> None:
    """Once the server answers: on a first start with the demo, seed its member, credits and
    sessions through the API (infra.demo_activity); then print where gshare is and the accounts
    created, as the last lines, below the start-up logs."""
    from infra.demo_activity import DemoSeedError, seed_demo_activity
    from infra.startup import credentials_banner

    while not server.started:  # noqa: ASYNC110 (uvicorn offers a flag, not an event)
        await asyncio.sleep(0.05)
    host = "127.0.0.1" if settings.host in ("0.0.0.0", "::", "") else settings.host  # noqa: S104 (a comparison)
    member = None
    try:
        if seed_activity and admin_password is not None:
            try:
                chosen = settings.demo_member_password
                seeded = await seed_demo_activity(
                    f"http://{host}:{settings.port}",
                    admin_password,
                    chosen.get_secret_value() if chosen is not None else None,
                )
                member = (seeded.username, seeded.password)
            except (DemoSeedError, OSError) as exc:
                log.warning("the demo's member and sessions were not seeded: %s", exc)
    finally:  # also when stopped while seeding: a generated admin password is shown this once
        banner = credentials_banner(
            f"http://{settings.host}:{settings.port}/",
            admin_password=admin_password,
            from_env=settings.bootstrap_admin_password is not None,
            member=member,
        )
        print(banner, flush=True)


def _tune_gc() -> None:
    """What the server built at start-up (the schema, the ORM, a cluster's inventory) lives as
    long as the process: frozen, the collector never scans it again. Collections are spaced
    out too: with the default thresholds a busy server collected 100 times a second and the
    full collections paused it for up to a quarter of a second.

    The middle generation is collected every 5 young collections, not 50: what a young
    collection finds alive is mostly the requests in flight (6-12 k objects each time, with 32
    clients), and it dies in the middle generation as cyclic garbage, so with 50 a collection of
    it went through 160 k dead objects at once and paused every request for 470 ms (issue 19,
    gc.callbacks under the admission bench). The oldest generation keeps its spacing (every
    5,000 young collections, as 50 x 100 was)."""
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 5, 1_000)


def run_loop(main: Coroutine[Any, Any, int]) -> int:
    """The long-running commands run on uvloop where it is installed (uvicorn[standard] brings
    it on Linux): asyncpg and the HTTP server spend markedly less CPU per request on it."""
    try:
        import uvloop
    except ImportError:  # pragma: no cover - other platforms
        return asyncio.run(main)
    return uvloop.run(main)


def cmd_serve(args: argparse.Namespace) -> int:
    settings = _settings(args)
    _logging(settings.log_level)
    return run_loop(_serve(settings))


# ---------------------------------------------------------------- db


def cmd_db(args: argparse.Namespace) -> int:
    from infra.db import migrate
    from infra.embedded import start_embedded_postgres

    settings = _settings(args)
    _logging(settings.log_level)
    url = settings.database_url or start_embedded_postgres(settings.data_dir)
    if args.db_command == "upgrade":
        migrate.upgrade(url, args.revision)
        print(f"database upgraded to {args.revision}")
    elif args.db_command == "downgrade":
        migrate.downgrade(url, args.revision)
        print(f"database downgraded to {args.revision}")
    elif args.db_command in ("current", "check"):
        current = asyncio.run(migrate.current_revision(url))
        head = migrate.head_revision()
        print(f"current: {current or '(empty)'}  head: {head}")
        if args.db_command == "check" and current != head:
            return 1
    return 0


# ---------------------------------------------------------------- admin commands


def _with_container(settings: Settings, fn: Callable[[Any], Awaitable[int]]) -> int:
    async def run() -> int:
        from infra.bootstrap import build_container
        from infra.startup import DatabaseBehind, resolve_database

        try:
            url = await resolve_database(settings)
        except DatabaseBehind as exc:
            print(f"gshare: {exc}", file=sys.stderr)
            return 2
        container = build_container(settings, url)
        try:
            return await fn(container)
        finally:
            await container.aclose()

    return asyncio.run(run())


def _system_actor(container: Any) -> Any:
    from domain.tenancy.model import Actor

    return Actor(user_id=container.ids.new_id(), username="cli", is_super_admin=True)


def _password(args: argparse.Namespace) -> str:
    if getattr(args, "password", None):
        return str(args.password)
    if not sys.stdin.isatty():
        return sys.stdin.readline().rstrip("\n")
    first = getpass.getpass("New password: ")
    if getpass.getpass("Repeat: ") != first:
        raise SystemExit("passwords differ")
    return first


def _print_error(exc: Exception) -> int:
    from domain.common.errors import DomainError

    if isinstance(exc, DomainError):
        print(f"gshare: {exc.code}: {exc.message}" + (f" (field {exc.field})" if exc.field else ""), file=sys.stderr)
        return 1
    raise exc


def cmd_org_create(args: argparse.Namespace) -> int:
    from domain.tenancy import services as tenancy

    async def run(c: Any) -> int:
        async with c.uow() as uow:
            try:
                org = await tenancy.organization_create(
                    uow, _system_actor(c), c.ids, c.clock, name=args.name, slug=args.slug
                )
            except Exception as exc:
                return _print_error(exc)
            await uow.commit()
        print(f"created organisation {org.name} ({org.slug}) {org.id}")
        return 0

    return _with_container(_settings(args), run)


def cmd_user_create(args: argparse.Namespace) -> int:
    from domain.tenancy import services as tenancy
    from domain.tenancy.model import Role

    password = _password(args) if not args.no_password else None

    async def run(c: Any) -> int:
        async with c.uow() as uow:
            orgs, _ = await uow.tenancy.list_organizations(None, 0, 1000)
            org = next((o for o in orgs if o.slug == args.org), None)
            if org is None:
                print(f"gshare: no organisation with slug {args.org}", file=sys.stderr)
                return 1
            try:
                user = await tenancy.user_create(
                    uow,
                    _system_actor(c),
                    c.ids,
                    c.clock,
                    c.hasher,
                    organization_id=org.id,
                    username=args.username,
                    email=args.email,
                    display_name=args.name,
                    password=password,
                    role=Role(args.role),
                )
                if args.org_admin:
                    await tenancy.org_admin_set(uow, _system_actor(c), user.id, org.id, True)
                if args.super_admin:
                    await tenancy.super_admin_set(uow, _system_actor(c), user.id, True)
            except Exception as exc:
                return _print_error(exc)
            await uow.commit()
        print(f"created user {user.username} {user.id} in {org.slug}")
        return 0

    return _with_container(_settings(args), run)


def cmd_user_set_password(args: argparse.Namespace) -> int:
    from domain.tenancy import services as tenancy

    password = _password(args)

    async def run(c: Any) -> int:
        async with c.uow() as uow:
            user = await uow.tenancy.get_user_by_username(args.username)
            if user is None:
                print(f"gshare: no user {args.username}", file=sys.stderr)
                return 1
            try:
                await tenancy.user_set_password(uow, _system_actor(c), c.hasher, user.id, new_password=password)
            except Exception as exc:
                return _print_error(exc)
            await uow.commit()
        print(f"password of {args.username} changed")
        return 0

    return _with_container(_settings(args), run)


def cmd_user_list(args: argparse.Namespace) -> int:
    async def run(c: Any) -> int:
        async with c.uow() as uow:
            users, total = await uow.tenancy.list_users(
                org_ids=None, group_ids=None, search=args.search, offset=0, limit=500
            )
        for u in users:
            flags = ",".join(f for f, on in (("super_admin", u.is_super_admin), ("disabled", not u.is_active)) if on)
            print(f"{u.username:24} {u.email:32} {flags}")
        print(f"({total} users)")
        return 0

    return _with_container(_settings(args), run)


# ---------------------------------------------------------------- worker / operator


def cmd_worker(args: argparse.Namespace) -> int:
    settings = _settings(args)
    if not settings.redis_url:
        print(
            "gshare: `gshare worker` runs background actors from a Redis broker; set GSHARE_REDIS_URL.\n"
            "In the embedded default the same actors run inside `gshare serve`.",
            file=sys.stderr,
        )
        return 2
    _logging(settings.log_level)
    from workers.main import run_worker

    return run_worker(settings, processes=args.processes, threads=args.threads)


def cmd_config(args: argparse.Namespace) -> int:
    """The effective configuration of this environment: every setting, secrets masked, and
    where its value came from."""
    import json

    from infra.settings import effective_configuration

    overrides = {k: getattr(args, k) for k in ("database_url", "data_dir") if getattr(args, k, None) is not None}
    from pydantic import ValidationError

    try:
        rows = effective_configuration(overrides)
    except ValidationError as exc:  # a value the settings refuse: name the setting
        for error in exc.errors():
            name = "GSHARE_" + str(error["loc"][0]).upper() if error["loc"] else "settings"
            print(f"gshare: {name}: {error['msg']}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps([{"setting": r.env, "value": r.value, "source": r.source} for r in rows], indent=2))
        return 0
    width = max(len(r.env) for r in rows)
    value_width = min(48, max(len(r.value) for r in rows))
    for r in rows:
        print(f"{r.env:{width}}  {r.value:{value_width}}  {r.source}")
    return 0


def cmd_operator(args: argparse.Namespace) -> int:
    try:
        # the module, not the package attribute: an editable install made before the package had
        # an __init__ imports it as a namespace package, where `main` is the submodule
        from gshare_operator.main import main as operator_main  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        print("gshare: the operator package is not installed in this environment", file=sys.stderr)
        return 2
    return int(operator_main(args.operator_args) or 0)


def cmd_agent(args: argparse.Namespace) -> int:
    """Replace this process by `python -m gshare_agent …`: the node agent must stay under
    30 MiB resident, and this module has already imported the control plane's settings
    (pydantic). The PID stays (PID 1 in the DaemonSet's container gets the signals)."""
    import importlib.util
    import os

    if importlib.util.find_spec("gshare_agent") is None:
        print("gshare: the node agent package is not installed in this environment", file=sys.stderr)
        return 2
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(sys.executable, [sys.executable, "-m", "gshare_agent", *args.agent_args])  # noqa: S606
    return 0  # pragma: no cover - execv does not return


# ---------------------------------------------------------------- parser


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="gshare", description="Share GPU clusters fairly and bill them per second.")
    p.add_argument("--database-url", dest="database_url", help="PostgreSQL URL (default: embedded server)")
    p.add_argument("--data-dir", dest="data_dir", help="where the embedded server and secrets live")
    sub = p.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="run the API and console (migrates and seeds in embedded mode)")
    serve.add_argument("--host")
    serve.add_argument("--port", type=int)
    serve.add_argument("--no-demo", action="store_true", help="do not seed the demo catalog (or GSHARE_DEMO=false)")
    serve.set_defaults(func=cmd_serve)

    worker = sub.add_parser("worker", help="run background actors from the Redis broker")
    worker.add_argument("--processes", type=int, default=1)
    worker.add_argument("--threads", type=int, default=4)
    worker.set_defaults(func=cmd_worker)

    config = sub.add_parser(
        "config", help="print the effective configuration (secrets masked) and where each value came from"
    )
    config.add_argument("--json", action="store_true", help="as JSON")
    config.set_defaults(func=cmd_config)

    operator = sub.add_parser("operator", help="run the per-cluster Kubernetes operator")
    operator.add_argument("operator_args", nargs=argparse.REMAINDER)
    operator.set_defaults(func=cmd_operator)

    agent = sub.add_parser("agent", help="run the node agent (live usage of this node's session pods)")
    agent.add_argument("agent_args", nargs=argparse.REMAINDER)
    agent.set_defaults(func=cmd_agent)

    db = sub.add_parser("db", help="database migrations")
    db_sub = db.add_subparsers(dest="db_command", required=True)
    up = db_sub.add_parser("upgrade", help="migrate to the code's head (or --revision)")
    up.add_argument("--revision", default="head")
    down = db_sub.add_parser("downgrade", help="migrate down to a revision")
    down.add_argument("revision")
    db_sub.add_parser("current", help="print the database's and the code's revisions")
    db_sub.add_parser("check", help="exit 1 when the database is not at the code's head")
    db.set_defaults(func=cmd_db)

    org = sub.add_parser("org", help="organisations")
    org_sub = org.add_subparsers(dest="org_command", required=True)
    oc = org_sub.add_parser("create")
    oc.add_argument("name")
    oc.add_argument("--slug")
    oc.set_defaults(func=cmd_org_create)

    user = sub.add_parser("user", help="user accounts")
    user_sub = user.add_subparsers(dest="user_command", required=True)
    uc = user_sub.add_parser("create", help="create a local account in an organisation")
    uc.add_argument("username")
    uc.add_argument("--email", required=True)
    uc.add_argument("--org", default="default", help="organisation slug (default: default)")
    uc.add_argument("--name")
    uc.add_argument("--role", default="member", choices=["member", "guest", "group_admin"])
    uc.add_argument("--password", help="otherwise read from stdin or prompted")
    uc.add_argument("--no-password", action="store_true", help="OIDC-only account")
    uc.add_argument("--org-admin", action="store_true")
    uc.add_argument("--super-admin", action="store_true")
    uc.set_defaults(func=cmd_user_create)
    up_ = user_sub.add_parser("set-password", help="reset a password (break-glass)")
    up_.add_argument("username")
    up_.add_argument("--password")
    up_.set_defaults(func=cmd_user_set_password)
    ul = user_sub.add_parser("list")
    ul.add_argument("--search")
    ul.set_defaults(func=cmd_user_list)
    return p


PASSTHROUGH = {"operator": "operator_args", "agent": "agent_args"}


def _operator_split(argv: list[str]) -> int | None:
    """Index of the `operator` (or `agent`) command in argv, or None: everything after it is
    that program's own (argparse would otherwise take `--help` and refuse its options)."""
    i = 0
    while i < len(argv):
        token = argv[i]
        if token in ("--database-url", "--data-dir"):
            i += 2
        elif token.startswith("-"):
            i += 1
        else:
            return i if token in PASSTHROUGH else None
    return None


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    split = _operator_split(argv)
    if split is not None:
        args = build_parser().parse_args(argv[: split + 1])
        rest = argv[split + 1 :]
        setattr(args, PASSTHROUGH[argv[split]], rest[1:] if rest[:1] == ["--"] else rest)
        return int(args.func(args) or 0)
    args = build_parser().parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())

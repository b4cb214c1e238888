"""Settings from the environment (`GSHARE_*`) and an optional TOML file (`GSHARE_CONFIG_FILE`).

No `database_url` means the embedded default: gshare starts its own PostgreSQL (pgserver) in
`data_dir`, runs events and tasks in-process and drives the simulated cluster.
"""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from pydantic import Field, SecretStr
from pydantic_core import PydanticUndefined
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

CONFIG_FILE_ENV = "GSHARE_CONFIG_FILE"

# Read by tests and fault injection only: never product settings, never in the README's table
TEST_HOOKS: dict[str, str] = {
    "GSHARE_TEST_DATABASE_URL": "the test suite's PostgreSQL server",
    "GSHARE_TEST_DATABASE_TEMPLATE": "the test suite's template database",
    "GSHARE_TEST_KEEP_DATABASE": "the test suite keeps its databases",
    "GSHARE_TEST_REDIS_URL": "the test suite's Redis",
    "GSHARE_TEST_KILL_POINT": "fault injection: SIGKILL a worker at this point (`before_ack`, `after_work`)",
    "GSHARE_TEST_KILL_ACTOR": "fault injection: the actor to kill on",
    "GSHARE_TEST_KILL_MARKER": "fault injection: a file created when killing, so it happens once",
    "GSHARE_BENCH_DATABASE_URL": "the benchmarks' PostgreSQL server",
    "GSHARE_TEST_KILL_AFTER_HOLDS": "fault injection: SIGKILL the process right after its N-th credit hold",
}


def _default_data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "gshare"


# Who reads a setting, for the generated tables: "all" (every `gshare` command that opens the
# database), "serve" (the API process), "worker" (`gshare worker`), "jobs" (whoever runs the
# background jobs: `gshare worker`, or `gshare serve` without Redis, which runs them in-process)
ALL, SERVE, WORKER, JOBS = "all", "serve", "worker", "jobs"


def setting(default: Any = PydanticUndefined, description: str = "", *, used_by: str = ALL, **kw: Any) -> Any:
    """A field of the settings with its description and the processes that read it."""
    return Field(default, description=description, json_schema_extra={"used_by": used_by}, **kw)


class Settings(BaseSettings):
    """Every setting of the control plane's processes (`gshare serve`, `gshare worker`, the admin
    commands). The operator runs on the clusters and keeps its own `gshare_operator.settings`
    (it must not import infra); `python -m cli.settings_docs` documents both."""

    model_config = SettingsConfigDict(env_prefix="GSHARE_", extra="ignore")

    config_file: Path | None = setting(
        None, "a TOML file of settings (keys without the prefix); read from the environment only"
    )
    database_url: str | None = setting(None, "PostgreSQL (`postgresql://…`); unset = embedded server")
    redis_url: str | None = setting(
        None,
        "Redis for events across processes and the task broker; unset = in-process events and tasks "
        "(the periodic jobs then run inside `gshare serve`; with it they run only in `gshare worker`)",
    )
    data_dir: Path = setting(
        default_factory=_default_data_dir,
        description="where the embedded PostgreSQL and the generated secret key live "
        "(`$XDG_DATA_HOME/gshare`, else `~/.local/share/gshare`)",
    )
    host: str = setting("127.0.0.1", "the API's listen address (`gshare serve --host`)", used_by=SERVE)
    port: int = setting(8000, "the API's listen port (`gshare serve --port`)", used_by=SERVE)
    public_url: str | None = setting(
        None,
        "the public origin (cookies, WebSocket origin check, OIDC redirect); default `http://HOST:PORT`",
        used_by=SERVE,
    )
    demo: bool = setting(True, "seed the demo catalog and inventory into an empty embedded database", used_by=SERVE)
    cluster_inventory: Path | None = setting(
        None, "a YAML inventory for the simulated cluster (default: the built-in demo)"
    )
    simulated_cluster: bool | None = setting(
        None,
        "run the simulated cluster (default: on in embedded mode only). Every process that sets it (each `gshare "
        "serve` replica, each `gshare worker`) drives the same one: its state is in PostgreSQL and one process "
        "hosts it (pod starts, jobs, status reports, usage), another taking over when the host dies",
    )
    simulated_host_poll_seconds: float = setting(
        1.0,
        "the simulated cluster is one for every process (its state in PostgreSQL), hosted by one of them: "
        "how often the others try to take it over from a dead host, and the host looks for requests besides "
        "the ones Redis announces",
    )
    simulated_start_delay: float = setting(2.0, "seconds a simulated pod takes to start")
    simulated_job_seconds: float = setting(
        30.0,
        "seconds a simulated batch job runs (it exits with the last `exit <n>` its command names, else 0)",
    )
    hold_window_seconds: int = setting(3600, "how far ahead a session's credit hold reaches")
    actor_cache_seconds: float = setting(
        10.0,
        "how long a resolved token or login cookie is reused per process (0: never); a change to the user, "
        "their roles, memberships, active group or credentials forgets it at once, in other processes through Redis",
        used_by=SERVE,
    )
    # an admission in flight holds a connection only while it reads its references (steps 1-5):
    # it then waits for its batch, which one connection decides (issue 19); the wider the gate,
    # the more admissions a batch decides together
    admission_concurrency: int = setting(32, "admissions in flight per process (the rest wait in line)")
    # connections kept open: size it to the requests a process serves at once. Connections
    # beyond it (the overflow) are opened for a burst and closed when returned, and opening one
    # costs the server more CPU than the statements a request runs on it
    database_pool_size: int = setting(
        20, "database connections kept open per process (keep it at least the requests served at once)"
    )
    database_max_overflow: int = setting(
        20, "database connections opened beyond the pool for a burst, closed when returned"
    )

    demo_member_password: SecretStr | None = setting(
        None,
        "password of the demo's member `demo`, seeded on a first start with the demo (default: generated and "
        "printed once)",
        used_by=SERVE,
    )
    bootstrap_admin_password: SecretStr | None = setting(
        None, "password of the first `admin` super_admin, created when no super_admin exists", used_by=SERVE
    )
    secret_key: SecretStr | None = setting(
        None, "signs cookies and the OIDC state; generated into the data dir when unset"
    )
    kubeconfig_key: SecretStr | None = setting(
        None,
        "a Fernet key encrypting stored cluster kubeconfigs (`Fernet.generate_key()`); "
        "unset = derived from the secret key",
    )
    cookie_secure: bool = setting(False, "mark cookies Secure (`true` behind HTTPS)", used_by=SERVE)
    metrics_token: SecretStr | None = setting(
        None,
        "the API's `/metrics` answers only `Authorization: Bearer <token>` (401 otherwise); unset, the API "
        "serves no `/metrics` (404). In Prometheus: `authorization: {credentials_file: …}` in the scrape config. "
        "`gshare worker` serves its own metrics on `GSHARE_WORKER_METRICS_ADDR`:`GSHARE_WORKER_METRICS_PORT`",
        used_by=SERVE,
    )
    login_session_hours: int = setting(12, "how long a console sign-in lasts", used_by=SERVE)

    graphiql: bool = setting(True, "serve GraphiQL at /graphql", used_by=SERVE)
    introspection: bool = setting(True, "answer GraphQL introspection", used_by=SERVE)
    persisted_documents_only: bool = setting(
        False,
        "answer HTTP queries and mutations only when sent as the hash of a document the console was built with "
        "(`extensions.persistedQuery.sha256Hash`, from web/dist/persisted-documents.json); a document's text is "
        "refused with `PERSISTED_QUERY_REQUIRED`. For production consoles with no other API client (GraphiQL, "
        "scripts and tokens' clients send text)",
        used_by=SERVE,
    )
    max_query_depth: int = setting(12, "field nesting a GraphQL document may have", used_by=SERVE)
    max_query_tokens: int = setting(2000, "tokens (and, separately, comments) of a GraphQL document", used_by=SERVE)
    max_aliases: int = setting(30, "aliases of a GraphQL document", used_by=SERVE)
    max_query_fields: int = setting(2000, "fields a document may select once its fragments are spread", used_by=SERVE)
    max_query_length: int = setting(
        100_000,
        "characters of a GraphQL document (whitespace, comments and strings count); past any of these limits "
        "the answer is `DOCUMENT_TOO_LARGE` or `QUERY_TOO_COMPLEX`",
        used_by=SERVE,
    )
    max_field_comparisons: int = setting(
        5000, "work graphql-core may spend checking that repeated fields merge", used_by=SERVE
    )
    validation_timeout_seconds: float = setting(
        2.0, "how long validating a document may take (`VALIDATION_TIMEOUT` past it)", used_by=SERVE
    )
    request_timeout_seconds: float = setting(
        30.0,
        "a GraphQL request's whole time (HTTP 503 `REQUEST_TIMEOUT` past it); a mutation already executing "
        "is let finish",
        used_by=SERVE,
    )
    max_request_body_bytes: int = setting(
        1024 * 1024,
        "request bodies over it are refused with 413 `REQUEST_TOO_LARGE` before they are read "
        "(signed callbacks: 8 MiB)",
        used_by=SERVE,
    )
    max_websocket_message_bytes: int = setting(
        1024 * 1024, "a WebSocket message over it closes the socket (1009)", used_by=SERVE
    )
    websocket_compression: bool = setting(
        False,
        "offer WebSocket permessage-deflate to clients that ask; off, each open socket costs ~100 KiB "
        "less server memory (its compressor's window) and each message no compression CPU",
        used_by=SERVE,
    )
    max_subscriptions_per_connection: int = setting(
        20,
        "GraphQL subscriptions one WebSocket may hold (past it: an `error` with `TOO_MANY_SUBSCRIPTIONS`, "
        "`per: connection`)",
        used_by=SERVE,
    )
    max_websockets_per_user: int = setting(
        10,
        "open WebSockets one user may hold per API process (past it the socket is closed with 4029, "
        "the reason naming the limit)",
        used_by=SERVE,
    )
    max_subscriptions_per_user: int = setting(
        100,
        "live subscriptions one user may hold per API process, all sockets together (past it: an `error` "
        "with `TOO_MANY_SUBSCRIPTIONS`, `limit` and `per: user`)",
        used_by=SERVE,
    )
    websocket_outbox_messages: int = setting(
        100,
        "messages a socket may have waiting to be sent; past it the client cannot keep up and the socket is "
        "closed with 4013. A subscription of whole states (`viewer`, `sessionStatus`, `mySessions`, `myWallet`, "
        "`capacityChanged` …) keeps only its latest unsent one and does no new work until the client took it",
        used_by=SERVE,
    )
    subscription_refresh_concurrency: int = setting(
        4,
        "subscriptions re-reading their state at once per process (the rest wait their turn), so an event "
        "reaching thousands of them never crowds HTTP requests out of the event loop and the database pool",
        used_by=SERVE,
    )
    allowed_origins: list[str] = setting(
        default_factory=list,
        description="extra WebSocket origins besides the server's own (a JSON list)",
        used_by=SERVE,
    )

    oidc_issuer: str | None = setting(None, "OIDC issuer URL (sign-in by authorization code + PKCE)", used_by=SERVE)
    oidc_client_id: str | None = setting(
        None, "OIDC client id (sign-in is on with issuer and client id)", used_by=SERVE
    )
    oidc_client_secret: SecretStr | None = setting(None, "OIDC client secret", used_by=SERVE)
    oidc_organization: str = setting(
        "default", "slug of the organisation new OIDC users join (its Default group)", used_by=SERVE
    )
    oidc_scopes: str = setting("openid email profile", "OIDC scopes asked for", used_by=SERVE)

    log_level: str = setting("info", "log level (debug, info, warning, error)")

    cluster_follow_seconds: float = setting(
        30.0,
        "how often a process re-reads the registered clusters besides their announced changes "
        "(its cluster adapters follow registration, kubeconfig changes and deregistration)",
    )

    # ------------------------------------------------------------------ background work
    worker_metrics_port: int = setting(
        9464,
        "Prometheus metrics port of `gshare worker` (0 = off; `--processes N` uses PORT … PORT+N-1)",
        used_by=WORKER,
    )
    worker_metrics_addr: str = setting(
        "127.0.0.1",
        "listen address of the worker's metrics (loopback by default; `0.0.0.0` for a scraper in another pod)",
        used_by=WORKER,
    )
    worker_tick_seconds: float = setting(1.0, "how often the periodic scheduler looks for due periods", used_by=JOBS)
    worker_sweep_seconds: float = setting(
        5.0, "how often the scheduler re-enqueues claimed periods left pending", used_by=JOBS
    )
    worker_redeliver_after_seconds: float = setting(
        120.0, "a claimed period still pending this long is enqueued again", used_by=JOBS
    )
    worker_namespace: str = setting("gshare", "the Redis key namespace of the task broker", used_by=WORKER)
    worker_heartbeat_timeout_ms: int = setting(
        60_000, "a worker silent this long is dead: its unacknowledged messages go back to the queue", used_by=WORKER
    )
    worker_maintenance_chance: int = setting(
        1000, "one in N broker calls also runs the broker's maintenance (dead-worker requeue)", used_by=WORKER
    )
    worker_job_periods: str | None = setting(
        None,
        "periodic jobs' cadences overridden as `name=seconds,…` (e.g. `credits.refills=30`); read by whoever "
        "runs the jobs and by the API's operations view, which shows the cadence: keep it equal for both",
    )
    idle_gpu_util_percent: float = setting(
        5.0, "a GPU session is idle while its GPU utilisation stays below this", used_by=JOBS
    )
    idle_cpu_millicores: int = setting(
        100,
        "a CPU-only session, or one whose samples carry no GPU data, is idle while its CPU stays below this",
        used_by=JOBS,
    )
    residue_grace_seconds: int = setting(
        120,
        "crash residue is what stays this long: an open session hold its session does not name, a session "
        "SCHEDULED or STARTING without cluster progress (handed off again), a RUNNING session missing from its "
        "cluster's listing (placed again); keep it above the longest admission",
        used_by=ALL,
    )
    residue_give_up_seconds: int = setting(
        1800,
        "a session SCHEDULED or STARTING without cluster progress this long is failed with the reason "
        "(its capacity freed, its hold settled); keep it above the slowest image pull",
        used_by=JOBS,
    )
    idle_window_seconds: int = setting(
        300, "idle means every sample of this last window was below the thresholds", used_by=JOBS
    )
    idle_no_data_seconds: int = setting(
        600,
        "a session (GPU or CPU-only) RUNNING this long without a usage sample in the last idle window is reported as "
        "'no data' (its owner told once, the job's summary and log name it): never judged idle",
        used_by=JOBS,
    )
    idle_warning_seconds: int = setting(
        300, "an idle session's owner is told this long before idle reclaim pauses it", used_by=JOBS
    )
    usage_history_retention_days: int = setting(
        90,
        "per-minute usage history (each session's GPU util, GPU memory, CPU, memory and allocation) is kept this "
        "many days; the `usage.history` job deletes older minutes",
        used_by=JOBS,
        ge=1,
    )

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        sources: list[PydanticBaseSettingsSource] = [init_settings, env_settings]
        config_file = os.environ.get(CONFIG_FILE_ENV)
        if config_file:
            sources.append(TomlConfigSettingsSource(settings_cls, toml_file=Path(config_file)))
        return tuple(sources)

    @property
    def embedded(self) -> bool:
        return not self.database_url

    @property
    def use_simulated_cluster(self) -> bool:
        return self.embedded if self.simulated_cluster is None else self.simulated_cluster

    @property
    def oidc_enabled(self) -> bool:
        return bool(self.oidc_issuer and self.oidc_client_id)

    def own_origin(self) -> str:
        return (self.public_url or f"http://{self.host}:{self.port}").rstrip("/")

    def resolved_secret_key(self) -> str:
        if self.secret_key:
            return self.secret_key.get_secret_value()
        path = self.data_dir / "secret_key"
        if path.exists():
            return path.read_text().strip()
        import secrets

        self.data_dir.mkdir(parents=True, exist_ok=True)
        key = secrets.token_urlsafe(48)
        path.write_text(key)
        path.chmod(0o600)
        return key


def load_settings(**overrides: Any) -> Settings:
    return Settings(**overrides)


# ---------------------------------------------------------------------- `gshare config`

MASK = "********"


@dataclass(frozen=True)
class EffectiveValue:
    env: str
    value: str
    source: str  # "default", "file <path>", "environment", "command line"


def _masked_url(url: str) -> str:
    """A URL with its password replaced by the mask (`postgresql://u:********@h/db`)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = f"{parts.username or ''}:{MASK}@{parts.hostname or ''}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def _shown_value(value: Any) -> str:
    if isinstance(value, SecretStr):
        return MASK
    if value is None:
        return "unset"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return json.dumps(value)
    return str(value)


def effective_configuration(
    overrides: Mapping[str, Any] | None = None, environ: Mapping[str, str] | None = None
) -> list[EffectiveValue]:
    """Every setting's value as a process would load it, secrets and URL passwords masked, with
    where it came from (the command line wins over the environment, which wins over the file)."""
    env = dict(os.environ if environ is None else environ)
    overrides = dict(overrides or {})
    upper = {k.upper(): k for k in env}
    config_file = env.get(CONFIG_FILE_ENV)
    from_file: dict[str, Any] = {}
    if config_file and Path(config_file).is_file():
        with open(config_file, "rb") as fh:
            from_file = tomllib.load(fh)
    settings = Settings(**overrides)
    rows = []
    for name in Settings.model_fields:
        key = f"GSHARE_{name.upper()}"
        if name in overrides:
            source = "command line"
        elif key in upper:
            source = "environment"
        elif name in from_file:
            source = f"file {config_file}"
        elif name == "config_file" and config_file:
            source = "environment"
        else:
            source = "default"
        value = getattr(settings, name)
        if name == "config_file" and config_file:
            value = config_file
        shown = _shown_value(value)
        if name in ("database_url", "redis_url") and value:
            shown = _masked_url(str(value))
        rows.append(EffectiveValue(key, shown, source))
    return rows

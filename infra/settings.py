"""Settings from the environment (`GSHARE_*`) and an optional TOML file (`GSHARE_CONFIG_FILE`).

No `database_url` means the embedded default: gshare starts its own PostgreSQL (pgserver) in
`data_dir`, runs events and tasks in-process and drives the simulated cluster.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pydantic import Field, SecretStr
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)


def _default_data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "gshare"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="GSHARE_", extra="ignore")

    database_url: str | None = Field(default=None, description="PostgreSQL URL; empty = embedded server")
    redis_url: str | None = Field(default=None, description="Redis URL; empty = in-process events and tasks")
    data_dir: Path = Field(default_factory=_default_data_dir)
    host: str = "127.0.0.1"
    port: int = 8000
    public_url: str | None = None
    demo: bool = Field(default=True, description="seed a demo catalog and inventory into an empty database")
    cluster_inventory: Path | None = Field(default=None, description="YAML inventory for the simulated cluster")
    simulated_cluster: bool | None = Field(default=None, description="default: on in embedded mode")
    simulated_start_delay: float = Field(default=2.0, description="seconds a simulated pod takes to start")
    simulated_job_seconds: float = Field(default=30.0, description="seconds a simulated batch job runs")
    hold_window_seconds: int = Field(default=3600, description="how far ahead a session's credit hold reaches")
    actor_cache_seconds: float = Field(
        default=10.0,
        description="how long a resolved token or login cookie is reused without reading it again (0: never); "
        "changes to the user forget it at once",
    )
    admission_concurrency: int = Field(
        default=8, description="admissions in flight per process (the rest wait in line)"
    )
    # connections kept open: size it to the requests a process serves at once. Connections
    # beyond it (the overflow) are opened for a burst and closed when returned, and opening one
    # costs the server more CPU than the statements a request runs on it
    database_pool_size: int = 20
    database_max_overflow: int = 20

    bootstrap_admin_password: SecretStr | None = None
    secret_key: SecretStr | None = Field(
        default=None, description="signs cookies/OIDC state; generated in data_dir if unset"
    )
    cookie_secure: bool = False
    metrics_token: SecretStr | None = Field(
        default=None,
        description="bearer token Prometheus sends to scrape /metrics (Authorization: Bearer …); "
        "unset: the API serves no /metrics",
    )
    login_session_hours: int = 12

    graphiql: bool = True
    introspection: bool = True
    max_query_depth: int = 12
    max_query_tokens: int = 2000
    max_aliases: int = 30
    max_query_fields: int = Field(
        default=2000, description="fields a document may select once its fragments are spread"
    )
    max_query_length: int = Field(
        default=100_000, description="characters of a GraphQL document (whitespace, comments and strings count)"
    )
    max_field_comparisons: int = Field(
        default=5000, description="work graphql-core may spend checking that repeated fields merge"
    )
    validation_timeout_seconds: float = 2.0
    request_timeout_seconds: float = Field(
        default=30.0, description="a GraphQL request's whole time; a mutation already executing is let finish"
    )
    max_request_body_bytes: int = 1024 * 1024
    max_websocket_message_bytes: int = 1024 * 1024
    max_subscriptions_per_connection: int = 20
    allowed_origins: list[str] = Field(
        default_factory=list, description="extra WebSocket origins besides the server's own"
    )

    oidc_issuer: str | None = None
    oidc_client_id: str | None = None
    oidc_client_secret: SecretStr | None = None
    oidc_organization: str = "default"
    oidc_scopes: str = "openid email profile"

    log_level: str = "info"

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
        config_file = os.environ.get("GSHARE_CONFIG_FILE")
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

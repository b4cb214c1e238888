"""Issue 13, finding 8: a session's environment must not reach the GPU runtime.

`NVIDIA_VISIBLE_DEVICES=all` and `CUDA_DEVICE_MEMORY_LIMIT=80g` were accepted on a CPU-only
session and rendered into the pod. Every path that takes environment variables (sessions,
jobs, templates, sessions from a template) refuses the names the GPU stack reads with a typed
error naming the field, and writes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import func, select, text

from tests.integration.sessions.test_lifecycle import catalog_for, member
from tests.support.api import Gql, World, gid, unique

CREATE = (
    "mutation($input: SessionCreateInput!) { sessionCreate(input: $input) "
    "{ session { id } errors { code field message } } }"
)
TEMPLATE = (
    "mutation($input: TemplateCreateInput!) { templateCreate(input: $input) "
    "{ template { id } errors { code field message } } }"
)
RESERVED = [
    ("NVIDIA_VISIBLE_DEVICES", "all"),
    ("CUDA_DEVICE_MEMORY_LIMIT", "80g"),
    ("CUDA_DEVICE_MEMORY_LIMIT_0", "81920m"),
    ("CUDA_DEVICE_SM_LIMIT", "100"),
    ("CUDA_DISABLE_CONTROL", "true"),
    ("CUDA_VISIBLE_DEVICES", "0,1,2,3"),
    ("LD_PRELOAD", "/tmp/x.so"),
    ("GSHARE_ACCESS_TOKEN", "forged"),
]


async def rows(container: Any, table: str) -> int:
    async with container.engine.connect() as conn:
        return int((await conn.execute(select(func.count()).select_from(text(table)))).scalar_one())


@pytest.mark.parametrize(("name", "value"), RESERVED)
async def test_reserved_variables_are_refused_everywhere_env_is_taken(
    container: Any, world: World, http: Any, name: str, value: str
) -> None:
    cat = await catalog_for(container)
    _, token = await member(container, world, world.default_a, credits=0, prefix="env")
    gql = Gql(http, token)
    await gql(
        "mutation($g: ID!) { activeGroupSet(input: {groupId: $g}) { errors { code } } }",
        g=gid("Group", world.default_a),
    )
    env = [{"name": "TZ", "value": "UTC"}, {"name": name, "value": value}]
    before = {t: await rows(container, t) for t in ("sessions", "templates")}
    asks = {
        "sessionCreate": (
            CREATE,
            {
                "name": unique("s"),
                "imageId": gid("Image", cat["image"].id),
                "presetId": gid("Preset", cat["cpu"].id),
                "env": env,
            },
        ),
        "job": (
            CREATE,
            {
                "name": unique("j"),
                "imageId": gid("Image", cat["image"].id),
                "presetId": gid("Preset", cat["cpu"].id),
                "kind": "JOB",
                "env": env,
            },
        ),
        "templateCreate": (
            TEMPLATE,
            {
                "groupId": gid("Group", world.default_a),
                "name": unique("t"),
                "imageId": gid("Image", cat["image"].id),
                "presetId": gid("Preset", cat["cpu"].id),
                "env": env,
            },
        ),
    }
    for label, (query, payload) in asks.items():
        data = await gql(query, input=payload)
        errors = next(iter(data.values()))["errors"]
        assert [(e["code"], e["field"]) for e in errors] == [("ENV_RESERVED", "env")], (label, errors)
        assert name in errors[0]["message"], (label, errors)
    assert {t: await rows(container, t) for t in ("sessions", "templates")} == before

"""Bad input answers with a typed error naming the field, and changes nothing."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from sqlalchemy import func, select, text

from tests.support.api import Gql, World, gid, unique

TABLES = ["organizations", "groups", "users", "offerings", "presets", "registries", "images"]


async def counts(container: Any) -> dict[str, int]:
    out = {}
    async with container.engine.connect() as conn:
        for t in TABLES:
            out[t] = (await conn.execute(select(func.count()).select_from(text(t)))).scalar_one()
    return out


async def run(gql: Gql, name: str, input_type: str, input: dict[str, Any]) -> list[dict[str, Any]]:
    data = await gql(
        f"mutation($input: {input_type}!) {{ {name}(input: $input) {{ errors {{ code field message }} }} }}",
        input=input,
    )
    return data[name]["errors"]  # type: ignore[no-any-return]


CASES: list[tuple[str, str, str, dict[str, Any], list[tuple[str, str]]]] = [
    # id, mutation, input type, input, expected (code, field) pairs
    (
        "cpu-only preset with a GPU count",
        "presetCreate",
        "PresetCreateInput",
        {"name": "cpu+gpu", "cpuMillicores": 1000, "memoryMib": 1024, "tier": "NONE", "gpuCount": 2},
        [("TIER_ON_CPU_ONLY_PRESET", "gpuCount")],
    ),
    (
        "negative hourly rate",
        "offeringCreate",
        "OfferingCreateInput",
        {"vendor": "NVIDIA", "name": "neg", "vramMib": 1000, "minCuda": "12.0", "hourlyRateMicro": -1},
        [("INVALID_VALUE", "hourlyRate")],
    ),
    (
        "CUDA version that is not a version",
        "offeringCreate",
        "OfferingCreateInput",
        {"vendor": "NVIDIA", "name": "badcuda", "vramMib": 1000, "minCuda": "twelve", "hourlyRateMicro": 1},
        [("INVALID_CUDA_VERSION", "minCuda")],
    ),
    (
        "several bad fields at once",
        "offeringCreate",
        "OfferingCreateInput",
        {"vendor": " ", "name": "x", "vramMib": 0, "minCuda": "1.x", "hourlyRateMicro": -5},
        [
            ("INVALID_VALUE", "vendor"),
            ("INVALID_VALUE", "vramMib"),
            ("INVALID_CUDA_VERSION", "minCuda"),
            ("INVALID_VALUE", "hourlyRate"),
        ],
    ),
    (
        "image CUDA not a version",
        "imageCreate",
        "ImageCreateInput",
        {"name": "img", "reference": "docker.io/library/python:3.12", "cudaVersion": "latest"},
        [("INVALID_CUDA_VERSION", "cudaVersion")],
    ),
    (
        "image reference with spaces",
        "imageCreate",
        "ImageCreateInput",
        {"name": "img", "reference": "not an image"},
        [("INVALID_IMAGE_REFERENCE", "reference")],
    ),
    (
        "unknown organisation id",
        "groupCreate",
        "GroupCreateInput",
        {"organizationId": gid("Organization", uuid.uuid4()), "name": "g"},
        [("NOT_FOUND", "id")],
    ),
    (
        "id of the wrong type",
        "groupCreate",
        "GroupCreateInput",
        {"organizationId": gid("Group", uuid.uuid4()), "name": "g"},
        [("NOT_FOUND", "organizationId")],
    ),
    ("malformed id", "groupUpdate", "GroupUpdateInput", {"id": "bm90LWFuLWlk", "name": "g"}, [("NOT_FOUND", "id")]),
    (
        "exclusive preset without cards",
        "presetCreate",
        "PresetCreateInput",
        {"name": "excl", "cpuMillicores": 1000, "memoryMib": 1024, "tier": "EXCLUSIVE"},
        [("INVALID_VALUE", "gpuCount")],
    ),
    (
        "shm larger than memory",
        "presetCreate",
        "PresetCreateInput",
        {"name": "shm", "cpuMillicores": 1000, "memoryMib": 1024, "shmMib": 4096, "tier": "NONE"},
        [("INVALID_VALUE", "shmMib")],
    ),
    (
        "bad email",
        "userCreate",
        "UserCreateInput",
        {"organizationId": "ORG_A", "username": "bademail", "email": "nope"},
        [("INVALID_VALUE", "email")],
    ),
    (
        "short password",
        "userCreate",
        "UserCreateInput",
        {"organizationId": "ORG_A", "username": "shortpw", "email": "s@example.org", "password": "123"},
        [("WEAK_PASSWORD", "password")],
    ),
    (
        "token expiry out of range",
        "personalAccessTokenCreate",
        "PersonalAccessTokenCreateInput",
        {"name": "t", "expiresInDays": 1000},
        [("INVALID_VALUE", "expiresInDays")],
    ),
]


@pytest.mark.parametrize(("case", "name", "input_type", "input", "expected"), CASES, ids=[c[0] for c in CASES])
async def test_bad_input_is_refused_by_field_and_changes_nothing(
    case: str,
    name: str,
    input_type: str,
    input: dict[str, Any],
    expected: list[tuple[str, str]],
    http: Any,
    container: Any,
    fresh_world: World,
) -> None:
    world = fresh_world
    gql = Gql(http, world.tokens["super_admin"])
    payload = {k: (gid("Organization", world.org_a) if v == "ORG_A" else v) for k, v in input.items()}
    before = await counts(container)
    errors = await run(gql, name, input_type, payload)
    assert [(e["code"], e["field"]) for e in errors] == expected
    assert all(e["message"] for e in errors)
    assert await counts(container) == before


async def test_duplicates_are_refused_by_field(http: Any, container: Any, world: World) -> None:
    gql = Gql(http, world.tokens["super_admin"])
    name = unique("Dup Org")
    assert await run(gql, "organizationCreate", "OrganizationCreateInput", {"name": name}) == []
    before = await counts(container)
    errors = await run(gql, "organizationCreate", "OrganizationCreateInput", {"name": name.upper()})
    assert [(e["code"], e["field"]) for e in errors] == [("DUPLICATE", "name")]
    errors = await run(
        gql, "groupCreate", "GroupCreateInput", {"organizationId": gid("Organization", world.org_a), "name": "g1"}
    )
    assert [(e["code"], e["field"]) for e in errors] == [("DUPLICATE", "name")]
    offering = {"vendor": "NVIDIA", "name": unique("T4"), "vramMib": 15360, "minCuda": "11.0", "hourlyRateMicro": 1}
    assert await run(gql, "offeringCreate", "OfferingCreateInput", offering) == []
    before = await counts(container)
    errors = await run(gql, "offeringCreate", "OfferingCreateInput", offering)
    assert [(e["code"], e["field"]) for e in errors] == [("DUPLICATE", "name")]
    assert await counts(container) == before


async def test_refusals_are_audited_as_failures(http: Any, world: World) -> None:
    gql = Gql(http, world.tokens["super_admin"])
    await run(
        gql,
        "offeringCreate",
        "OfferingCreateInput",
        {"vendor": "NVIDIA", "name": "audited-failure", "vramMib": 1, "minCuda": "x", "hourlyRateMicro": 1},
    )
    data = await gql(
        '{ auditLog(first: 1, filter: {operation: "offeringCreate", success: false}) '
        "{ nodes { success resultCode actorUsername durationMs } } }"
    )
    entry = data["auditLog"]["nodes"][0]
    assert entry["success"] is False
    assert entry["resultCode"] == "INVALID_CUDA_VERSION"
    assert entry["durationMs"] >= 0


async def test_audit_log_is_append_only(container: Any) -> None:
    from sqlalchemy.exc import DBAPIError

    async with container.engine.connect() as conn:
        with pytest.raises(DBAPIError, match="append-only"):
            await conn.execute(text("UPDATE audit_log SET success = NOT success"))
        await conn.rollback()
        with pytest.raises(DBAPIError, match="append-only"):
            await conn.execute(text("DELETE FROM audit_log"))


@pytest.mark.parametrize("bad", ["", "not-base64!", "bm90LWFuLWlk", "VW5rbm93bjoxMjM="])
async def test_node_lookup_with_a_malformed_id_answers_null(bad: str, http: Any, world: World) -> None:
    gql = Gql(http, world.tokens["member"])
    assert await gql("query($id: ID!) { node(id: $id) { id } }", id=bad) == {"node": None}


async def test_audit_entries_name_their_targets(http: Any, world: World) -> None:
    """Issue 18 (console defects): the audit log shows a target's name, not only its UUID."""
    gql = Gql(http, world.tokens["super_admin"])
    name = unique("Audited Org")
    assert await run(gql, "organizationCreate", "OrganizationCreateInput", {"name": name}) == []
    await run(gql, "organizationCreate", "OrganizationCreateInput", {"name": name})  # refused: a duplicate
    data = await gql(
        '{ auditLog(first: 2, filter: {operation: "organizationCreate"}) '
        "{ nodes { success targetType targetId targetName } } }"
    )
    refused, created = data["auditLog"]["nodes"]
    assert (created["success"], created["targetType"], created["targetName"]) == (True, "Organization", name)
    assert refused["success"] is False and refused["targetName"] is None  # nothing by that id

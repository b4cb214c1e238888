"""Offerings that name a class of cards through the API (issue 17): created with cardClass,
they list their members and the rate range, and a preset shows its hourly cost range on
the class before admission; a class with a rate of its own is refused naming the field."""

from __future__ import annotations

from typing import Any

from tests.support.api import Gql, World, unique

OFFERING = (
    "mutation($input: OfferingCreateInput!) { offeringCreate(input: $input) "
    "{ offering { id name cardClass { models } hourlyRate { micro } } errors { code field message } } }"
)


async def _offering(gql: Gql, **fields: Any) -> dict[str, Any]:
    data = await gql(OFFERING, input={"vendor": "NVIDIA", "minCuda": "11.0", **fields})
    return data["offeringCreate"]  # type: ignore[no-any-return]


async def test_a_class_offering_shows_its_cards_and_the_cost_range(http: Any, world: World) -> None:
    gql = Gql(http, world.tokens["super_admin"])
    cheap = await _offering(gql, name=unique("L40S"), vramMib=46068, hourlyRateMicro=1_000_000)
    dear = await _offering(gql, name=unique("H200"), vramMib=143771, hourlyRateMicro=2_500_000)
    small = await _offering(gql, name=unique("T4"), vramMib=15360, hourlyRateMicro=100_000)
    names = [o["offering"]["name"] for o in (cheap, dear, small)]
    made = await _offering(gql, name=unique("any-40GiB"), vramMib=40960, hourlyRateMicro=0, cardClass={"models": names})
    assert made["errors"] == [] or made["errors"] is None
    cls = made["offering"]
    assert sorted(cls["cardClass"]["models"]) == sorted(names)
    preset = await gql(
        "mutation($input: PresetCreateInput!) { presetCreate(input: $input) { preset { id } } }",
        input={"name": unique("quarter"), "cpuMillicores": 1000, "memoryMib": 2048, "tier": "L"},
    )
    pid = preset["presetCreate"]["preset"]["id"]
    data = await gql(
        "query($o: ID!, $p: ID!) { node(id: $o) { ... on Offering { members { name } "
        "hourlyRateRange { low { micro } high { micro } } } } "
        "preset: node(id: $p) { ... on Preset { hourlyCostRange(offeringId: $o) { low { micro } high { micro } } "
        "gpuLimits(offeringId: $o) { vramMib hourlyCost { micro } } } } }",
        o=cls["id"],
        p=pid,
    )
    node = data["node"]
    # the T4 has less than the class's 40 GiB
    assert [m["name"] for m in node["members"]] == sorted(names[:2])
    assert node["hourlyRateRange"] == {"low": {"micro": 1_000_000}, "high": {"micro": 2_500_000}}
    shown = data["preset"]
    assert shown["hourlyCostRange"] == {"low": {"micro": 250_000}, "high": {"micro": 625_000}}
    # the limits shown are those of the dearest card (what the hold is computed from)
    assert shown["gpuLimits"] == {"vramMib": 143771 // 4, "hourlyCost": {"micro": 625_000}}
    one = await gql(
        "query($o: ID!, $p: ID!) { node(id: $o) { ... on Offering { members { name } "
        "hourlyRateRange { low { micro } high { micro } } } } "
        "preset: node(id: $p) { ... on Preset { hourlyCostRange(offeringId: $o) { low { micro } high { micro } } } } }",
        o=cheap["offering"]["id"],
        p=pid,
    )
    assert one["node"]["members"] == []
    assert one["node"]["hourlyRateRange"] == {"low": {"micro": 1_000_000}, "high": {"micro": 1_000_000}}
    assert one["preset"]["hourlyCostRange"] == {"low": {"micro": 250_000}, "high": {"micro": 250_000}}


async def test_a_class_with_a_rate_of_its_own_is_refused(http: Any, world: World) -> None:
    gql = Gql(http, world.tokens["super_admin"])
    refused = await _offering(gql, name=unique("any"), vramMib=1, hourlyRateMicro=5, cardClass={"models": []})
    assert refused["offering"] is None
    assert [e["field"] for e in refused["errors"]] == ["hourlyRate"]


UPDATE = (
    "mutation($input: OfferingUpdateInput!) { offeringUpdate(input: $input) "
    "{ offering { id cardClass { models } } errors { code field message } } }"
)


async def test_an_admin_changes_the_models_of_a_class(http: Any, world: World) -> None:
    gql = Gql(http, world.tokens["super_admin"])
    a = await _offering(gql, name=unique("L40S"), vramMib=46068, hourlyRateMicro=1_000_000)
    b = await _offering(gql, name=unique("H200"), vramMib=143771, hourlyRateMicro=2_500_000)
    a_name, b_name = a["offering"]["name"], b["offering"]["name"]
    cls = await _offering(
        gql, name=unique("any-40GiB"), vramMib=40960, hourlyRateMicro=0, cardClass={"models": [a_name]}
    )
    cid = cls["offering"]["id"]
    changed = await gql(UPDATE, input={"id": cid, "cardClass": {"models": [b_name, f" {a_name} "]}})
    assert not changed["offeringUpdate"]["errors"]
    assert changed["offeringUpdate"]["offering"]["cardClass"]["models"] == sorted([a_name, b_name])
    read = await gql(
        "query($o: ID!) { node(id: $o) { ... on Offering { cardClass { models } members { name } } } }", o=cid
    )
    assert read["node"]["cardClass"]["models"] == sorted([a_name, b_name])
    assert [m["name"] for m in read["node"]["members"]] == sorted([a_name, b_name])
    # emptied: any model with the class's VRAM
    emptied = await gql(UPDATE, input={"id": cid, "cardClass": {"models": []}})
    assert emptied["offeringUpdate"]["offering"]["cardClass"]["models"] == []
    # a single-model offering has no class to change
    refused = await gql(UPDATE, input={"id": a["offering"]["id"], "cardClass": {"models": [b_name]}})
    assert refused["offeringUpdate"]["offering"] is None
    assert [e["field"] for e in refused["offeringUpdate"]["errors"]] == ["cardClass"]

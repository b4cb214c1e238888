"""Registries with pull credentials, end to end (issue 16, Must show 4): an admin stores a
registry's user name and password (sealed at rest); a session of an image from that registry
gets a pod carrying the registry's imagePullSecret, a `kubernetes.io/dockerconfigjson` Secret in
the sessions namespace with those credentials; the password never appears in any API response
(every answer of the test is scanned, refusals and the audit log included) nor in any log line
(every record, DEBUG up), nor in the GShareSession or the database row."""

from __future__ import annotations

import base64
import json
import logging
import uuid
from typing import Any
from uuid import UUID

import pytest
from sqlalchemy import text
from strawberry import relay

from domain.sessions.model import SessionState
from tests.integration.k8s_e2e.conftest import NS, E2ECluster, e2e_catalog, funded_member
from tests.integration.sessions.test_lifecycle import wait_state
from tests.k8s.kubelet import Kubelet
from tests.support.api import Gql, World, gid, unique

REGISTRY = "registry { id name url username hasCredentials pullSecretName }"
CREATE_REGISTRY = f"""
mutation($input: RegistryCreateInput!) {{
  registryCreate(input: $input) {{ {REGISTRY} errors {{ code field message }} }}
}}"""
UPDATE_REGISTRY = f"""
mutation($input: RegistryUpdateInput!) {{
  registryUpdate(input: $input) {{ {REGISTRY} errors {{ code field message }} }}
}}"""
CREATE_IMAGE = """
mutation($input: ImageCreateInput!) { imageCreate(input: $input) { image { id reference } errors { code message } } }"""
CREATE_SESSION = """
mutation($input: SessionCreateInput!) {
  sessionCreate(input: $input) { session { id state } errors { code field message } }
}"""
LOOKS = """
query($id: ID!) {
  node(id: $id) { ... on Registry { id name url username hasCredentials pullSecretName } }
  registries(first: 100) { edges { node { id url username hasCredentials } } }
}"""
AUDIT = """
query { auditLog(first: 50) { edges { node { operation targetType targetId resultCode } } } }"""


class Recorded(Gql):
    """A Gql that keeps every raw answer (to scan them all)."""

    answers: list[str]

    async def raw(self, query: str, **variables: Any) -> dict[str, Any]:
        body = await super().raw(query, **variables)
        self.answers.append(json.dumps(body))
        return body


def recorded(cp_http: Any, token: str, answers: list[str]) -> Recorded:
    g = Recorded(cp_http, token)
    g.answers = answers
    return g


async def test_a_private_registrys_image_pulls_with_its_secret_and_the_password_is_never_shown(
    e2e: E2ECluster,
    kubelet: Kubelet,
    container: Any,
    world: World,
    cp_http: Any,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    c = container
    password = f"pw-{uuid.uuid4().hex}"
    username = "robot$gshare+e2e"
    forms = {
        password,
        base64.b64encode(password.encode()).decode(),
        base64.b64encode(f"{username}:{password}".encode()).decode(),
    }
    answers: list[str] = []
    admin = recorded(cp_http, world.tokens["super_admin"], answers)
    await e2e.start_operator()
    host = f"{unique('harbor')}.e2e.test"

    # refusals never echo what was sent
    bad = await admin(CREATE_REGISTRY, input={"name": unique("reg"), "url": host, "password": password})
    assert [e["field"] for e in bad["registryCreate"]["errors"]] == ["username"]

    created = (
        await admin(
            CREATE_REGISTRY,
            input={"name": unique("harbor"), "url": f"https://{host}", "username": username, "password": password},
        )
    )["registryCreate"]
    assert created["errors"] == []
    registry = created["registry"]
    registry_id = UUID(relay.GlobalID.from_id(registry["id"]).node_id)
    assert registry["username"] == username and registry["hasCredentials"] is True
    assert registry["pullSecretName"] == f"registry-{registry_id}"
    # stored sealed
    async with c.engine.connect() as conn:
        sealed = (
            await conn.execute(text("SELECT password_sealed FROM registries WHERE id = :id"), {"id": registry_id})
        ).scalar_one()
    assert sealed and not any(f.encode() in bytes(sealed) for f in forms)
    await admin(LOOKS, id=registry["id"])

    image = (
        await admin(
            CREATE_IMAGE,
            input={
                "name": unique("private"),
                "reference": f"{host}/ml/pytorch:2.3-cuda12",
                "cudaVersion": "12.4",
                "scope": "GLOBAL",
                "registryId": registry["id"],
            },
        )
    )["imageCreate"]
    assert image["errors"] == []

    cat = await e2e_catalog(c)
    _, token = await funded_member(c, world, credits_=1000)
    member = recorded(cp_http, token, answers)
    await member(
        "mutation($g: ID!) { activeGroupSet(input: {groupId: $g}) { errors { code } } }", g=gid("Group", world.g1)
    )
    await member(LOOKS, id=registry["id"])  # what a member sees of it
    data = await member(
        CREATE_SESSION,
        input={
            "name": "private-image",
            "imageId": image["image"]["id"],
            "presetId": gid("Preset", cat.presets["exclusive"].id),
            "offeringId": gid("Offering", cat.offerings["exclusive"].id),
            "clusterId": e2e.id,
        },
    )
    assert data["sessionCreate"]["errors"] == []
    sid = UUID(relay.GlobalID.from_id(data["sessionCreate"]["session"]["id"]).node_id)
    await wait_state(c, sid, SessionState.RUNNING, within=20)

    pod = e2e.api.get("pods", f"s-{sid}", NS)
    assert pod is not None
    assert pod["spec"]["containers"][0]["image"] == f"{host}/ml/pytorch:2.3-cuda12"
    assert pod["spec"]["imagePullSecrets"] == [{"name": f"registry-{registry_id}"}]
    secret = e2e.api.get("secrets", f"registry-{registry_id}", NS)
    assert secret is not None and secret["type"] == "kubernetes.io/dockerconfigjson"
    config = json.loads(base64.b64decode(secret["data"][".dockerconfigjson"]))
    assert config == {
        "auths": {
            host: {
                "username": username,
                "password": password,
                "auth": base64.b64encode(f"{username}:{password}".encode()).decode(),
            }
        }
    }
    cr = e2e.api.get("gsharesessions", f"s-{sid}", NS)
    assert cr is not None and cr["spec"]["imagePullSecrets"] == [f"registry-{registry_id}"]
    assert not any(f in json.dumps(cr) for f in forms)

    # new credentials replace the Secret's at the next hand-off; clearing them is shown
    changed = (
        await admin(UPDATE_REGISTRY, input={"id": registry["id"], "username": username, "password": password + "-2"})
    )["registryUpdate"]
    assert changed["errors"] == [] and changed["registry"]["hasCredentials"]
    both = (await admin(UPDATE_REGISTRY, input={"id": registry["id"], "clearCredentials": True, "password": password}))[
        "registryUpdate"
    ]
    assert [e["field"] for e in both["errors"]] == ["clearCredentials"]
    await member("mutation($id: ID!) { sessionStop(input: {id: $id}) { errors { code } } }", id=gid("Session", sid))
    await wait_state(c, sid, SessionState.STOPPED, within=15)
    # credentials cleared: the Secret leaves the cluster
    cleared = (await admin(UPDATE_REGISTRY, input={"id": registry["id"], "clearCredentials": True}))["registryUpdate"]
    assert cleared["errors"] == [] and cleared["registry"]["hasCredentials"] is False
    assert cleared["registry"]["pullSecretName"] is None
    assert e2e.api.get("secrets", f"registry-{registry_id}", NS) is None
    await admin(AUDIT)

    forms |= {password + "-2", base64.b64encode(f"{username}:{password}-2".encode()).decode()}
    assert len(answers) >= 10
    leaked = [a for a in answers if any(f in a for f in forms)]
    assert leaked == []
    lines = [r.getMessage() for r in caplog.records] + [caplog.text]
    assert [line for line in lines if any(f in line for f in forms)] == []

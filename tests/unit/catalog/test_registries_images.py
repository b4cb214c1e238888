"""Catalog use cases on in-memory repositories: registries and images, global (super_admin),
per organisation (its admins) or personal (their owner)."""

from __future__ import annotations

from uuid import UUID

import pytest

from domain.catalog import services as c
from domain.catalog.model import CudaVersion, Image, ImageScope, Registry
from domain.tenancy.services import Page
from tests.unit.tenancy.world import NOW, World, refusal

PYTORCH = "nvcr.io/nvidia/pytorch:24.05-py3"
GLOBAL, ORG, PERSONAL = ImageScope.GLOBAL, ImageScope.ORGANIZATION, ImageScope.PERSONAL


@pytest.fixture
async def w() -> World:
    return await World.build()


async def test_registries_by_scope(w: World) -> None:
    g = await c.registry_create(
        w.uow, w.root, w.ids, w.clock, name=" NGC ", url=" https://nvcr.io/ ", description=" d "
    )
    assert g == Registry(g.id, "NGC", "https://nvcr.io", NOW, None, "d")
    a = await c.registry_create(
        w.uow, w.org_admin, w.ids, w.clock, name="ngc", url="harbor.acme.example", organization_id=w.org_a.id
    )
    assert (a.organization_id, a.url, a.description) == (w.org_a.id, "harbor.acme.example", "")
    b = await c.registry_create(
        w.uow, w.root, w.ids, w.clock, name="Beta", url="http://beta:5000", organization_id=w.org_b.id
    )
    assert await refusal(c.registry_create(w.uow, w.root, w.ids, w.clock, name="ngc", url="x.io")) == (
        "DUPLICATE", "name", "a registry named ngc already exists here",
    )  # fmt: skip
    assert await refusal(c.registry_create(w.uow, w.org_admin, w.ids, w.clock, name="x", url="x.io")) == (
        "PERMISSION_DENIED", None, "only a super_admin may do this",
    )  # fmt: skip
    assert await refusal(
        c.registry_create(w.uow, w.member, w.ids, w.clock, name="x", url="x.io", organization_id=w.org_a.id)
    ) == ("PERMISSION_DENIED", None, "only an admin of this organisation may do this")
    assert await refusal(
        c.registry_create(w.uow, w.org_admin, w.ids, w.clock, name="x", url="x.io", organization_id=w.org_b.id)
    ) == ("NOT_FOUND", "organizationId", "organization not found")
    for bad in ("", "ftp://x.io", "a b.io", "https://", "x" * 256):
        assert await refusal(c.registry_create(w.uow, w.root, w.ids, w.clock, name="y", url=bad)) == (
            "INVALID_VALUE", "url", f"{bad!r} is not a registry address (e.g. nvcr.io or https://harbor.example.org)",
        )  # fmt: skip
    assert await refusal(c.registry_create(w.uow, w.root, w.ids, w.clock, name=" ", url="a b"), errors=True) == [
        ("INVALID_VALUE", "name"),
        ("INVALID_VALUE", "url"),
    ]
    names = lambda rs: [r.name for r in rs]  # noqa: E731
    every, total = await c.registries_list(w.uow, w.root, Page())
    assert (names(every), total) == (sorted(["NGC", "ngc", "Beta"]), 3)
    mine, total = await c.registries_list(w.uow, w.member, Page())
    assert (sorted(names(mine)), total) == (["NGC", "ngc"], 2)
    assert await c.registry_get(w.uow, w.guest, a.id) == a
    assert await refusal(c.registry_get(w.uow, w.member, b.id)) == ("NOT_FOUND", "id", "registry not found")
    assert await refusal(c.registry_get(w.uow, w.root, UUID(int=8))) == ("NOT_FOUND", "id", "registry not found")
    assert await c.registry_get(w.uow, w.root, b.id) == b


async def test_registry_update_and_delete(w: World) -> None:
    a = await c.registry_create(w.uow, w.org_admin, w.ids, w.clock, name="A", url="a.io", organization_id=w.org_a.id)
    await c.registry_create(w.uow, w.org_admin, w.ids, w.clock, name="B", url="b.io", organization_id=w.org_a.id)
    u = await c.registry_update(w.uow, w.org_admin, a.id, name=" A2 ", url="https://a2.io/", description=" x ")
    assert (u.name, u.url, u.description) == ("A2", "https://a2.io", "x") and w.state.registries[a.id] == u
    assert (await c.registry_update(w.uow, w.org_admin, a.id, description="y")).name == "A2"
    assert await refusal(c.registry_update(w.uow, w.org_admin, a.id, name="b")) == (
        "DUPLICATE", "name", "a registry named b already exists here",
    )  # fmt: skip
    assert (await c.registry_update(w.uow, w.org_admin, a.id, name="a2")).name == "a2"  # its own name
    assert await refusal(c.registry_update(w.uow, w.org_admin, a.id, name="", url="ftp://x"), errors=True) == [
        ("INVALID_VALUE", "name"),
        ("INVALID_VALUE", "url"),
    ]
    assert await refusal(c.registry_update(w.uow, w.member, a.id, name="z")) == (
        "PERMISSION_DENIED", None, "only an admin of this organisation may do this",
    )  # fmt: skip
    image = await c.image_create(
        w.uow, w.org_admin, w.ids, w.clock, name="img", reference=PYTORCH, cuda_version="12.4", scope=ORG,
        organization_id=w.org_a.id, registry_id=a.id,
    )  # fmt: skip
    assert await refusal(c.registry_delete(w.uow, w.org_admin, a.id)) == (
        "IN_USE", "id", "1 image(s) still use registry a2",
    )  # fmt: skip
    await c.image_delete(w.uow, w.org_admin, image.id)
    assert await refusal(c.registry_delete(w.uow, w.member, a.id)) == (
        "PERMISSION_DENIED", None, "only an admin of this organisation may do this",
    )  # fmt: skip
    gone = await c.registry_delete(w.uow, w.org_admin, a.id)
    assert gone.id == a.id and a.id not in w.state.registries


async def test_images_of_each_scope(w: World) -> None:
    g = await c.image_create(
        w.uow, w.root, w.ids, w.clock, name=" Torch ", reference=f" {PYTORCH} ", cuda_version="12.4", scope=GLOBAL,
        organization_id=w.org_b.id, description=" d ",
    )  # fmt: skip
    assert g == Image(g.id, "Torch", PYTORCH, CudaVersion(12, 4), GLOBAL, NOW, None, None, None, "d")
    o = await c.image_create(
        w.uow, w.org_admin, w.ids, w.clock, name="torch", reference=PYTORCH, cuda_version=None, scope=ORG,
        organization_id=w.org_a.id,
    )  # fmt: skip
    assert (o.organization_id, o.owner_user_id, o.cuda_version) == (w.org_a.id, None, None)
    p = await c.image_create(
        w.uow, w.member, w.ids, w.clock, name="torch", reference="python:3.12", cuda_version="", scope=PERSONAL,
        organization_id=w.org_a.id,
    )  # fmt: skip
    assert (p.organization_id, p.owner_user_id, p.cuda_version) == (None, w.member.user_id, None)
    other = await c.image_create(
        w.uow, w.group_admin, w.ids, w.clock, name="torch", reference="python:3.12", cuda_version=None, scope=PERSONAL
    )
    assert other.owner_user_id == w.group_admin.user_id  # the same name for another owner
    assert await refusal(
        c.image_create(
            w.uow, w.member, w.ids, w.clock, name="TORCH", reference="python:3", cuda_version=None, scope=PERSONAL
        )
    ) == ("DUPLICATE", "name", "an image named TORCH already exists here")
    assert await refusal(
        c.image_create(
            w.uow, w.root, w.ids, w.clock, name="torch", reference="python:3", cuda_version=None, scope=GLOBAL
        )
    ) == ("DUPLICATE", "name", "an image named torch already exists here")
    names = lambda xs: sorted((i.scope.value, i.name, i.owner_user_id) for i in xs)  # noqa: E731
    every, total = await c.images_list(w.uow, w.root, Page())
    assert (names(every), total) == (
        sorted([
            ("global", "Torch", None), ("organization", "torch", None),
            ("personal", "torch", w.member.user_id), ("personal", "torch", w.group_admin.user_id),
        ]),
        4,
    )  # fmt: skip
    mine, total = await c.images_list(w.uow, w.member, Page())
    assert (names(mine), total) == (
        sorted([("global", "Torch", None), ("organization", "torch", None), ("personal", "torch", w.member.user_id)]),
        3,
    )
    theirs, total = await c.images_list(w.uow, w.foreign, Page(limit=1))
    assert (names(theirs), total) == ([("global", "Torch", None)], 1)
    assert await c.image_get(w.uow, w.member, p.id) == p
    assert await c.image_get(w.uow, w.foreign, g.id) == g
    assert await c.image_get(w.uow, w.root, p.id) == p
    for actor, image in ((w.group_admin, p), (w.foreign, o)):
        assert await refusal(c.image_get(w.uow, actor, image.id)) == ("NOT_FOUND", "id", "image not found")
    assert await refusal(c.image_get(w.uow, w.root, UUID(int=3))) == ("NOT_FOUND", "id", "image not found")


async def test_image_create_refusals(w: World) -> None:
    def create(actor: object, scope: ImageScope, **kw: object) -> object:
        args: dict[str, object] = dict(name="img", reference=PYTORCH, cuda_version="12.4", scope=scope)
        args.update(kw)
        return c.image_create(w.uow, actor, w.ids, w.clock, **args)  # type: ignore[arg-type]

    assert await refusal(create(w.org_admin, GLOBAL)) == ("PERMISSION_DENIED", None, "only a super_admin may do this")
    assert await refusal(create(w.org_admin, ORG)) == (
        "INVALID_VALUE", "organizationId", "an organisation image needs its organisation",
    )  # fmt: skip
    assert await refusal(create(w.org_admin, ORG, organization_id=w.org_b.id)) == (
        "NOT_FOUND", "organizationId", "organization not found",
    )  # fmt: skip
    assert await refusal(create(w.member, ORG, organization_id=w.org_a.id)) == (
        "PERMISSION_DENIED", None, "only an admin of this organisation may do this",
    )  # fmt: skip
    assert await refusal(create(w.guest, PERSONAL)) == ("PERMISSION_DENIED", None, "guests cannot add images")
    assert await refusal(create(w.read_only(w.member), PERSONAL)) == (
        "PERMISSION_DENIED",
        None,
        "this token is read-only",
    )
    assert await refusal(create(w.member, PERSONAL, reference="Not An Image!")) == (
        "INVALID_IMAGE_REFERENCE", "reference",
        "'Not An Image!' is not an image reference (e.g. nvcr.io/nvidia/pytorch:24.05-py3)",
    )  # fmt: skip
    assert await refusal(create(w.member, PERSONAL, cuda_version="new")) == (
        "INVALID_CUDA_VERSION", "cudaVersion", "'new' is not a CUDA version (expected MAJOR.MINOR, e.g. 12.4)",
    )  # fmt: skip
    assert await refusal(create(w.member, PERSONAL, name="", reference="", cuda_version="x"), errors=True) == [
        ("INVALID_VALUE", "name"),
        ("INVALID_IMAGE_REFERENCE", "reference"),
        ("INVALID_CUDA_VERSION", "cudaVersion"),
    ]
    foreign = await c.registry_create(w.uow, w.root, w.ids, w.clock, name="B", url="b.io", organization_id=w.org_b.id)
    assert await refusal(create(w.member, PERSONAL, registry_id=foreign.id)) == (
        "NOT_FOUND",
        "id",
        "registry not found",
    )
    assert w.state.images == {}
    # a super_admin's personal image may name a registry of any organisation
    ok = await create(w.root, PERSONAL, registry_id=foreign.id)
    assert (ok.registry_id, ok.owner_user_id) == (foreign.id, w.root.user_id)


async def test_image_update_and_delete_by_who_owns_the_scope(w: World) -> None:
    p = await c.image_create(
        w.uow, w.member, w.ids, w.clock, name="mine", reference="python:3.12", cuda_version=None, scope=PERSONAL
    )
    await c.image_create(
        w.uow, w.member, w.ids, w.clock, name="other", reference="python:3.11", cuda_version=None, scope=PERSONAL
    )
    u = await c.image_update(
        w.uow, w.member, p.id, name=" Mine ", reference=" python:3.13 ", cuda_version="12.1", description=" x "
    )
    assert (u.name, u.reference, u.cuda_version, u.description) == ("Mine", "python:3.13", CudaVersion(12, 1), "x")
    assert w.state.images[p.id] == u
    cleared = await c.image_update(w.uow, w.member, p.id, cuda_version="")
    assert cleared.cuda_version is None and cleared.name == "Mine"
    assert await refusal(c.image_update(w.uow, w.member, p.id, name="OTHER")) == (
        "DUPLICATE", "name", "an image named OTHER already exists here",
    )  # fmt: skip
    assert (await c.image_update(w.uow, w.member, p.id, name="mine")).name == "mine"
    assert await refusal(
        c.image_update(w.uow, w.member, p.id, name="", reference="?", cuda_version="?"), errors=True
    ) == [
        ("INVALID_VALUE", "name"),
        ("INVALID_IMAGE_REFERENCE", "reference"),
        ("INVALID_CUDA_VERSION", "cudaVersion"),
    ]
    assert await refusal(c.image_update(w.uow, w.read_only(w.member), p.id, name="z")) == (
        "PERMISSION_DENIED", None, "this token is read-only",
    )  # fmt: skip
    by_root = await c.image_update(w.uow, w.root, p.id, description="root may")
    assert by_root.description == "root may"
    o = await c.image_create(
        w.uow, w.org_admin, w.ids, w.clock, name="org", reference=PYTORCH, cuda_version="12.4", scope=ORG,
        organization_id=w.org_a.id,
    )  # fmt: skip
    assert await refusal(c.image_update(w.uow, w.member, o.id, name="z")) == (
        "PERMISSION_DENIED", None, "only an admin of this organisation may do this",
    )  # fmt: skip
    g = await c.image_create(
        w.uow, w.root, w.ids, w.clock, name="g", reference=PYTORCH, cuda_version="12.4", scope=GLOBAL
    )
    assert await refusal(c.image_delete(w.uow, w.org_admin, g.id)) == (
        "PERMISSION_DENIED",
        None,
        "only a super_admin may do this",
    )
    assert await c.image_delete(w.uow, w.org_admin, o.id) == o and o.id not in w.state.images
    before = w.state.images[p.id]
    assert await c.image_delete(w.uow, w.member, p.id) == before and p.id not in w.state.images


def _seal(password: str) -> bytes:
    """A stand-in for the secret box: reversible, and not the password."""
    return b"sealed:" + password[::-1].encode()


async def test_registry_credentials_are_sealed_both_or_neither_and_never_shown(w: World) -> None:
    r = await c.registry_create(
        w.uow, w.root, w.ids, w.clock, name="harbor", url="https://harbor.example.org:8443",
        username=" robot$ci ", password="p@ss word", seal=_seal,
    )  # fmt: skip
    assert (r.username, r.password_sealed, r.has_credentials) == ("robot$ci", b"sealed:drow ss@p", True)
    assert (r.server, r.pull_secret_name) == ("harbor.example.org:8443", f"registry-{r.id}")
    assert "sealed" not in repr(r) and "p@ss" not in repr(r)
    plain = await c.registry_create(w.uow, w.root, w.ids, w.clock, name="ngc", url="nvcr.io")
    assert (plain.username, plain.password_sealed, plain.has_credentials) == (None, None, False)

    def create(**kw: object) -> object:
        return c.registry_create(w.uow, w.root, w.ids, w.clock, name="x", url="x.io", **kw)  # type: ignore[arg-type]

    assert await refusal(create(password="secret", seal=_seal)) == (
        "INVALID_VALUE", "username", "a registry user name is 1-255 characters, without ':' or controls",
    )  # fmt: skip
    assert await refusal(create(username="a:b", password="secret", seal=_seal)) == (
        "INVALID_VALUE", "username", "a registry user name is 1-255 characters, without ':' or controls",
    )  # fmt: skip
    for password in (None, "", "two\nlines", "x" * (c.MAX_CREDENTIAL_CHARS + 1)):
        assert await refusal(create(username="robot", password=password, seal=_seal)) == (
            "INVALID_VALUE", "password",
            f"a registry password or token is 1-{c.MAX_CREDENTIAL_CHARS} characters, one line",
        )  # fmt: skip
    assert await refusal(create(username="robot", password="secret")) == (
        "INVALID_VALUE", "password", "this deployment cannot store registry credentials",
    )  # fmt: skip

    changed = await c.registry_update(w.uow, w.root, r.id, username="robot2", password="new", seal=_seal)
    assert (changed.username, changed.password_sealed) == ("robot2", b"sealed:wen")
    kept = await c.registry_update(w.uow, w.root, r.id, description="same credentials")
    assert (kept.username, kept.password_sealed) == ("robot2", b"sealed:wen")
    assert await refusal(c.registry_update(w.uow, w.root, r.id, clear_credentials=True, password="x", seal=_seal)) == (
        "INVALID_VALUE", "clearCredentials", "give new credentials or clear them, not both",
    )  # fmt: skip
    cleared = await c.registry_update(w.uow, w.root, r.id, clear_credentials=True)
    assert (cleared.username, cleared.password_sealed, cleared.has_credentials) == (None, None, False)
    assert (await c.registry_get(w.uow, w.root, r.id)).has_credentials is False

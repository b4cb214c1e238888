"""PostgreSQL repositories of the sessions context: sessions, volumes, templates,
notifications, and the usage reader the policy checks count with."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from fractions import Fraction
from typing import Any
from uuid import UUID

from sqlalchemy import BigInteger, Table, and_, bindparam, cast, delete, func, or_, select, true, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from domain.common.errors import CommonErrorCode, DomainError
from domain.policies.model import PolicyScope, PolicyScopeKind, Usage
from domain.sessions.model import (
    ACTIVE,
    TERMINAL,
    Endpoints,
    Expiry,
    GpuAsk,
    GpuChoice,
    JobRun,
    MountMode,
    MountRequest,
    Session,
    SessionKind,
    SessionState,
)
from domain.sessions.ports import Notification, SessionFilter
from domain.volumes.model import (
    AccessMode,
    ClaimPhase,
    ClaimState,
    StorageClass,
    Template,
    TemplateMount,
    Volume,
    VolumeScope,
)
from infra.db.base import get_row
from infra.db.models.sessions import (
    NotificationRow,
    SessionMeterRow,
    SessionRow,
    StorageClassRow,
    TemplateRow,
    VolumeRow,
)

# -------------------------------------------------------------------- sessions


def _gpu_to_json(g: GpuAsk | None) -> dict[str, Any] | None:
    if g is None:
        return None
    return {
        "offering_id": str(g.offering_id),
        "offering_name": g.offering_name,
        "vram_mib": g.vram_mib,
        "cores": g.cores,
        "cards": g.cards,
        "exclusive": g.exclusive,
        "shared": g.shared,
        "ratio": f"{g.ratio.numerator}/{g.ratio.denominator}",
        "hourly_rate_micro": g.hourly_rate_micro,
        "forced_kind": g.forced_kind,
        "choices": [
            {
                "model": c.model,
                "vram_mib": c.vram_mib,
                "cores": c.cores,
                "ratio": f"{c.ratio.numerator}/{c.ratio.denominator}",
                "hourly_rate_micro": c.hourly_rate_micro,
            }
            for c in g.choices
        ],
        "placed_model": g.placed_model,
    }


def _gpu_from_json(d: Mapping[str, Any] | None) -> GpuAsk | None:
    if not d:
        return None
    return GpuAsk(
        UUID(d["offering_id"]),
        d["offering_name"],
        int(d["vram_mib"]),
        int(d["cores"]),
        int(d["cards"]),
        bool(d["exclusive"]),
        bool(d["shared"]),
        Fraction(d["ratio"]),
        int(d["hourly_rate_micro"]),
        d.get("forced_kind"),
        tuple(
            GpuChoice(
                str(c["model"]), int(c["vram_mib"]), int(c["cores"]), Fraction(c["ratio"]), int(c["hourly_rate_micro"])
            )
            for c in d.get("choices", ())
        ),
        d.get("placed_model"),
    )


def _values(s: Session) -> dict[str, Any]:
    return {
        "name": s.name,
        "owner_id": s.owner_id,
        "organization_id": s.organization_id,
        "group_id": s.group_id,
        "kind": s.kind.value,
        "state": s.state.value,
        "state_reason": s.state_reason,
        "state_reason_code": s.state_reason_code,
        "state_reason_params": dict(s.state_reason_params),
        "image_id": s.image_id,
        "image_reference": s.image_reference,
        "preset_id": s.preset_id,
        "template_id": s.template_id,
        "offering_id": s.gpu.offering_id if s.gpu else None,
        "cpu_millicores": s.cpu_millicores,
        "memory_mib": s.memory_mib,
        "shm_mib": s.shm_mib,
        "disk_gib": s.disk_gib,
        "gpu": _gpu_to_json(s.gpu),
        "expiry": s.expiry.value,
        "expires_at": s.expires_at,
        "priority": s.priority,
        "preemptible": s.preemptible,
        "env": dict(s.env),
        "job": s.job.to_dict() if s.job is not None else None,
        "mounts": [{"volume_id": str(m.volume_id), "mount_path": m.mount_path, "mode": m.mode.value} for m in s.mounts],
        "requested_cluster": s.requested_cluster,
        "cluster_id": s.cluster_id,
        "placement": s.placement,
        "hold_id": s.hold_id,
        "hold_seq": s.hold_seq,
        "running_since": s.running_since,
        "billed_seconds": s.billed_seconds,
        "endpoints": s.endpoints.to_dict(),
        "queued_at": s.queued_at,
        "started_at": s.started_at,
        "approved_by": s.approved_by,
        "version": s.version,
        "created_at": s.created_at,
        "updated_at": s.updated_at,
    }


# rows mapped to sessions between two turns of the event loop: a periodic job reading every
# running session (idle reclaim, the residue sweep, expiry, history) mapped ~2,000 rows in one
# synchronous stretch, and every request of the process waited behind it (issue 19)
MAP_CHUNK = 200
# and read a page of this many rows at a time: the driver decodes a whole result (each row's
# JSON columns through json.loads) in one stretch too, 215-285 ms for ~2,000 running sessions
FETCH_PAGE = 500


async def _mapped(rows: Any, read: Callable[[Any], Session]) -> list[Session]:
    """`read` of every row, the event loop running what waits after each `MAP_CHUNK` rows."""
    out: list[Session] = []
    for r in rows:
        out.append(read(r))
        if len(out) % MAP_CHUNK == 0:
            await asyncio.sleep(0)
    return out


def _session(r: Any) -> Session:
    return Session(
        id=r.id,
        name=r.name,
        owner_id=r.owner_id,
        organization_id=r.organization_id,
        group_id=r.group_id,
        kind=SessionKind(r.kind),
        state=SessionState(r.state),
        image_id=r.image_id,
        image_reference=r.image_reference,
        preset_id=r.preset_id,
        cpu_millicores=r.cpu_millicores,
        memory_mib=r.memory_mib,
        shm_mib=r.shm_mib,
        disk_gib=r.disk_gib,
        gpu=_gpu_from_json(r.gpu),
        expiry=Expiry(r.expiry),
        created_at=r.created_at,
        updated_at=r.updated_at,
        priority=r.priority,
        preemptible=r.preemptible,
        env=dict(r.env or {}),
        mounts=tuple(MountRequest(UUID(m["volume_id"]), m["mount_path"], MountMode(m["mode"])) for m in r.mounts or []),
        template_id=r.template_id,
        cluster_id=r.cluster_id,
        requested_cluster=r.requested_cluster,
        placement=r.placement,
        hold_id=r.hold_id,
        hold_seq=r.hold_seq,
        expires_at=r.expires_at,
        running_since=r.running_since,
        billed_seconds=r.billed_seconds,
        charged_micro=r.charged_micro,
        endpoints=Endpoints(**(r.endpoints or {})),
        state_reason=r.state_reason,
        state_reason_code=r.state_reason_code or "",
        state_reason_params=r.state_reason_params or {},
        queued_at=r.queued_at,
        started_at=r.started_at,
        approved_by=r.approved_by,
        job=JobRun.from_dict(r.job) if r.job else None,
        version=r.version,
    )


class StaleSessionError(DomainError):
    def __init__(self) -> None:
        super().__init__(CommonErrorCode.CONFLICT, "the session changed meanwhile; try again", "id")


_SESSIONS: Table = SessionRow.__table__  # type: ignore[assignment]  # a mapped class always has a Table
_METERS: Table = SessionMeterRow.__table__  # type: ignore[assignment]
# a session is its row and what its meter says it has been charged (the meter is opened with
# the row by a trigger, and written by billing only)
_ROWS = select(_SESSIONS, _METERS.c.charged_micro).join_from(_SESSIONS, _METERS)
# built once, executed with parameters: building a statement with forty literal values per
# call cost more CPU than running it
_INSERT = insert(_SESSIONS)
_BY_ID = _ROWS.where(_SESSIONS.c.id == bindparam("id"))
_LOCK_BY_ID = _BY_ID.with_for_update(of=_SESSIONS)
_UPDATE = update(_SESSIONS).where(_SESSIONS.c.id == bindparam("_id"), _SESSIONS.c.version == bindparam("_version"))


class SqlSessionRepository:
    """Sessions are read and written with Core statements on the table (the ORM's identity map
    and unit of work bought nothing here and cost a third of each statement's CPU), and an
    update sends only the columns that differ from what this unit of work read or wrote."""

    def __init__(self, session: AsyncSession) -> None:
        self.s = session
        self._known: dict[UUID, dict[str, Any]] = {}
        self._locked: set[UUID] = set()  # rows this transaction holds FOR UPDATE

    async def add(self, session: Session) -> None:
        values = _values(session)
        await self.s.execute(_INSERT, {"id": session.id, **values})
        self._known[session.id] = values

    async def add_many(self, sessions: Sequence[Session]) -> None:
        if not sessions:
            return
        rows = [{"id": s.id, **_values(s)} for s in sessions]
        await self.s.execute(_INSERT, rows)
        for row in rows:
            self._known[row["id"]] = {k: v for k, v in row.items() if k != "id"}

    def _read(self, r: Any) -> Session:
        s = _session(r)
        self._known[s.id] = _values(s)
        return s

    async def get(self, session_id: UUID, *, for_update: bool = False) -> Session | None:
        r = await get_row(self.s, _LOCK_BY_ID if for_update else _BY_ID, session_id)
        if r and for_update:
            self._locked.add(session_id)
        return self._read(r) if r else None

    async def get_many(self, ids: Sequence[UUID], *, for_update: bool = False) -> list[Session]:
        wanted = sorted(set(ids))  # pages in id order: rows are locked in ascending id order still
        found: list[Session] = []
        for i in range(0, len(wanted), FETCH_PAGE):
            q = _ROWS.where(_SESSIONS.c.id.in_(wanted[i : i + FETCH_PAGE])).order_by(_SESSIONS.c.id)
            if for_update:
                q = q.with_for_update(of=_SESSIONS)
            found += await _mapped(await self.s.execute(q), self._read)
        if for_update:
            self._locked.update(s.id for s in found)
        return found

    def released(self) -> None:
        """The transaction ended (committed or rolled back): its row locks with it."""
        self._locked.clear()

    def _change(self, session: Session) -> tuple[Session, dict[str, Any], dict[str, Any]]:
        """The session as stored with its new version, its values, and the parameters of its
        update: only the columns that differ from what this unit of work read or wrote."""
        stored = replace(session, version=session.version + 1)
        values = _values(stored)
        known = self._known.get(session.id)
        changed = values if known is None else {k: v for k, v in values.items() if known.get(k) != v}
        changed["version"] = stored.version  # the optimistic check needs the bump even if nothing else changed
        # the SET clause comes from the parameters' keys: one compiled statement per column set
        return stored, values, {"_id": session.id, "_version": session.version, **changed}

    async def update(self, session: Session) -> Session:
        stored, values, params = self._change(session)
        result = await self.s.execute(_UPDATE, params)
        if getattr(result, "rowcount", 1) != 1:
            raise StaleSessionError()
        self._known[session.id] = values
        return stored

    async def update_many(self, sessions: Sequence[Session]) -> list[Session]:
        """Sessions whose rows this transaction locked, at the version it read or wrote
        last: no one else can have changed them, so the version check cannot fail, and the
        updates of one column set go in one executemany (its row counts are not reported).
        Any other session is updated alone, with its check."""
        assert len({s.id for s in sessions}) == len(sessions), "one update per session"
        out: list[Session] = []
        groups: dict[tuple[str, ...], list[dict[str, Any]]] = {}
        written: dict[UUID, dict[str, Any]] = {}
        for session in sessions:
            known = self._known.get(session.id)
            if session.id not in self._locked or known is None or known.get("version") != session.version:
                out.append(await self.update(session))
                continue
            stored, written[session.id], params = self._change(session)
            groups.setdefault(tuple(params), []).append(params)
            out.append(stored)
        for rows in groups.values():
            await self.s.execute(_UPDATE, rows)
        self._known.update(written)
        return out

    async def search(self, flt: SessionFilter, offset: int, limit: int) -> tuple[list[Session], int]:
        q = _ROWS
        conds = []
        if flt.owner_id is not None:
            conds.append(SessionRow.owner_id == flt.owner_id)
        scope = []
        if flt.organization_ids is not None:
            scope.append(SessionRow.organization_id.in_(flt.organization_ids))
        if flt.group_ids is not None:
            scope.append(SessionRow.group_id.in_(flt.group_ids))
        if scope:
            conds.append(or_(*scope))
        if flt.states is not None:
            conds.append(SessionRow.state.in_([s.value for s in flt.states]))
        if flt.cluster_id is not None:
            conds.append(SessionRow.cluster_id == flt.cluster_id)
        if conds:
            q = q.where(and_(*conds))
        total = await self.s.scalar(select(func.count()).select_from(q.subquery())) or 0
        rows = await self.s.execute(q.order_by(SessionRow.created_at.desc(), SessionRow.id).offset(offset).limit(limit))
        return [_session(r) for r in rows], total

    async def owners_in(self, states: frozenset[SessionState]) -> set[UUID]:
        q = select(SessionRow.owner_id).where(SessionRow.state.in_([s.value for s in states])).distinct()
        return set(await self.s.scalars(q))

    async def active_in(self, states: frozenset[SessionState]) -> list[Session]:
        """The sessions in `states`, in id order, read a page at a time (each page a statement
        of its own: a session changing state meanwhile is read as before or after the change)."""
        found: list[Session] = []
        after: UUID | None = None
        while True:
            q = _ROWS.where(SessionRow.state.in_([s.value for s in states]))
            if after is not None:
                q = q.where(_SESSIONS.c.id > after)
            page = await _mapped(await self.s.execute(q.order_by(_SESSIONS.c.id).limit(FETCH_PAGE)), _session)
            found += page
            if len(page) < FETCH_PAGE:
                return found
            after = page[-1].id


class SqlUsageReader:
    """Current use per policy scope, counted from active sessions (jobs run outside quotas)
    and volumes: one aggregate query for every asked scope, grouped by (ratio, model) so the
    GPU sums stay exact fractions."""

    def __init__(self, session: AsyncSession) -> None:
        self.s = session

    @staticmethod
    def _session_cond(scope: PolicyScope) -> Any:
        if scope.kind is PolicyScopeKind.USER:
            return SessionRow.owner_id == scope.id
        if scope.kind is PolicyScopeKind.GROUP:
            return SessionRow.group_id == scope.id
        if scope.kind is PolicyScopeKind.ORGANIZATION:
            return SessionRow.organization_id == scope.id
        return true()

    @staticmethod
    def _volume_cond(scope: PolicyScope) -> Any:
        if scope.kind is PolicyScopeKind.USER:
            return VolumeRow.owner_id == scope.id
        if scope.kind is PolicyScopeKind.GROUP:
            return VolumeRow.group_id == scope.id
        if scope.kind is PolicyScopeKind.ORGANIZATION:
            return VolumeRow.organization_id == scope.id
        return true()

    async def usage(self, scopes: Sequence[PolicyScope]) -> Mapping[PolicyScope, Usage]:
        if not scopes:
            return {}
        ratio = SessionRow.gpu["ratio"].astext
        model = SessionRow.gpu["offering_name"].astext
        vram = cast(SessionRow.gpu["vram_mib"].astext, BigInteger) * cast(SessionRow.gpu["cards"].astext, BigInteger)
        columns: list[Any] = [ratio, model]
        for scope in scopes:
            cond = self._session_cond(scope)
            columns += [
                func.count().filter(cond),
                func.coalesce(func.sum(SessionRow.cpu_millicores).filter(cond), 0),
                func.coalesce(func.sum(SessionRow.memory_mib).filter(cond), 0),
                func.coalesce(func.sum(vram).filter(cond), 0),
            ]
        active = [st.value for st in ACTIVE]
        rows = (
            await self.s.execute(
                select(*columns)
                .where(SessionRow.state.in_(active), SessionRow.kind != SessionKind.JOB.value)
                .group_by(ratio, model)
            )
        ).all()
        storage_cols = [func.coalesce(func.sum(VolumeRow.size_mib).filter(self._volume_cond(sc)), 0) for sc in scopes]
        storage = (await self.s.execute(select(*storage_cols))).one()
        out: dict[PolicyScope, Usage] = {}
        for i, scope in enumerate(scopes):
            sessions = cpu = mem = vram_total = 0
            gpus = Fraction(0)
            per_model: dict[str, Fraction] = {}
            for row in rows:
                count, c, m, v = row[2 + 4 * i : 6 + 4 * i]
                if not count:
                    continue
                sessions += count
                cpu += int(c)
                mem += int(m)
                if row[0] is not None:
                    share = Fraction(row[0]) * count
                    gpus += share
                    per_model[row[1]] = per_model.get(row[1], Fraction(0)) + share
                    vram_total += int(v)
            out[scope] = Usage(sessions, gpus, per_model, vram_total, cpu, mem, int(storage[i]))
        return out


# -------------------------------------------------------------------- volumes and templates


def _claims(raw: Mapping[str, Any] | None) -> dict[str, ClaimState]:
    return {
        cluster: ClaimState(ClaimPhase(c["phase"]), datetime.fromisoformat(c["at"]))
        for cluster, c in sorted((raw or {}).items())
    }


def _volume(r: VolumeRow) -> Volume:
    return Volume(
        r.id,
        r.name,
        VolumeScope(r.scope),
        r.organization_id,
        r.storage_class,
        r.size_mib,
        r.created_by,
        r.created_at,
        r.owner_id,
        r.group_id,
        MountMode(r.member_mode),
        AccessMode(r.access_mode),
        _claims(r.claims),
    )


class SqlVolumeRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.s = session

    async def add(self, v: Volume) -> None:
        self.s.add(
            VolumeRow(
                id=v.id,
                name=v.name,
                scope=v.scope.value,
                organization_id=v.organization_id,
                owner_id=v.owner_id,
                group_id=v.group_id,
                storage_class=v.storage_class,
                size_mib=v.size_mib,
                member_mode=v.member_mode.value,
                access_mode=v.access_mode.value,
                claims={c: {"phase": st.phase.value, "at": st.reported_at.isoformat()} for c, st in v.claims.items()},
                created_by=v.created_by,
                created_at=v.created_at,
            )
        )
        await self.s.flush()

    async def get(self, volume_id: UUID) -> Volume | None:
        r = await self.s.get(VolumeRow, volume_id)
        return _volume(r) if r else None

    async def get_many(self, ids: Sequence[UUID]) -> list[Volume]:
        if not ids:
            return []
        return [_volume(r) for r in await self.s.scalars(select(VolumeRow).where(VolumeRow.id.in_(list(ids))))]

    async def delete(self, volume_id: UUID) -> None:
        await self.s.execute(delete(VolumeRow).where(VolumeRow.id == volume_id))

    async def name_taken(self, v: Volume) -> bool:
        q = select(VolumeRow.id).where(VolumeRow.scope == v.scope.value, func.lower(VolumeRow.name) == v.name.lower())
        q = q.where(VolumeRow.owner_id == v.owner_id) if v.owner_id else q.where(VolumeRow.group_id == v.group_id)
        return (await self.s.scalar(q.limit(1))) is not None

    async def visible(
        self, *, user_id: UUID, group_ids: frozenset[UUID], org_ids: frozenset[UUID] | None, offset: int, limit: int
    ) -> tuple[list[Volume], int]:
        q = select(VolumeRow)
        if org_ids is not None:
            conds = [VolumeRow.owner_id == user_id]
            if group_ids:
                conds.append(VolumeRow.group_id.in_(group_ids))
            if org_ids:
                conds.append(VolumeRow.organization_id.in_(org_ids))
            q = q.where(or_(*conds))
        total = await self.s.scalar(select(func.count()).select_from(q.subquery())) or 0
        rows = await self.s.scalars(q.order_by(VolumeRow.scope.desc(), VolumeRow.name).offset(offset).limit(limit))
        return [_volume(r) for r in rows], total

    async def storage_used_mib(self, *, owner_id: UUID | None = None, group_id: UUID | None = None) -> int:
        q = select(func.coalesce(func.sum(VolumeRow.size_mib), 0))
        q = q.where(VolumeRow.owner_id == owner_id) if owner_id else q.where(VolumeRow.group_id == group_id)
        return int(await self.s.scalar(q) or 0)

    async def storage_classes(self) -> list[StorageClass]:
        rows = await self.s.scalars(
            select(StorageClassRow).order_by(StorageClassRow.is_default.desc(), StorageClassRow.name)
        )
        return [
            StorageClass(r.name, r.description, r.is_default, tuple(AccessMode(m) for m in r.access_modes))
            for r in rows
        ]

    async def put_storage_class(self, sc: StorageClass) -> None:
        stmt = insert(StorageClassRow).values(
            name=sc.name,
            description=sc.description,
            is_default=sc.is_default,
            access_modes=[m.value for m in sc.access_modes],
        )
        await self.s.execute(
            stmt.on_conflict_do_update(
                index_elements=["name"],
                set_={
                    "description": stmt.excluded.description,
                    "is_default": stmt.excluded.is_default,
                    "access_modes": stmt.excluded.access_modes,
                },
            )
        )

    async def set_claim_phases(self, cluster_id: str, phases: Mapping[UUID, ClaimState]) -> int:
        """One UPDATE per phase; a volume whose claim already has that phase there is left
        alone (periodic reports write nothing)."""
        changed = 0
        by_phase: dict[ClaimPhase, list[UUID]] = {}
        at: dict[ClaimPhase, datetime] = {}
        for volume_id, state in phases.items():
            by_phase.setdefault(state.phase, []).append(volume_id)
            at[state.phase] = max(at.get(state.phase, state.reported_at), state.reported_at)
        for phase, ids in sorted(by_phase.items()):
            entry = func.jsonb_build_object(
                cluster_id, func.jsonb_build_object("phase", phase.value, "at", at[phase].isoformat())
            )
            result = await self.s.execute(
                update(VolumeRow)
                .where(
                    VolumeRow.id.in_(ids),
                    func.coalesce(VolumeRow.claims[cluster_id]["phase"].astext, "") != phase.value,
                )
                .values(claims=VolumeRow.claims.op("||")(entry))
            )
            changed += int(getattr(result, "rowcount", 0) or 0)
        return changed

    async def mounted_by_active_sessions(self, volume_id: UUID) -> int:
        q = select(func.count()).where(
            SessionRow.state.not_in([state.value for state in TERMINAL]),
            SessionRow.mounts.contains([{"volume_id": str(volume_id)}]),
        )
        return int(await self.s.scalar(q) or 0)


def _template(r: TemplateRow) -> Template:
    return Template(
        r.id,
        r.name,
        r.group_id,
        r.organization_id,
        r.image_id,
        r.created_by,
        r.created_at,
        r.offering_id,
        r.preset_id,
        r.cpu_millicores,
        r.memory_mib,
        r.shm_mib,
        dict(r.env or {}),
        tuple(TemplateMount(UUID(m["volume_id"]), m["mount_path"], MountMode(m["mode"])) for m in r.mounts or []),
        r.description,
    )


class SqlTemplateRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.s = session

    async def add(self, t: Template) -> None:
        self.s.add(
            TemplateRow(
                id=t.id,
                name=t.name,
                group_id=t.group_id,
                organization_id=t.organization_id,
                image_id=t.image_id,
                offering_id=t.offering_id,
                preset_id=t.preset_id,
                cpu_millicores=t.cpu_millicores,
                memory_mib=t.memory_mib,
                shm_mib=t.shm_mib,
                env=dict(t.env),
                description=t.description,
                created_by=t.created_by,
                created_at=t.created_at,
                mounts=[
                    {"volume_id": str(m.volume_id), "mount_path": m.mount_path, "mode": m.mode.value} for m in t.mounts
                ],
            )
        )
        await self.s.flush()

    async def get(self, template_id: UUID) -> Template | None:
        r = await self.s.get(TemplateRow, template_id)
        return _template(r) if r else None

    async def delete(self, template_id: UUID) -> None:
        await self.s.execute(delete(TemplateRow).where(TemplateRow.id == template_id))

    async def name_taken(self, group_id: UUID, name: str) -> bool:
        q = select(TemplateRow.id).where(TemplateRow.group_id == group_id, func.lower(TemplateRow.name) == name.lower())
        return (await self.s.scalar(q.limit(1))) is not None

    async def of_groups(self, group_ids: frozenset[UUID] | None, offset: int, limit: int) -> tuple[list[Template], int]:
        q = select(TemplateRow)
        if group_ids is not None:
            q = q.where(TemplateRow.group_id.in_(group_ids))
        total = await self.s.scalar(select(func.count()).select_from(q.subquery())) or 0
        rows = await self.s.scalars(q.order_by(TemplateRow.name).offset(offset).limit(limit))
        return [_template(r) for r in rows], total


class SqlNotificationRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.s = session

    async def add(self, n: Notification) -> None:
        self.s.add(
            NotificationRow(
                id=n.id,
                user_id=n.user_id,
                kind=n.kind,
                message=n.message,
                session_id=n.session_id,
                created_at=n.created_at,
            )
        )
        await self.s.flush()

    async def of_user(
        self, user_id: UUID, offset: int, limit: int, unread_only: bool = False
    ) -> tuple[list[Notification], int]:
        q = select(NotificationRow).where(NotificationRow.user_id == user_id)
        if unread_only:
            q = q.where(NotificationRow.read_at.is_(None))
        total = await self.s.scalar(select(func.count()).select_from(q.subquery())) or 0
        rows = await self.s.scalars(q.order_by(NotificationRow.created_at.desc()).offset(offset).limit(limit))
        return [
            Notification(r.id, r.user_id, r.kind, r.message, r.created_at, r.session_id, r.read_at) for r in rows
        ], total

    async def mark_read(self, user_id: UUID, ids: Sequence[UUID], at: datetime) -> int:
        result = await self.s.execute(
            update(NotificationRow)
            .where(
                NotificationRow.user_id == user_id, NotificationRow.id.in_(list(ids)), NotificationRow.read_at.is_(None)
            )
            .values(read_at=at)
        )
        return int(getattr(result, "rowcount", 0) or 0)

import { useState } from "react";
import { Anchor, Badge, Button, Group, Modal, MultiSelect, Select, Stack, Table, Tabs, Text, Textarea } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { Link } from "wouter";
import { graphql } from "../../gql";
import type { GpuKind, SessionState } from "../../gql/graphql";
import { useLanguage } from "../../i18n";
import { useFieldErrors } from "../../common/errors";
import { formatCredits, formatDateTime } from "../../common/format";
import { Pager, useCursorPages } from "../../common/pagination";
import { Empty, GeneralErrors, PageHeader, QueryState } from "../../common/ui";
import { useOrganizationOptions } from "../../common/options";
import { STATE_COLOR } from "../../sessions/states";
import { gpuSize } from "../../sessions/gpuSize";
import { useAdminSessionsLive } from "../../common/live";

// the session as the admin lists show it: who asked, besides what every session view shows
export const AdminSessionFieldsFragment = graphql(`
  fragment AdminSessionFields on Session {
    ...SessionFields
    ownerId
    owner {
      username
      displayName
    }
  }
`);

const AdminSessionsDocument = graphql(`
  query AdminSessions($states: [SessionState!], $organizationId: ID, $first: Int, $after: String) {
    sessions(states: $states, organizationId: $organizationId, first: $first, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        ...AdminSessionFields
      }
    }
  }
`);

const PendingApprovalsDocument = graphql(`
  query PendingApprovals($first: Int, $after: String) {
    pendingApprovals(first: $first, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        ...AdminSessionFields
      }
    }
  }
`);

const SessionApproveDocument = graphql(`
  mutation SessionApprove($input: SessionApproveInput!) {
    sessionApprove(input: $input) {
      session {
        id
        state
      }
      errors {
        params {
          name
          value
        }
        code
        field
        message
      }
    }
  }
`);

const SessionRejectDocument = graphql(`
  mutation SessionReject($input: SessionRejectInput!) {
    sessionReject(input: $input) {
      session {
        id
        state
      }
      errors {
        params {
          name
          value
        }
        code
        field
        message
      }
    }
  }
`);

const STATES: SessionState[] = ["PENDING_APPROVAL", "QUEUED", "SCHEDULED", "STARTING", "RUNNING", "PAUSED", "PREEMPTED", "STOPPED", "SUCCEEDED", "FAILED", "EXPIRED", "REJECTED"];
const KINDS: GpuKind[] = ["EXCLUSIVE", "SHARED", "MIG", "HAMI"];

type Person = { username: string; displayName: string };
type Row = {
  id: string;
  name: string;
  state: SessionState;
  ownerId: string;
  owner?: Person | null;
  group?: { name: string } | null;
  templateName?: string | null;
  approver?: Person | null;
  createdAt: string;
  gpu?: { offeringName: string; ratio: string; cards: number; exclusive: boolean; shared: boolean; vramMib: number; cores: number } | null;
  costSoFar: { credits: string };
};

const person = (p: Person | null | undefined) => (p ? `${p.displayName} (${p.username})` : "—");

function SessionRows({ rows, actions, showApprover }: { rows: Row[]; actions?: (s: Row) => React.ReactNode; showApprover?: boolean }) {
  const { t, language } = useLanguage();
  if (rows.length === 0) return <Empty>{t("sessions.none")}</Empty>;
  return (
    <Table striped withTableBorder>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t("sessions.name")}</Table.Th>
          <Table.Th>{t("sessions.owner")}</Table.Th>
          <Table.Th>{t("common.status")}</Table.Th>
          <Table.Th>GPU</Table.Th>
          <Table.Th>{t("sessions.cost")}</Table.Th>
          <Table.Th>{t("common.created")}</Table.Th>
          {actions && <Table.Th />}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((s) => (
          <Table.Tr key={s.id}>
            <Table.Td>
              <Anchor component={Link} href={`/sessions/${encodeURIComponent(s.id)}`}>
                {s.name}
              </Anchor>
              {s.templateName && (
                <Text size="xs" c="dimmed">
                  {t("sessions.template")}: {s.templateName}
                </Text>
              )}
            </Table.Td>
            <Table.Td>
              {person(s.owner)}
              {s.group && (
                <Text size="xs" c="dimmed">
                  {t("sessions.group")}: {s.group.name}
                </Text>
              )}
            </Table.Td>
            <Table.Td style={{ whiteSpace: "nowrap" }}>
              <Badge color={STATE_COLOR[s.state]} style={{ overflow: "visible" }}>
                {t(`state.${s.state}`)}
              </Badge>
              {showApprover && s.approver && (
                <Text size="xs" c="dimmed">
                  {t("sessions.approver")}: {person(s.approver)}
                </Text>
              )}
            </Table.Td>
            <Table.Td>{s.gpu ? `${s.gpu.offeringName} · ${gpuSize(s.gpu, t)}` : t("presets.cpuOnly")}</Table.Td>
            <Table.Td>{formatCredits(s.costSoFar.credits, language)}</Table.Td>
            <Table.Td>{formatDateTime(s.createdAt, language)}</Table.Td>
            {actions && <Table.Td>{actions(s)}</Table.Td>}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function Approvals() {
  const { t } = useLanguage();
  const pages = useCursorPages();
  const [r, refetch] = useQuery({ query: PendingApprovalsDocument, variables: pages.variables });
  const [approving, setApproving] = useState<{ id: string; kind: GpuKind | null } | null>(null);
  const [rejecting, setRejecting] = useState<{ id: string; reason: string } | null>(null);
  const [{ fetching: a }, approve] = useMutation(SessionApproveDocument);
  const [{ fetching: j }, reject] = useMutation(SessionRejectDocument);
  const approveErrors = useFieldErrors(["gpuKind"]);
  const rejectErrors = useFieldErrors(["reason"]);
  useAdminSessionsLive(refetch);
  const conn = r.data?.pendingApprovals;
  const reload = () => refetch({ requestPolicy: "network-only" });
  return (
    <QueryState fetching={r.fetching} error={r.error}>
      {conn && (
        <SessionRows
          rows={conn.nodes}
          actions={(s) => (
            <Group gap={4} wrap="nowrap">
              <Button size="xs" onClick={() => { approveErrors.clear(); setApproving({ id: s.id, kind: null }); }}>
                {t("approvals.approve")}
              </Button>
              <Button size="xs" color="red" variant="light" onClick={() => { rejectErrors.clear(); setRejecting({ id: s.id, reason: "" }); }}>
                {t("approvals.reject")}
              </Button>
            </Group>
          )}
        />
      )}
      <Pager pages={pages} pageInfo={conn?.pageInfo} totalCount={conn?.totalCount} fetching={r.fetching} />
      <Modal opened={approving !== null} onClose={() => setApproving(null)} title={t("approvals.approve")}>
        {approving && (
          <Stack>
            <Select
              label={t("approvals.gpuKind")}
              description={t("approvals.gpuKindHint")}
              data={KINDS.map((k) => ({ value: k, label: t(`gpuKind.${k}`) }))}
              value={approving.kind}
              onChange={(v) => setApproving({ ...approving, kind: v as GpuKind | null })}
              clearable
              error={approveErrors.field("gpuKind")}
            />
            <GeneralErrors messages={approveErrors.general} />
            <Group justify="flex-end">
              <Button
                loading={a}
                onClick={async () => {
                  if (approveErrors.take(await approve({ input: { id: approving.id, gpuKind: approving.kind } }), (d) => d.sessionApprove)) {
                    setApproving(null);
                    reload();
                  }
                }}
              >
                {t("approvals.approve")}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
      <Modal opened={rejecting !== null} onClose={() => setRejecting(null)} title={t("approvals.reject")}>
        {rejecting && (
          <Stack>
            <Textarea label={t("approvals.reason")} value={rejecting.reason} onChange={(e) => setRejecting({ ...rejecting, reason: e.currentTarget.value })} error={rejectErrors.field("reason")} />
            <GeneralErrors messages={rejectErrors.general} />
            <Group justify="flex-end">
              <Button
                color="red"
                loading={j}
                onClick={async () => {
                  if (rejectErrors.take(await reject({ input: { id: rejecting.id, reason: rejecting.reason } }), (d) => d.sessionReject)) {
                    setRejecting(null);
                    reload();
                  }
                }}
              >
                {t("approvals.reject")}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </QueryState>
  );
}

function AllSessions() {
  const t = useLanguage().t;
  const [states, setStates] = useState<string[]>([]);
  const [org, setOrg] = useState<string | null>(null);
  const orgs = useOrganizationOptions(true);
  const pages = useCursorPages(undefined, `${states.join(",")}|${org ?? ""}`);
  const [r, refetch] = useQuery({ query: AdminSessionsDocument, variables: { states: states.length ? (states as SessionState[]) : null, organizationId: org, ...pages.variables } });
  useAdminSessionsLive(refetch);
  const conn = r.data?.sessions;
  return (
    <Stack>
      <Group>
        <MultiSelect placeholder={t("common.status")} aria-label={t("common.status")} data={STATES.map((s) => ({ value: s, label: t(`state.${s}`) }))} value={states} onChange={setStates} w={360} clearable />
        <Select placeholder={t("common.allOrganizations")} aria-label={t("common.organization")} data={orgs} value={org} onChange={setOrg} clearable w={240} />
      </Group>
      <QueryState fetching={r.fetching} error={r.error}>
        {conn && <SessionRows rows={conn.nodes} showApprover />}
        <Pager pages={pages} pageInfo={conn?.pageInfo} totalCount={conn?.totalCount} fetching={r.fetching} />
      </QueryState>
    </Stack>
  );
}

/** The approval count in the tab, kept current by the same live feed as the lists. */
function PendingCount() {
  const { pendingApprovals } = useAdminSessionsLive(noRefetch);
  return pendingApprovals ? (
    <Badge size="sm" variant="filled" ml={6} data-testid="pending-approvals">
      {pendingApprovals}
    </Badge>
  ) : null;
}

const noRefetch = () => {};

export default function AdminSessionsPage() {
  const t = useLanguage().t;
  return (
    <Stack>
      <PageHeader title={t("nav.adminSessions")} />
      <Tabs defaultValue="approvals" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="approvals" rightSection={<PendingCount />}>
            {t("approvals.title")}
          </Tabs.Tab>
          <Tabs.Tab value="all">{t("approvals.all")}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="approvals" pt="md">
          <Text size="sm" c="dimmed" mb="sm">
            {t("approvals.description")}
          </Text>
          <Approvals />
        </Tabs.Panel>
        <Tabs.Panel value="all" pt="md">
          <AllSessions />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

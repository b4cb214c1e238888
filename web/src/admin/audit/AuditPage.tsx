import { useState } from "react";
import { Badge, Button, Group, Paper, Select, Stack, Table, Text, TextInput } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { useQuery } from "urql";
import { graphql } from "../../gql";
import type { AuditFilterInput } from "../../gql/graphql";
import { useLanguage } from "../../i18n";
import { formatDateTime, formatUnit } from "../../common/format";
import { Pager, useCursorPages } from "../../common/pagination";
import { Empty, PageHeader, QueryState } from "../../common/ui";
import { useOrganizationOptions } from "../../common/options";

const AuditLogDocument = graphql(`
  query AuditLog($filter: AuditFilterInput, $first: Int, $after: String) {
    auditLog(filter: $filter, first: $first, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        id
        at
        actorUsername
        operation
        targetType
        targetId
        targetName
        success
        resultCode
        durationMs
        requestId
        clientIp
      }
    }
  }
`);

export interface AuditFilterForm {
  operation: string;
  targetType: string;
  targetId: string;
  success: "" | "true" | "false";
  since: string;
  until: string;
  organizationId: string | null;
}

const EMPTY: AuditFilterForm = { operation: "", targetType: "", targetId: "", success: "", since: "", until: "", organizationId: null };

/** The form's strings as the API's filter; blank fields are left out. `since`/`until` are
 * local datetime-input values, sent as UTC instants. */
export function toAuditFilter(f: AuditFilterForm): AuditFilterInput {
  const out: AuditFilterInput = {};
  if (f.operation.trim()) out.operation = f.operation.trim();
  if (f.targetType.trim()) out.targetType = f.targetType.trim();
  if (f.targetId.trim()) out.targetId = f.targetId.trim();
  if (f.success) out.success = f.success === "true";
  if (f.since) out.since = new Date(f.since).toISOString();
  if (f.until) out.until = new Date(f.until).toISOString();
  if (f.organizationId) out.organizationId = f.organizationId;
  return out;
}

/** A message for a code the server sends (a target type, a result code), or the code itself
 * when this console has no words for it yet. */
function localised(t: ReturnType<typeof useLanguage>["t"], key: string, fallback: string): string {
  return t.has(key) ? t(key) : fallback;
}

export default function AuditPage() {
  const { t, language } = useLanguage();
  const [form, setForm] = useState<AuditFilterForm>(EMPTY);
  const [debounced] = useDebouncedValue(form, 300);
  const filter = toAuditFilter(debounced);
  const key = JSON.stringify(filter);
  const pages = useCursorPages(25, key);
  const [r] = useQuery({ query: AuditLogDocument, variables: { filter, ...pages.variables } });
  const orgs = useOrganizationOptions(true);
  const conn = r.data?.auditLog;

  return (
    <Stack>
      <PageHeader title={t("nav.audit")} description={t("audit.description")} />
      <Paper withBorder p="sm">
        <Group align="flex-end" wrap="wrap">
          <TextInput label={t("audit.operation")} placeholder="login" translate="no" value={form.operation} onChange={(e) => setForm({ ...form, operation: e.currentTarget.value })} w={170} />
          <TextInput label={t("audit.targetType")} placeholder="User" translate="no" value={form.targetType} onChange={(e) => setForm({ ...form, targetType: e.currentTarget.value })} w={150} />
          <TextInput label={t("audit.targetId")} value={form.targetId} onChange={(e) => setForm({ ...form, targetId: e.currentTarget.value })} w={170} />
          <Select
            label={t("audit.result")}
            data={[
              { value: "", label: t("audit.any") },
              { value: "true", label: t("audit.succeeded") },
              { value: "false", label: t("audit.failed") },
            ]}
            value={form.success}
            onChange={(v) => setForm({ ...form, success: (v ?? "") as AuditFilterForm["success"] })}
            allowDeselect={false}
            w={140}
          />
          <TextInput type="datetime-local" label={t("audit.since")} value={form.since} onChange={(e) => setForm({ ...form, since: e.currentTarget.value })} w={200} />
          <TextInput type="datetime-local" label={t("audit.until")} value={form.until} onChange={(e) => setForm({ ...form, until: e.currentTarget.value })} w={200} />
          <Select label={t("common.organization")} data={orgs} value={form.organizationId} onChange={(v) => setForm({ ...form, organizationId: v })} clearable w={200} />
          <Button variant="default" onClick={() => setForm(EMPTY)}>
            {t("audit.clear")}
          </Button>
        </Group>
      </Paper>
      <QueryState fetching={r.fetching} error={r.error}>
        {conn && conn.nodes.length === 0 && <Empty>{t("audit.none")}</Empty>}
        {conn && conn.nodes.length > 0 && (
          <Table striped withTableBorder fz="sm" data-testid="audit-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("audit.at")}</Table.Th>
                <Table.Th>{t("audit.actor")}</Table.Th>
                <Table.Th>{t("audit.operation")}</Table.Th>
                <Table.Th>{t("audit.target")}</Table.Th>
                <Table.Th>{t("audit.result")}</Table.Th>
                <Table.Th>{t("audit.duration")}</Table.Th>
                <Table.Th>{t("audit.client")}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {conn.nodes.map((e) => (
                <Table.Tr key={e.id}>
                  <Table.Td>{formatDateTime(e.at, language)}</Table.Td>
                  <Table.Td>{e.actorUsername ?? "—"}</Table.Td>
                  <Table.Td ff="monospace" translate="no">
                    {e.operation}
                  </Table.Td>
                  <Table.Td>
                    {e.targetType ? localised(t, `auditTarget.${e.targetType}`, e.targetType) : "—"}
                    {e.targetName ? (
                      <Text span size="sm" title={e.targetId ?? undefined} translate="no" data-testid="audit-target-name">
                        {" "}
                        {e.targetName}
                      </Text>
                    ) : (
                      e.targetId && (
                        <Text span size="xs" c="dimmed" ff="monospace" translate="no">
                          {" "}
                          {e.targetId}
                        </Text>
                      )
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Badge color={e.success ? "teal" : "red"} variant="light" data-code={e.resultCode}>
                      {e.success ? t("audit.succeeded") : localised(t, `error.${e.resultCode}`, e.resultCode)}
                    </Badge>
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: "nowrap" }}>{formatUnit(e.durationMs, "millisecond", language)}</Table.Td>
                  <Table.Td>
                    <Text size="xs" c="dimmed">
                      {e.clientIp ?? ""} {e.requestId ?? ""}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <Pager pages={pages} pageInfo={conn?.pageInfo} totalCount={conn?.totalCount} fetching={r.fetching} />
      </QueryState>
    </Stack>
  );
}

import { useState } from "react";
import { Badge, Button, Group, Select, Stack, Table, Text, TextInput } from "@mantine/core";
import { useQuery } from "urql";
import type { TransferKind } from "../gql/graphql";
import { useLanguage } from "../i18n";
import { formatCredits, formatDateTime } from "../common/format";
import { Pager, useCursorPages } from "../common/pagination";
import { Empty, QueryState } from "../common/ui";
import { LedgerHistoryDocument } from "./documents";

const KINDS: TransferKind[] = ["ALLOCATION", "TAKE_BACK", "REFILL", "CHARGE"];

/** `GET /exports/ledger.csv` with the same filters as the table (the server streams it). */
export function ledgerCsvUrl(f: { accountId?: string | null; kind?: string | null; since?: string | null; until?: string | null }): string {
  const p = new URLSearchParams();
  if (f.accountId) p.set("account", f.accountId);
  if (f.kind) p.set("kind", f.kind);
  if (f.since) p.set("since", f.since);
  if (f.until) p.set("until", f.until);
  const q = p.toString();
  return `/exports/ledger.csv${q ? `?${q}` : ""}`;
}

const toIso = (local: string) => (local ? new Date(local).toISOString() : null);

/** The transfers of one account (or of all, for super admins), newest first, with filters and
 * a CSV download of exactly what is filtered. */
export function LedgerTable({ accountId }: { accountId: string | null }) {
  const { t, language } = useLanguage();
  const [kind, setKind] = useState<TransferKind | null>(null);
  const [since, setSince] = useState("");
  const [until, setUntil] = useState("");
  const filters = { kind, since: toIso(since), until: toIso(until) };
  const pages = useCursorPages(25, JSON.stringify([accountId, filters]));
  const [r] = useQuery({ query: LedgerHistoryDocument, variables: { account: accountId ? { id: accountId } : null, ...filters, ...pages.variables } });
  const conn = r.data?.ledgerHistory;
  return (
    <Stack>
      <Group align="flex-end">
        <Select label={t("ledger.kind")} data={KINDS.map((k) => ({ value: k, label: t(`transfer.${k}`) }))} value={kind} onChange={(v) => setKind(v as TransferKind | null)} clearable w={180} />
        <TextInput type="datetime-local" label={t("audit.since")} value={since} onChange={(e) => setSince(e.currentTarget.value)} w={200} />
        <TextInput type="datetime-local" label={t("audit.until")} value={until} onChange={(e) => setUntil(e.currentTarget.value)} w={200} />
        <Button component="a" variant="default" href={ledgerCsvUrl({ accountId, ...filters })} download data-testid="ledger-csv">
          {t("ledger.csv")}
        </Button>
      </Group>
      <QueryState fetching={r.fetching} error={r.error}>
        {conn && conn.nodes.length === 0 && <Empty>{t("ledger.none")}</Empty>}
        {conn && conn.nodes.length > 0 && (
          <Table striped withTableBorder fz="sm" data-testid="ledger-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("audit.at")}</Table.Th>
                <Table.Th>{t("ledger.kind")}</Table.Th>
                <Table.Th>{t("ledger.from")}</Table.Th>
                <Table.Th>{t("ledger.to")}</Table.Th>
                <Table.Th ta="right">{t("ledger.amount")}</Table.Th>
                <Table.Th>{t("ledger.memo")}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {conn.nodes.map((x) => {
                const incoming = accountId != null && x.destination.accountId === accountId;
                const outgoing = accountId != null && x.source.accountId === accountId;
                return (
                  <Table.Tr key={x.id}>
                    <Table.Td>{formatDateTime(x.createdAt, language)}</Table.Td>
                    <Table.Td>
                      <Badge variant="light">{t(`transfer.${x.kind}`)}</Badge>
                    </Table.Td>
                    <Table.Td>{x.source.name}</Table.Td>
                    <Table.Td>{x.destination.name}</Table.Td>
                    <Table.Td ta="right">
                      <Text size="sm" c={incoming ? "teal" : outgoing ? "red" : undefined} ff="monospace">
                        {incoming ? "+" : outgoing ? "−" : ""}
                        {formatCredits(x.amount.credits, language)}
                      </Text>
                    </Table.Td>
                    <Table.Td>{x.memo}</Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        )}
        <Pager pages={pages} pageInfo={conn?.pageInfo} totalCount={conn?.totalCount} fetching={r.fetching} />
      </QueryState>
    </Stack>
  );
}

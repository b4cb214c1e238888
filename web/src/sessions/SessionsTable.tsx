import { useEffect, useRef } from "react";
import { Anchor, Badge, Table, Text } from "@mantine/core";
import { useQuery, useSubscription } from "urql";
import { Link } from "wouter";
import { graphql } from "../gql";
import { useLanguage } from "../i18n";
import { formatCredits, formatDateTime } from "../common/format";
import { Pager, useCursorPages } from "../common/pagination";
import { Empty, QueryState } from "../common/ui";
import { MySessionsSubscription } from "./documents";
import { formatRemaining, TONE_COLOR } from "./remaining";
import { STATE_COLOR } from "./states";
import { gpuSize } from "./gpuSize";

const MySessionsDocument = graphql(`
  query MySessions($first: Int, $after: String) {
    mySessions(first: $first, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        ...SessionFields
      }
    }
  }
`);

/** The viewer's sessions, a page at a time, refetched whenever the server pushes a change. */
export function SessionsTable({ pageSize }: { pageSize?: number }) {
  const { t, language } = useLanguage();
  const pages = useCursorPages(pageSize);
  const [r, refetch] = useQuery({ query: MySessionsDocument, variables: pages.variables });
  const [live] = useSubscription({ query: MySessionsSubscription });
  const first = useRef(true);
  useEffect(() => {
    if (!live.data) return;
    if (first.current) {
      first.current = false;
      return;
    }
    refetch({ requestPolicy: "network-only" });
  }, [live.data, refetch]);

  // Live state per session from the subscription, over the page's (possibly older) copy.
  const liveById = new Map((live.data?.mySessions ?? []).map((s) => [s.id, s]));
  const conn = r.data?.mySessions;
  return (
    <QueryState fetching={r.fetching} error={r.error}>
      {conn && conn.nodes.length === 0 && <Empty>{t("sessions.none")}</Empty>}
      {conn && conn.nodes.length > 0 && (
        <Table striped withTableBorder data-testid="sessions-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t("sessions.name")}</Table.Th>
              <Table.Th>{t("common.status")}</Table.Th>
              <Table.Th>GPU</Table.Th>
              <Table.Th>{t("sessions.remaining")}</Table.Th>
              <Table.Th>{t("sessions.cost")}</Table.Th>
              <Table.Th>{t("common.created")}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {conn.nodes.map((row) => {
              const s = liveById.get(row.id) ?? row;
              return (
                <Table.Tr key={s.id}>
                  <Table.Td>
                    <Anchor component={Link} href={`/sessions/${encodeURIComponent(s.id)}`}>
                      {s.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <Badge color={STATE_COLOR[s.state]}>{t(`state.${s.state}`)}</Badge>
                    {s.state === "QUEUED" && s.queuePosition && (
                      <Text span size="xs" c="dimmed" ml={6}>
                        #{s.queuePosition.position}/{s.queuePosition.length}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{s.gpu ? `${s.gpu.offeringName} · ${gpuSize(s.gpu, t)}` : t("presets.cpuOnly")}</Table.Td>
                  <Table.Td>
                    {s.remainingSeconds == null ? (
                      "—"
                    ) : (
                      <Text size="sm" c={s.expiryWarning ? TONE_COLOR.warning : undefined}>
                        {formatRemaining(s.remainingSeconds * 1000, language)}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{formatCredits(s.costSoFar.credits, language)}</Table.Td>
                  <Table.Td>{formatDateTime(s.createdAt, language)}</Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
      <Pager pages={pages} pageInfo={conn?.pageInfo} totalCount={conn?.totalCount} fetching={r.fetching} />
    </QueryState>
  );
}

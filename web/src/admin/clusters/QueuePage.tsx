import { Anchor, Stack, Table, Text } from "@mantine/core";
import { useQuery } from "urql";
import { Link } from "wouter";
import { graphql } from "../../gql";
import { useT } from "../../i18n";
import { Empty, PageHeader, QueryState } from "../../common/ui";
import { formatMib } from "../../common/format";
import { useRefetchOnCapacityChange } from "../../common/live";

const GpuQueueDocument = graphql(`
  query GpuQueue {
    gpuQueue {
      sessionId
      sessionName
      offering
      position
      length
      priority
      ratioOrCards
      exclusiveCards
      shared
      vramMib
      cores
    }
  }
`);

/** The GPU queue per offering in admission order; refreshed whenever capacity changes. */
export default function QueuePage() {
  const t = useT();
  const [r, refetch] = useQuery({ query: GpuQueueDocument });
  useRefetchOnCapacityChange(refetch);
  const rows = r.data?.gpuQueue ?? [];
  return (
    <Stack>
      <PageHeader title={t("nav.queue")} description={t("queue.description")} />
      <QueryState fetching={r.fetching} error={r.error}>
        {r.data && rows.length === 0 && <Empty>{t("queue.none")}</Empty>}
        {rows.length > 0 && (
          <Table striped withTableBorder>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("sessions.offering")}</Table.Th>
                <Table.Th>{t("queue.position")}</Table.Th>
                <Table.Th>{t("queue.priority")}</Table.Th>
                <Table.Th>{t("queue.asks")}</Table.Th>
                <Table.Th>{t("queue.session")}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((q) => (
                <Table.Tr key={`${q.offering}-${q.position}`}>
                  <Table.Td>{q.offering}</Table.Td>
                  <Table.Td>
                    {q.position} / {q.length}
                  </Table.Td>
                  <Table.Td>{q.priority}</Table.Td>
                  <Table.Td>
                    {q.exclusiveCards
                      ? t("queue.cards", { n: q.exclusiveCards })
                      : q.shared
                        ? t("queue.timeSlice")
                        : t("queue.fraction", { memory: formatMib(q.vramMib), cores: q.cores })}
                  </Table.Td>
                  <Table.Td>
                    {q.sessionId ? (
                      <Anchor component={Link} href={`/sessions/${encodeURIComponent(q.sessionId)}`}>
                        {q.sessionName ?? `${q.sessionId.slice(0, 12)}…`}
                      </Anchor>
                    ) : (
                      <Text size="sm" c="dimmed">
                        {t("clusters.anonymous")}
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </QueryState>
    </Stack>
  );
}

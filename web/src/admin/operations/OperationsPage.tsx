import { Badge, Stack, Table, Text } from "@mantine/core";
import { useQuery } from "urql";
import { graphql } from "../../gql";
import type { BackgroundJobOutcome } from "../../gql/graphql";
import { useLanguage } from "../../i18n";
import { formatDateTime } from "../../common/format";
import { PageHeader, QueryState } from "../../common/ui";
import { usePolling } from "../../common/live";

const BackgroundJobsDocument = graphql(`
  query BackgroundJobs {
    backgroundJobs {
      name
      description
      period
      nextDueAt
      lastOutcome
      lastError
      lastRun {
        periodStart
        finishedAt
        durationSeconds
        attempts
        summary
      }
      lastSuccess {
        finishedAt
      }
    }
  }
`);

const OUTCOME_COLOR: Record<BackgroundJobOutcome, string> = { PENDING: "gray", RUNNING: "blue", SUCCEEDED: "teal", FAILED: "red", COALESCED: "yellow" };

/** The periodic background jobs and how their last runs went (super admin). */
export default function OperationsPage() {
  const { t, language } = useLanguage();
  const [r, refetch] = useQuery({ query: BackgroundJobsDocument });
  usePolling(refetch); // no subscription for job runs
  return (
    <Stack>
      <PageHeader title={t("nav.operations")} description={t("operations.description")} />
      <QueryState fetching={r.fetching} error={r.error}>
        {r.data && (
          <Table striped withTableBorder fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("operations.job")}</Table.Th>
                <Table.Th>{t("operations.period")}</Table.Th>
                <Table.Th>{t("operations.last")}</Table.Th>
                <Table.Th>{t("operations.lastSuccess")}</Table.Th>
                <Table.Th>{t("operations.next")}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {r.data.backgroundJobs.map((j) => (
                <Table.Tr key={j.name}>
                  <Table.Td>
                    <Text size="sm" ff="monospace">
                      {j.name}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {j.description}
                    </Text>
                  </Table.Td>
                  <Table.Td>{j.period}</Table.Td>
                  <Table.Td>
                    {j.lastOutcome ? <Badge color={OUTCOME_COLOR[j.lastOutcome]}>{j.lastOutcome}</Badge> : "—"}
                    {j.lastRun?.summary && (
                      <Text size="xs" c="dimmed">
                        {j.lastRun.summary}
                      </Text>
                    )}
                    {j.lastError && (
                      <Text size="xs" c="red">
                        {j.lastError}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{formatDateTime(j.lastSuccess?.finishedAt, language)}</Table.Td>
                  <Table.Td>{formatDateTime(j.nextDueAt, language)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </QueryState>
    </Stack>
  );
}

import { Badge, Stack, Table, Text } from "@mantine/core";
import { useQuery } from "urql";
import { graphql } from "../../gql";
import type { BackgroundJobOutcome } from "../../gql/graphql";
import { fillMessage, useLanguage, type Translate } from "../../i18n";
import { formatDateTime, formatUnit, periodUnit } from "../../common/format";
import { PageHeader, QueryState } from "../../common/ui";
import { usePolling } from "../../common/live";

const BackgroundJobsDocument = graphql(`
  query BackgroundJobs {
    backgroundJobs {
      name
      description
      period
      periodSeconds
      nextDueAt
      lastOutcome
      lastError
      lastRun {
        periodStart
        finishedAt
        durationSeconds
        attempts
        summary
        counts {
          name
          value
        }
      }
      lastSuccess {
        finishedAt
      }
    }
  }
`);

const OUTCOME_COLOR: Record<BackgroundJobOutcome, string> = { PENDING: "gray", RUNNING: "blue", SUCCEEDED: "teal", FAILED: "red", COALESCED: "yellow" };

function localised(t: Translate, key: string, fallback: string): string {
  return t.has(key) ? t(key) : fallback;
}

/** What a run did, said from its typed counts in the viewer's language; the server's English
 * line in English, or for a run recorded before counts were kept. */
export function runSummary(
  t: Translate,
  job: string,
  run: { summary?: string | null; counts: readonly { name: string; value: string }[] },
): string | null {
  const vars = Object.fromEntries(run.counts.map((c) => [c.name, c.value]));
  const said = run.counts.length ? fillMessage(t, `jobSummary.${job}`, vars) : null;
  if (said) return said;
  return t.language === "en" ? (run.summary ?? null) : null;
}

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
                    <Text size="sm" ff="monospace" translate="no">
                      {j.name}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {localised(t, `job.${j.name}`, j.description)}
                    </Text>
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: "nowrap" }}>{t("operations.every", { period: formatUnit(periodUnit(j.periodSeconds).value, periodUnit(j.periodSeconds).unit, language) })}</Table.Td>
                  <Table.Td>
                    {j.lastOutcome ? <Badge color={OUTCOME_COLOR[j.lastOutcome]} data-outcome={j.lastOutcome}>{localised(t, `jobOutcome.${j.lastOutcome}`, j.lastOutcome)}</Badge> : "—"}
                    {j.lastRun && runSummary(t, j.name, j.lastRun) && (
                      <Text size="xs" c="dimmed" data-testid={`summary-${j.name}`}>
                        {runSummary(t, j.name, j.lastRun)}
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

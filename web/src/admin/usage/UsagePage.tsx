import { lazy, Suspense, useMemo, useState } from "react";
import { Button, Card, Group, Loader, Progress, Select, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { useQuery } from "urql";
import { graphql } from "../../gql";
import type { ScopeKind, UsageDimension, UsageInterval } from "../../gql/graphql";
import { useLanguage } from "../../i18n";
import { formatCredits, formatDateTime } from "../../common/format";
import { Empty, PageHeader, QueryState } from "../../common/ui";
import { ScopePicker, type ScopeValue } from "../../common/ScopePicker";
import { useOrganizationOptions } from "../../common/options";
import { SPLITS, rowLabel, usageCsvUrl } from "./report";

// uPlot is loaded only once a report is asked per day, week or month
const UsageSeriesChart = lazy(() => import("./UsageSeriesChart"));

const UsageReportDocument = graphql(`
  query UsageReport($scope: ScopeInput!, $since: DateTime, $until: DateTime, $by: UsageDimension, $interval: UsageInterval) {
    usageReport(scope: $scope, since: $since, until: $until, by: $by, interval: $interval) {
      since
      until
      by
      interval
      periods
      scope {
        kind
        name
      }
      spent {
        micro
        credits
      }
      rows {
        kind
        id
        name
        spent {
          micro
          credits
        }
        series {
          micro
        }
      }
    }
  }
`);

const INTERVALS: UsageInterval[] = ["DAY", "WEEK", "MONTH"];
const toIso = (local: string) => (local ? new Date(local).toISOString() : null);

const UsageOrganizationsDocument = graphql(`
  query UsageOrganizations {
    organizations(first: 100) {
      nodes {
        id
        viewerIsAdmin
        groups(first: 1) {
          totalCount
        }
        users(first: 1) {
          totalCount
        }
      }
    }
  }
`);

/** Credits spent by an organisation, group or user over a period, split by group, user or
 * offering (GPU model), as bars, as a chart per day/week/month, and as CSV. */
export default function UsagePage() {
  const { t, language } = useLanguage();
  const orgs = useOrganizationOptions(true);
  const [chosen, setScope] = useState<ScopeValue | null>(null);
  // until one is chosen: the administered organisation with the most groups (then users), so the page opens
  // on a report with something in it (not on the empty Default organisation of a fresh install)
  const [busiest] = useQuery({ query: UsageOrganizationsDocument });
  const opening = [...(busiest.data?.organizations.nodes ?? [])]
    .filter((o) => o.viewerIsAdmin)
    .sort((a, b) => b.groups.totalCount - a.groups.totalCount || b.users.totalCount - a.users.totalCount)[0]?.id;
  const scope: ScopeValue = chosen ?? { kind: "ORGANIZATION", id: opening ?? orgs[0]?.value ?? null };
  const [chosenBy, setBy] = useState<UsageDimension | null>("GROUP");
  const [interval, setInterval] = useState<UsageInterval | null>(null);
  const [since, setSince] = useState("");
  const [until, setUntil] = useState("");
  const splits = SPLITS[scope.kind as Exclude<ScopeKind, "GLOBAL">] ?? [];
  const by = chosenBy && splits.includes(chosenBy) ? chosenBy : null;
  const filters = { since: toIso(since), until: toIso(until), by, interval };
  const [r] = useQuery({
    query: UsageReportDocument,
    variables: { scope: { kind: scope.kind, id: scope.id }, ...filters },
    pause: !scope.id,
  });
  const u = r.data?.usageReport;
  const max = u ? u.rows.reduce((m, x) => (BigInt(x.spent.micro) > m ? BigInt(x.spent.micro) : m), 0n) : 0n;
  const label = (x: { kind?: UsageDimension | null; id?: string | null; name?: string | null }) => rowLabel(x, t);
  const chartRows = useMemo(() => (u ? u.rows.map((x) => ({ label: rowLabel(x, t), series: x.series.map((v) => String(v.micro)) })) : []), [u, t]);
  return (
    <Stack>
      <PageHeader title={t("nav.usage")} description={t("usage.description")} />
      <Group align="flex-end">
        <ScopePicker value={scope} onChange={setScope} kinds={["ORGANIZATION", "GROUP", "USER"]} />
        <Select
          label={t("usage.by")}
          data={splits.map((s) => ({ value: s, label: t(`usage.by.${s}`) }))}
          value={by}
          onChange={(v) => setBy(v as UsageDimension | null)}
          clearable
          w={230}
          data-testid="usage-by"
        />
        <Select
          label={t("usage.interval")}
          placeholder={t("usage.interval.none")}
          data={INTERVALS.map((i) => ({ value: i, label: t(`usage.interval.${i}`) }))}
          value={interval}
          onChange={(v) => setInterval(v as UsageInterval | null)}
          clearable
          w={150}
          data-testid="usage-interval"
        />
        <TextInput type="datetime-local" label={t("audit.since")} value={since} onChange={(e) => setSince(e.currentTarget.value)} w={200} />
        <TextInput type="datetime-local" label={t("audit.until")} value={until} onChange={(e) => setUntil(e.currentTarget.value)} w={200} />
      </Group>
      {!scope.id ? (
        <Empty>{t("budgets.pickScope")}</Empty>
      ) : (
        <QueryState fetching={r.fetching} error={r.error}>
          {u && (
            <Card withBorder>
              <Group justify="space-between" mb="sm">
                <Stack gap={0}>
                  <Title order={4}>
                    {u.scope.name}: {t("credits.amountOf", { amount: formatCredits(u.spent.credits, language) })}
                  </Title>
                  <Text size="xs" c="dimmed">
                    {formatDateTime(u.since, language)} – {formatDateTime(u.until, language)}
                  </Text>
                </Stack>
                <Button
                  component="a"
                  variant="default"
                  href={usageCsvUrl({ scopeKind: scope.kind, scopeId: scope.id, ...filters })}
                  download
                  data-testid="usage-csv"
                >
                  {t("ledger.csv")}
                </Button>
              </Group>
              {u.rows.length === 0 ? (
                <Empty>{t("usage.none")}</Empty>
              ) : (
                <Stack>
                  {u.interval && u.periods.length > 0 && (
                    <Suspense fallback={<Loader size="sm" />}>
                      <UsageSeriesChart
                        periods={u.periods}
                        interval={u.interval}
                        rows={chartRows}
                      />
                    </Suspense>
                  )}
                  <Table fz="sm" data-testid="usage-table">
                    <Table.Tbody>
                      {u.rows.map((x) => (
                        <Table.Tr key={`${x.kind}:${x.id}`}>
                          <Table.Td w="30%">{label(x)}</Table.Td>
                          <Table.Td>
                            <Progress value={max > 0n ? Number((BigInt(x.spent.micro) * 1000n) / max) / 10 : 0} size="lg" />
                          </Table.Td>
                          <Table.Td w={140} ta="right" ff="monospace">
                            {formatCredits(x.spent.credits, language)}
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Stack>
              )}
            </Card>
          )}
        </QueryState>
      )}
    </Stack>
  );
}

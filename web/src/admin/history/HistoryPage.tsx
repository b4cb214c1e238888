import { lazy, Suspense, useMemo, useState } from "react";
import { Card, Group, Loader, SegmentedControl, Select, Stack, Table, Text, Title } from "@mantine/core";
import { useQuery } from "urql";
import { graphql } from "../../gql";
import type { IdleCreditsDimension, UsageHistoryDimension } from "../../gql/graphql";
import { useLanguage } from "../../i18n";
import { formatCredits, formatDateTime, formatUnit, locale, periodUnit } from "../../common/format";
import { Empty, PageHeader, QueryState } from "../../common/ui";
import { alignSeries, PERIODS, periodStart, seriesSummary, type HistoryPeriod } from "./history";

// uPlot is loaded with the first chart
const HistoryChart = lazy(() => import("./HistoryChart"));

const UsageHistoryDocument = graphql(`
  query UsageHistory($since: DateTime!, $by: UsageHistoryDimension!, $step: Int) {
    usageHistory(since: $since, by: $by, stepSeconds: $step) {
      since
      until
      by
      stepSeconds
      series {
        key
        id
        name
        points {
          at
          sessions
          cardEquivalents
          gpuUtilPercent
          noDataMinutes
        }
      }
    }
  }
`);

const IdleCreditsDocument = graphql(`
  query IdleCredits($since: DateTime!, $by: IdleCreditsDimension!) {
    idleCreditsReport(since: $since, by: $by) {
      belowPercent
      charged {
        credits
      }
      idleCharged {
        credits
      }
      rows {
        id
        name
        sessions
        minutes
        idleMinutes
        noDataMinutes
        charged {
          credits
        }
        idleCharged {
          credits
        }
      }
    }
  }
`);

const DIMENSIONS: UsageHistoryDimension[] = ["CLUSTER", "NODE", "ORGANIZATION", "GROUP"];
const IDLE_DIMENSIONS: IdleCreditsDimension[] = ["ORGANIZATION", "GROUP", "USER"];
const PERIOD_CHOICES: HistoryPeriod[] = ["HOUR", "DAY", "WEEK", "MONTH"];

/** Allocation and utilisation over time per cluster, node, organisation or group (from the
 * per-minute usage history), and the credits spent while GPUs sat idle. */
export default function HistoryPage() {
  const { t, language } = useLanguage();
  const [by, setBy] = useState<UsageHistoryDimension>("CLUSTER");
  const [period, setPeriod] = useState<HistoryPeriod>("DAY");
  const [idleBy, setIdleBy] = useState<IdleCreditsDimension>("GROUP");
  // fixed when the period is chosen: the query's variables stay the same between renders
  const since = useMemo(() => periodStart(period, Date.now()), [period]);
  const [h] = useQuery({ query: UsageHistoryDocument, variables: { since, by, step: PERIODS[period].step } });
  const [idle] = useQuery({ query: IdleCreditsDocument, variables: { since, by: idleBy } });
  const history = h.data?.usageHistory;
  const labelled = useMemo(() => (history ? history.series.map((s) => ({ ...s, label: s.name })) : []), [history]);
  const cards = useMemo(() => alignSeries(labelled, (p) => p.cardEquivalents), [labelled]);
  const util = useMemo(() => alignSeries(labelled, (p) => p.gpuUtilPercent), [labelled]);
  const report = idle.data?.idleCreditsReport;
  const percent = (v: number | null) => (v == null ? "—" : `${v.toLocaleString(locale(language), { maximumFractionDigits: 1 })} %`);
  return (
    <Stack>
      <PageHeader title={t("nav.history")} description={t("history.description")} />
      <Group align="flex-end">
        <Select
          label={t("history.by")}
          data={DIMENSIONS.map((d) => ({ value: d, label: t(`history.by.${d}`) }))}
          value={by}
          onChange={(v) => v && setBy(v as UsageHistoryDimension)}
          allowDeselect={false}
          w={200}
          data-testid="history-by"
        />
        <SegmentedControl
          data={PERIOD_CHOICES.map((p) => ({ value: p, label: t(`history.period.${p}`) }))}
          value={period}
          onChange={(v) => setPeriod(v as HistoryPeriod)}
          data-testid="history-period"
        />
      </Group>
      <QueryState fetching={h.fetching} error={h.error}>
        {history && (
          <Card withBorder>
            <Text size="xs" c="dimmed" mb="sm">
              {formatDateTime(history.since, language)} – {formatDateTime(history.until, language)} ·{" "}
              {t("history.step", { step: formatUnit(periodUnit(history.stepSeconds).value, periodUnit(history.stepSeconds).unit, language) })}
            </Text>
            {history.series.length === 0 ? (
              <Empty>{t("history.none")}</Empty>
            ) : (
              <Stack>
                <Suspense fallback={<Loader size="sm" />}>
                  <Title order={5}>{t("history.allocation")}</Title>
                  <HistoryChart times={cards.times} rows={cards.rows} unit={t("history.cards")} testId="history-allocation-chart" />
                  <Title order={5}>{t("history.utilisation")}</Title>
                  <HistoryChart times={util.times} rows={util.rows} unit="%" max={100} testId="history-utilisation-chart" />
                </Suspense>
                <Table fz="sm" data-testid="history-table">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t(`history.by.${by}`)}</Table.Th>
                      <Table.Th ta="right">{t("history.meanCards")}</Table.Th>
                      <Table.Th ta="right">{t("history.meanUtil")}</Table.Th>
                      <Table.Th ta="right">{t("history.noData")}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {history.series.map((s) => {
                      const sum = seriesSummary(s.points);
                      return (
                        <Table.Tr key={s.key}>
                          <Table.Td translate="no">{s.name}</Table.Td>
                          <Table.Td ta="right" ff="monospace">
                            {sum.cards.toLocaleString(locale(language), { maximumFractionDigits: 2 })}
                          </Table.Td>
                          <Table.Td ta="right" ff="monospace">
                            {percent(sum.util)}
                          </Table.Td>
                          <Table.Td ta="right" ff="monospace">
                            {formatUnit(sum.noData, "minute", language)}
                          </Table.Td>
                        </Table.Tr>
                      );
                    })}
                  </Table.Tbody>
                </Table>
              </Stack>
            )}
          </Card>
        )}
      </QueryState>
      <Card withBorder>
        <Group justify="space-between" align="flex-end" mb="sm">
          <Stack gap={0}>
            <Title order={4}>{t("idle.title")}</Title>
            <Text size="xs" c="dimmed">
              {t("idle.description", { percent: report ? report.belowPercent : 5 })}
            </Text>
          </Stack>
          <Select
            label={t("idle.by")}
            data={IDLE_DIMENSIONS.map((d) => ({ value: d, label: t(`idle.by.${d}`) }))}
            value={idleBy}
            onChange={(v) => v && setIdleBy(v as IdleCreditsDimension)}
            allowDeselect={false}
            w={180}
            data-testid="idle-by"
          />
        </Group>
        <QueryState fetching={idle.fetching} error={idle.error}>
          {report &&
            (report.rows.length === 0 ? (
              <Empty>{t("idle.none")}</Empty>
            ) : (
              <Table fz="sm" data-testid="idle-table">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t(`idle.by.${idleBy}`)}</Table.Th>
                    <Table.Th ta="right">{t("idle.idleCharged")}</Table.Th>
                    <Table.Th ta="right">{t("idle.charged")}</Table.Th>
                    <Table.Th ta="right">{t("idle.idleMinutes")}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {report.rows.map((r) => (
                    <Table.Tr key={r.id}>
                      <Table.Td translate="no">{r.name ?? "—"}</Table.Td>
                      <Table.Td ta="right" ff="monospace">
                        {formatCredits(r.idleCharged.credits, language)}
                      </Table.Td>
                      <Table.Td ta="right" ff="monospace">
                        {formatCredits(r.charged.credits, language)}
                      </Table.Td>
                      <Table.Td ta="right" ff="monospace">
                        {t("idle.minutesOf", {
                          idle: formatUnit(r.idleMinutes, "minute", language),
                          all: formatUnit(r.minutes, "minute", language),
                        })}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            ))}
        </QueryState>
      </Card>
    </Stack>
  );
}

import { useState } from "react";
import { Button, Card, Group, Progress, Select, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { useQuery } from "urql";
import { graphql } from "../../gql";
import type { ScopeKind } from "../../gql/graphql";
import { useLanguage } from "../../i18n";
import { formatCredits } from "../../common/format";
import { Empty, PageHeader, QueryState } from "../../common/ui";
import { ScopePicker, type ScopeValue } from "../../common/ScopePicker";
import { downloadCsv, toCsv } from "../../common/csv";

const UsageDocument = graphql(`
  query UsageByScope($scope: ScopeInput!, $since: DateTime, $until: DateTime, $by: ScopeKind) {
    usageByScope(scope: $scope, since: $since, until: $until, by: $by) {
      since
      until
      scope {
        kind
        name
      }
      spent {
        micro
        credits
      }
      breakdown {
        scope {
          kind
          id
          name
        }
        spent {
          micro
          credits
        }
      }
    }
  }
`);

const toIso = (local: string) => (local ? new Date(local).toISOString() : null);

/** Credits spent by an organisation, group or user over a period, split by group or user,
 * as bars and as CSV. */
export default function UsagePage() {
  const { t, language } = useLanguage();
  const [scope, setScope] = useState<ScopeValue>({ kind: "ORGANIZATION", id: null });
  const [by, setBy] = useState<ScopeKind | null>("GROUP");
  const [since, setSince] = useState("");
  const [until, setUntil] = useState("");
  const [r] = useQuery({
    query: UsageDocument,
    variables: { scope: { kind: scope.kind, id: scope.id }, since: toIso(since), until: toIso(until), by },
    pause: !scope.id,
  });
  const u = r.data?.usageByScope;
  const max = u ? u.breakdown.reduce((m, x) => (BigInt(x.spent.micro) > m ? BigInt(x.spent.micro) : m), 0n) : 0n;
  return (
    <Stack>
      <PageHeader title={t("nav.usage")} description={t("usage.description")} />
      <Group align="flex-end">
        <ScopePicker value={scope} onChange={setScope} kinds={["ORGANIZATION", "GROUP", "USER"]} />
        <Select
          label={t("usage.by")}
          data={[
            { value: "GROUP", label: t("scope.GROUP") },
            { value: "USER", label: t("scope.USER") },
          ]}
          value={by}
          onChange={(v) => setBy(v as ScopeKind | null)}
          clearable
          w={140}
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
                    {new Date(u.since).toLocaleString()} – {new Date(u.until).toLocaleString()}
                  </Text>
                </Stack>
                <Button
                  variant="default"
                  onClick={() =>
                    downloadCsv(
                      `usage-${u.scope.name}.csv`,
                      toCsv([["scope_kind", "scope", "since", "until", "spent_credits"], ...u.breakdown.map((x) => [x.scope.kind, x.scope.name, u.since, u.until, x.spent.credits]), [u.scope.kind, u.scope.name, u.since, u.until, u.spent.credits]]),
                    )
                  }
                >
                  {t("ledger.csv")}
                </Button>
              </Group>
              {u.breakdown.length === 0 ? (
                <Empty>{t("usage.none")}</Empty>
              ) : (
                <Table fz="sm">
                  <Table.Tbody>
                    {u.breakdown.map((x) => (
                      <Table.Tr key={`${x.scope.kind}:${x.scope.id}`}>
                        <Table.Td w="30%">{x.scope.name}</Table.Td>
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
              )}
            </Card>
          )}
        </QueryState>
      )}
    </Stack>
  );
}

import { useState } from "react";
import { Badge, Button, Group, Modal, MultiSelect, Progress, Select, Stack, Table, Text, TextInput } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../../gql";
import type { BudgetAction, BudgetPeriod } from "../../gql/graphql";
import { useLanguage } from "../../i18n";
import { useFieldErrors } from "../../common/errors";
import { creditsToMicro, formatCredits, formatDateTime, microToCredits } from "../../common/format";
import { Empty, FormActions, GeneralErrors, QueryState } from "../../common/ui";
import { ScopePicker, type ScopeValue } from "../../common/ScopePicker";

const BudgetsDocument = graphql(`
  query Budgets($scope: ScopeInput!) {
    budgets(scope: $scope) {
      id
      action
      period
      alertThresholds
      updatedAt
      limit {
        micro
        credits
      }
      status {
        periodStart
        periodEnd
        spent {
          credits
        }
        percentUsed
        exceeded
        crossedThresholds
      }
    }
  }
`);

const BudgetSetDocument = graphql(`
  mutation BudgetSet($input: BudgetSetInput!) {
    budgetSet(input: $input) {
      budget {
        id
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

const BudgetDeleteDocument = graphql(`
  mutation BudgetDelete($input: IdInput!) {
    budgetDelete(input: $input) {
      deletedId
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

const PERIODS: BudgetPeriod[] = ["MONTHLY", "WEEKLY", "DAILY"];
const ACTIONS: BudgetAction[] = ["WARN", "BLOCK"];

export function BudgetsPanel() {
  const { t, language } = useLanguage();
  const [scope, setScope] = useState<ScopeValue>({ kind: "ORGANIZATION", id: null });
  const [r, refetch] = useQuery({ query: BudgetsDocument, variables: { scope: { kind: scope.kind, id: scope.id } }, pause: !scope.id });
  const [editing, setEditing] = useState<{ limit: string; action: BudgetAction; period: BudgetPeriod; thresholds: string[] } | null>(null);
  const [local, setLocal] = useState<string | undefined>();
  const [{ fetching }, set] = useMutation(BudgetSetDocument);
  const [, del] = useMutation(BudgetDeleteDocument);
  const errors = useFieldErrors(["limitMicro", "action", "period", "alertThresholds"]);
  const listErrors = useFieldErrors([]);
  const reload = () => refetch({ requestPolicy: "network-only" });
  const budgets = r.data?.budgets ?? [];

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!editing || !scope.id) return;
    const micro = creditsToMicro(editing.limit);
    if (micro === null) {
      setLocal(t(editing.limit.trim() ? "validation.credits" : "validation.required"));
      return;
    }
    setLocal(undefined);
    const res = await set({
      input: { scope: { kind: scope.kind, id: scope.id }, limitMicro: micro.toString(), action: editing.action, period: editing.period, alertThresholds: editing.thresholds.map(Number).sort((a, b) => a - b) },
    });
    if (errors.take(res, (d) => d.budgetSet)) {
      setEditing(null);
      reload();
    }
  };

  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <ScopePicker value={scope} onChange={setScope} kinds={["ORGANIZATION", "GROUP", "USER"]} />
        <Button
          disabled={!scope.id}
          onClick={() => {
            errors.clear();
            setLocal(undefined);
            setEditing({ limit: "", action: "WARN", period: "MONTHLY", thresholds: ["50", "80", "100"] });
          }}
        >
          {t("budgets.set")}
        </Button>
      </Group>
      <GeneralErrors messages={listErrors.general} />
      {!scope.id ? (
        <Empty>{t("budgets.pickScope")}</Empty>
      ) : (
        <QueryState fetching={r.fetching} error={r.error}>
          {r.data && budgets.length === 0 && <Empty>{t("budgets.none")}</Empty>}
          {budgets.length > 0 && (
            <Table withTableBorder>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t("budgets.period")}</Table.Th>
                  <Table.Th>{t("budgets.limit")}</Table.Th>
                  <Table.Th>{t("budgets.spent")}</Table.Th>
                  <Table.Th>{t("budgets.action")}</Table.Th>
                  <Table.Th>{t("budgets.thresholds")}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {budgets.map((b) => {
                  const pct = b.status.percentUsed ?? 0;
                  return (
                    <Table.Tr key={b.id}>
                      <Table.Td>
                        {t(`period.${b.period}`)}
                        <Text size="xs" c="dimmed">
                          {formatDateTime(b.status.periodStart, language)} – {formatDateTime(b.status.periodEnd, language)}
                        </Text>
                      </Table.Td>
                      <Table.Td>{formatCredits(b.limit.credits, language)}</Table.Td>
                      <Table.Td miw={160}>
                        <Text size="sm">
                          {formatCredits(b.status.spent.credits, language)} ({pct.toFixed(0)} %)
                        </Text>
                        <Progress value={Math.min(100, pct)} color={b.status.exceeded ? "red" : pct >= 80 ? "orange" : "teal"} size="sm" />
                      </Table.Td>
                      <Table.Td>
                        <Badge color={b.action === "BLOCK" ? "red" : "yellow"}>{t(`budgetAction.${b.action}`)}</Badge>
                      </Table.Td>
                      <Table.Td>{b.alertThresholds.map((x) => `${x} %`).join(", ")}</Table.Td>
                      <Table.Td>
                        <Group gap={4} wrap="nowrap">
                          <Button size="xs" variant="default" onClick={() => setEditing({ limit: microToCredits(b.limit.micro), action: b.action, period: b.period, thresholds: b.alertThresholds.map(String) })}>
                            {t("common.edit")}
                          </Button>
                          <Button
                            size="xs"
                            color="red"
                            variant="light"
                            onClick={async () => {
                              if (listErrors.take(await del({ input: { id: b.id } }), (d) => d.budgetDelete)) reload();
                            }}
                          >
                            {t("common.delete")}
                          </Button>
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          )}
        </QueryState>
      )}
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={t("budgets.set")}>
        {editing && (
          <form onSubmit={save} noValidate>
            <Stack>
              <TextInput label={t("budgets.limit")} description={t("credits.amountHint")} value={editing.limit} onChange={(e) => setEditing({ ...editing, limit: e.currentTarget.value })} error={local ?? errors.field("limitMicro")} />
              <Select label={t("budgets.period")} data={PERIODS.map((p) => ({ value: p, label: t(`period.${p}`) }))} value={editing.period} onChange={(v) => setEditing({ ...editing, period: (v as BudgetPeriod) ?? "MONTHLY" })} allowDeselect={false} error={errors.field("period")} />
              <Select label={t("budgets.action")} description={t("budgets.actionHint")} data={ACTIONS.map((a) => ({ value: a, label: t(`budgetAction.${a}`) }))} value={editing.action} onChange={(v) => setEditing({ ...editing, action: (v as BudgetAction) ?? "WARN" })} allowDeselect={false} error={errors.field("action")} />
              <MultiSelect label={t("budgets.thresholds")} data={["25", "50", "75", "80", "90", "100"]} value={editing.thresholds} onChange={(v) => setEditing({ ...editing, thresholds: v })} error={errors.field("alertThresholds")} />
              <GeneralErrors messages={errors.general} />
              <FormActions onCancel={() => setEditing(null)} saving={fetching} />
            </Stack>
          </form>
        )}
      </Modal>
    </Stack>
  );
}

import { useState } from "react";
import { Badge, Button, Group, Modal, NumberInput, Select, Stack, Switch, Table, Text, TextInput } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../../gql";
import type { AccountFieldsFragment, RefillCadence, RefillMode } from "../../gql/graphql";
import { useLanguage } from "../../i18n";
import { useFieldErrors } from "../../common/errors";
import { creditsToMicro, formatCredits, formatDateTime } from "../../common/format";
import { Pager, useCursorPages } from "../../common/pagination";
import { Empty, FormActions, GeneralErrors, QueryState } from "../../common/ui";

const RefillSchedulesDocument = graphql(`
  query RefillSchedules($source: AccountInput, $first: Int, $after: String) {
    refillSchedules(source: $source, first: $first, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        id
        mode
        cadence
        anchorDay
        active
        memo
        lastPeriodStart
        membersOfGroupId
        amount {
          credits
        }
        source {
          name
        }
        target {
          name
        }
      }
    }
  }
`);

const RefillCreateDocument = graphql(`
  mutation RefillScheduleCreate($input: RefillScheduleCreateInput!) {
    refillScheduleCreate(input: $input) {
      refillSchedule {
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

const RefillSetActiveDocument = graphql(`
  mutation RefillScheduleSetActive($input: RefillScheduleSetActiveInput!) {
    refillScheduleSetActive(input: $input) {
      refillSchedule {
        id
        active
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

const CADENCES: RefillCadence[] = ["MONTHLY", "WEEKLY", "DAILY"];
const MODES: RefillMode[] = ["GRANT", "TOP_UP"];

/** Refill schedules from one account: credits flowing one level down every day/week/month. */
export function RefillsPanel({ source, children }: { source: AccountFieldsFragment; children: AccountFieldsFragment[] }) {
  const { t, language } = useLanguage();
  const pages = useCursorPages(10, source.id);
  const [r, refetch] = useQuery({ query: RefillSchedulesDocument, variables: { source: { id: source.id }, ...pages.variables } });
  const [editing, setEditing] = useState<{ target: string | null; mode: RefillMode; cadence: RefillCadence; anchorDay: string; amount: string; memo: string } | null>(null);
  const [local, setLocal] = useState<string | undefined>();
  const [{ fetching }, create] = useMutation(RefillCreateDocument);
  const [, setActive] = useMutation(RefillSetActiveDocument);
  const errors = useFieldErrors(["target.id", "membersOfGroupId", "mode", "cadence", "anchorDay", "amountMicro", "memo"]);
  const listErrors = useFieldErrors([]);
  const conn = r.data?.refillSchedules;
  const reload = () => refetch({ requestPolicy: "network-only" });
  const MEMBERS = "__members__";

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!editing) return;
    const micro = creditsToMicro(editing.amount);
    if (micro === null || micro <= 0n) {
      setLocal(t(editing.amount.trim() ? "validation.credits" : "validation.required"));
      return;
    }
    setLocal(undefined);
    const members = editing.target === MEMBERS;
    const res = await create({
      input: {
        source: { id: source.id },
        target: !members && editing.target ? { id: editing.target } : null,
        membersOfGroupId: members ? source.ownerId : null,
        mode: editing.mode,
        cadence: editing.cadence,
        anchorDay: Number(editing.anchorDay),
        amountMicro: micro.toString(),
        memo: editing.memo,
      },
    });
    if (errors.take(res, (d) => d.refillScheduleCreate)) {
      setEditing(null);
      reload();
    }
  };

  const targets = [
    ...(source.kind === "GROUP" ? [{ value: MEMBERS, label: t("credits.everyMember") }] : []),
    ...children.map((c) => ({ value: c.id, label: c.name })),
  ];
  return (
    <Stack>
      <Group justify="space-between">
        <Text fw={600}>{t("refills.title", { source: source.name })}</Text>
        <Button
          size="xs"
          variant="light"
          onClick={() => {
            errors.clear();
            setLocal(undefined);
            setEditing({ target: targets[0]?.value ?? null, mode: "GRANT", cadence: "MONTHLY", anchorDay: "1", amount: "", memo: "" });
          }}
        >
          {t("refills.add")}
        </Button>
      </Group>
      <GeneralErrors messages={listErrors.general} />
      <QueryState fetching={r.fetching} error={r.error}>
        {conn && conn.nodes.length === 0 && <Empty>{t("refills.none")}</Empty>}
        {conn && conn.nodes.length > 0 && (
          <Table withTableBorder fz="sm">
            <Table.Tbody>
              {conn.nodes.map((x) => (
                <Table.Tr key={x.id}>
                  <Table.Td>{x.target?.name ?? t("credits.everyMember")}</Table.Td>
                  <Table.Td>
                    {t(`refillMode.${x.mode}`)} {formatCredits(x.amount.credits, language)}
                  </Table.Td>
                  <Table.Td>
                    {t(`period.${x.cadence}`)} · {t("refills.anchorDay")} {x.anchorDay}
                  </Table.Td>
                  <Table.Td>{formatDateTime(x.lastPeriodStart, language)}</Table.Td>
                  <Table.Td>
                    <Switch
                      checked={x.active}
                      label={x.active ? <Badge color="teal">{t("refills.active")}</Badge> : <Badge color="gray">{t("refills.paused")}</Badge>}
                      onChange={async (e) => {
                        if (listErrors.take(await setActive({ input: { id: x.id, active: e.currentTarget.checked } }), (d) => d.refillScheduleSetActive)) reload();
                      }}
                    />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {conn && conn.totalCount > 10 && <Pager pages={pages} pageInfo={conn.pageInfo} totalCount={conn.totalCount} fetching={r.fetching} />}
      </QueryState>
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={t("refills.add")}>
        {editing && (
          <form onSubmit={save} noValidate>
            <Stack>
              <Select label={t("refills.target")} data={targets} value={editing.target} onChange={(v) => setEditing({ ...editing, target: v })} allowDeselect={false} error={errors.field("target.id") ?? errors.field("membersOfGroupId")} />
              <Select label={t("refills.mode")} description={t("refills.modeHint")} data={MODES.map((m) => ({ value: m, label: t(`refillMode.${m}`) }))} value={editing.mode} onChange={(v) => setEditing({ ...editing, mode: (v as RefillMode) ?? "GRANT" })} allowDeselect={false} error={errors.field("mode")} />
              <TextInput label={t("credits.amount")} description={t("credits.amountHint")} value={editing.amount} onChange={(e) => setEditing({ ...editing, amount: e.currentTarget.value })} error={local ?? errors.field("amountMicro")} />
              <Group grow>
                <Select label={t("refills.cadence")} data={CADENCES.map((c) => ({ value: c, label: t(`period.${c}`) }))} value={editing.cadence} onChange={(v) => setEditing({ ...editing, cadence: (v as RefillCadence) ?? "MONTHLY" })} allowDeselect={false} error={errors.field("cadence")} />
                <NumberInput label={t("refills.anchorDay")} value={editing.anchorDay} min={1} max={28} onChange={(v) => setEditing({ ...editing, anchorDay: String(v) })} error={errors.field("anchorDay")} />
              </Group>
              <TextInput label={t("ledger.memo")} value={editing.memo} onChange={(e) => setEditing({ ...editing, memo: e.currentTarget.value })} error={errors.field("memo")} />
              <GeneralErrors messages={errors.general} />
              <FormActions onCancel={() => setEditing(null)} saving={fetching} />
            </Stack>
          </form>
        )}
      </Modal>
    </Stack>
  );
}

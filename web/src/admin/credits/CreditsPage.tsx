import { useState } from "react";
import { Anchor, Badge, Breadcrumbs, Button, Card, Group, Modal, Stack, Table, Text, TextInput } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../../gql";
import type { AccountFieldsFragment, AccountKind } from "../../gql/graphql";
import { useLanguage } from "../../i18n";
import { useFieldErrors } from "../../common/errors";
import { creditsToMicro, formatCredits } from "../../common/format";
import { Pager, useCursorPages } from "../../common/pagination";
import { Empty, GeneralErrors, PageHeader, QueryState } from "../../common/ui";
import { LedgerTable } from "../../credits/LedgerTable";
import { childKind, type Level } from "./levels";
import { RefillsPanel } from "./RefillsPanel";
import { usePolling } from "../../common/live";

const AccountsDocument = graphql(`
  query Accounts($organizationId: ID, $groupId: ID, $first: Int, $after: String) {
    accounts(organizationId: $organizationId, groupId: $groupId, first: $first, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        ...AccountFields
      }
    }
  }
`);

const CreditsAllocateDocument = graphql(`
  mutation CreditsAllocate($input: CreditsAllocateInput!) {
    creditsAllocate(input: $input) {
      replayed
      transfer {
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

const CreditsTakeBackDocument = graphql(`
  mutation CreditsTakeBack($input: CreditsTakeBackInput!) {
    creditsTakeBack(input: $input) {
      replayed
      transfer {
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

const CreditsBulkDocument = graphql(`
  mutation CreditsAllocateToGroupMembers($input: CreditsAllocateToGroupMembersInput!) {
    creditsAllocateToGroupMembers(input: $input) {
      replayed
      transfers {
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

type Action = { mode: "allocate" | "takeBack" | "bulk"; parent: AccountFieldsFragment; child?: AccountFieldsFragment; key: string };

function TransferForm({ action, onDone, onCancel }: { action: Action; onDone(): void; onCancel(): void }) {
  const { t } = useLanguage();
  const [amount, setAmount] = useState("");
  const [memo, setMemo] = useState("");
  const [local, setLocal] = useState<string | undefined>();
  const [{ fetching: a }, allocate] = useMutation(CreditsAllocateDocument);
  const [{ fetching: b }, takeBack] = useMutation(CreditsTakeBackDocument);
  const [{ fetching: c }, bulk] = useMutation(CreditsBulkDocument);
  const errors = useFieldErrors(["amountMicro", "memo"]);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const micro = creditsToMicro(amount);
    if (micro === null || micro <= 0n) {
      setLocal(t(amount.trim() ? "validation.credits" : "validation.required"));
      return;
    }
    setLocal(undefined);
    const amountMicro = micro.toString();
    let ok: boolean;
    if (action.mode === "bulk") {
      ok = errors.take(await bulk({ input: { groupId: action.parent.ownerId!, amountMicro, memo, idempotencyKey: action.key } }), (d) => d.creditsAllocateToGroupMembers);
    } else if (action.mode === "allocate") {
      ok = errors.take(
        await allocate({ input: { source: { id: action.parent.id }, destination: { id: action.child!.id }, amountMicro, memo, idempotencyKey: action.key } }),
        (d) => d.creditsAllocate,
      );
    } else {
      ok = errors.take(
        await takeBack({ input: { source: { id: action.child!.id }, destination: { id: action.parent.id }, amountMicro, memo, idempotencyKey: action.key } }),
        (d) => d.creditsTakeBack,
      );
    }
    if (ok) onDone();
  };
  const from = action.mode === "takeBack" ? action.child!.name : action.parent.name;
  const to = action.mode === "bulk" ? t("credits.everyMember") : action.mode === "takeBack" ? action.parent.name : action.child!.name;
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Text size="sm">{t("credits.fromTo", { from, to })}</Text>
        <TextInput label={t("credits.amount")} name="amount" description={t("credits.amountHint")} value={amount} onChange={(e) => setAmount(e.currentTarget.value)} error={local ?? errors.field("amountMicro")} data-autofocus />
        <TextInput label={t("ledger.memo")} value={memo} onChange={(e) => setMemo(e.currentTarget.value)} error={errors.field("memo")} />
        <GeneralErrors messages={errors.general} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t("common.cancel")}
          </Button>
          <Button type="submit" loading={a || b || c} data-testid="transfer-submit">
            {t(action.mode === "takeBack" ? "credits.takeBack" : "credits.allocate")}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

const PARENT_KIND: Record<Level["kind"], AccountKind> = { top: "SYSTEM", organization: "ORGANIZATION", group: "GROUP" };

export default function CreditsPage() {
  const { t, language } = useLanguage();
  const [trail, setTrail] = useState<Level[]>([{ kind: "top", name: t("credits.top") }]);
  const level = trail[trail.length - 1];
  const pages = useCursorPages(undefined, JSON.stringify(level));
  const [r, refetch] = useQuery({
    query: AccountsDocument,
    variables: { organizationId: level.kind === "organization" ? level.id : null, groupId: level.kind === "group" ? level.id : null, ...pages.variables },
  });
  usePolling(refetch);
  const [action, setAction] = useState<Action | null>(null);
  const [history, setHistory] = useState<AccountFieldsFragment | null>(null);
  const conn = r.data?.accounts;
  const parent = conn?.nodes.find((a) => a.kind === PARENT_KIND[level.kind]) ?? null;
  const kid = childKind(level.kind);
  const open = (mode: Action["mode"], child?: AccountFieldsFragment) => parent && setAction({ mode, parent, child, key: crypto.randomUUID() });

  return (
    <Stack>
      <PageHeader title={t("nav.credits")} description={t("credits.description")} />
      <Breadcrumbs>
        {trail.map((l, i) => (
          <Anchor key={i} component="button" onClick={() => setTrail(trail.slice(0, i + 1))}>
            {l.name}
          </Anchor>
        ))}
      </Breadcrumbs>
      {level.kind === "group" && parent && (
        <Group>
          <Button variant="light" onClick={() => open("bulk")} data-testid="credits-bulk">
            {t("credits.giveEveryMember")}
          </Button>
        </Group>
      )}
      <QueryState fetching={r.fetching} error={r.error}>
        {conn && conn.nodes.length === 0 && <Empty>{t("credits.none")}</Empty>}
        {conn && conn.nodes.length > 0 && (
          <Table striped withTableBorder data-testid="accounts-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("credits.account")}</Table.Th>
                <Table.Th ta="right">{t("wallet.balance")}</Table.Th>
                <Table.Th ta="right">{t("wallet.held")}</Table.Th>
                <Table.Th ta="right">{t("wallet.available")}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {conn.nodes.map((a) => {
                const drill: Level | null =
                  a.kind === "ORGANIZATION" && level.kind !== "organization" && a.ownerId
                    ? { kind: "organization", id: a.ownerId, name: a.name }
                    : a.kind === "GROUP" && level.kind !== "group" && a.ownerId
                      ? { kind: "group", id: a.ownerId, name: a.name }
                      : null;
                const isChild = parent !== null && a.kind === kid;
                return (
                  <Table.Tr key={a.id}>
                    <Table.Td>
                      {drill ? (
                        <Anchor component="button" onClick={() => setTrail([...trail, drill])}>
                          {a.name}
                        </Anchor>
                      ) : (
                        a.name
                      )}
                      <Badge ml="xs" size="xs" variant="light">
                        {t(`accountKind.${a.kind}`)}
                      </Badge>
                    </Table.Td>
                    <Table.Td ta="right" ff="monospace">
                      {formatCredits(a.balance.credits, language)}
                    </Table.Td>
                    <Table.Td ta="right" ff="monospace">
                      {formatCredits(a.held.credits, language)}
                    </Table.Td>
                    <Table.Td ta="right" ff="monospace">
                      {formatCredits(a.available.credits, language)}
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4} wrap="nowrap" justify="flex-end">
                        {isChild && (
                          <>
                            <Button size="xs" onClick={() => open("allocate", a)} data-testid={`allocate-${a.name}`}>
                              {t("credits.allocate")}
                            </Button>
                            <Button size="xs" variant="default" onClick={() => open("takeBack", a)}>
                              {t("credits.takeBack")}
                            </Button>
                          </>
                        )}
                        <Button size="xs" variant="subtle" onClick={() => setHistory(a)}>
                          {t("wallet.history")}
                        </Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        )}
        <Pager pages={pages} pageInfo={conn?.pageInfo} totalCount={conn?.totalCount} fetching={r.fetching} />
      </QueryState>
      {parent && conn && (
        <Card withBorder>
          <RefillsPanel source={parent} children={conn.nodes.filter((a) => a.kind === kid)} />
        </Card>
      )}
      <Modal opened={action !== null} onClose={() => setAction(null)} title={action ? t(action.mode === "takeBack" ? "credits.takeBack" : action.mode === "bulk" ? "credits.giveEveryMember" : "credits.allocate") : ""}>
        {action && (
          <TransferForm
            action={action}
            onCancel={() => setAction(null)}
            onDone={() => {
              setAction(null);
              refetch({ requestPolicy: "network-only" });
            }}
          />
        )}
      </Modal>
      <Modal opened={history !== null} onClose={() => setHistory(null)} title={history?.name} size="90%">
        {history && <LedgerTable accountId={history.id} />}
      </Modal>
    </Stack>
  );
}

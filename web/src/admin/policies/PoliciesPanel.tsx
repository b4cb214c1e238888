import { useState } from "react";
import { Badge, Button, Card, Group, Modal, Select, SimpleGrid, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../../gql";
import { useLanguage } from "../../i18n";
import { useFieldErrors } from "../../common/errors";
import { formatMib } from "../../common/format";
import { Pager, useCursorPages } from "../../common/pagination";
import { Empty, FormActions, GeneralErrors, QueryState } from "../../common/ui";
import { ScopePicker, type ScopeValue } from "../../common/ScopePicker";
import { EMPTY_POLICY, policyInput, validatePolicy, type PolicyDraft } from "./policyForm";

const PoliciesDocument = graphql(`
  query Policies($first: Int, $after: String) {
    policies(first: $first, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        id
        scope {
          kind
          id
          name
        }
        maxConcurrentSessions
        maxGpus
        modelCaps {
          model
          cards
        }
        maxVramMib
        maxCpuMillicores
        maxMemoryMib
        storageQuotaMib
        idleTimeoutSeconds
        maxSessionSeconds
        approvalRequired
        defaultPriority
        preemptible
        allowedClusters
      }
    }
  }
`);

const PolicySetDocument = graphql(`
  mutation PolicySet($input: PolicySetInput!) {
    policySet(input: $input) {
      policy {
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

const PolicyDeleteDocument = graphql(`
  mutation PolicyDelete($input: PolicyDeleteInput!) {
    policyDelete(input: $input) {
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

const EffectivePolicyDocument = graphql(`
  query EffectivePolicy($userId: ID) {
    effectivePolicy(userId: $userId) {
      chain {
        kind
        name
      }
      idleTimeoutSeconds {
        value
        source {
          kind
          name
        }
      }
      maxSessionSeconds {
        value
        source {
          kind
          name
        }
      }
      defaultPriority {
        value
        source {
          kind
          name
        }
      }
      approvalRequired {
        value
        source {
          kind
          name
        }
      }
      preemptible {
        value
        source {
          kind
          name
        }
      }
      limits {
        field
        value
        model
        scope {
          kind
          name
        }
      }
      allowedClusters
    }
  }
`);

const FIELDS: (keyof PolicyDraft)[] = ["maxConcurrentSessions", "maxGpus", "modelCaps", "maxVramMib", "maxCpuCores", "maxMemoryMib", "storageQuotaMib", "idleTimeoutMinutes", "maxSessionHours", "defaultPriority"];
const SERVER_FIELD: Record<string, string> = { maxCpuCores: "maxCpuMillicores", idleTimeoutMinutes: "idleTimeoutSeconds", maxSessionHours: "maxSessionSeconds" };

function scopeLabel(t: ReturnType<typeof useLanguage>["t"], s: { kind: "GLOBAL" | "ORGANIZATION" | "GROUP" | "USER"; name?: string | null }) {
  return s.kind === "GLOBAL" ? t("scope.GLOBAL") : `${t(`scope.${s.kind}`)} · ${s.name ?? ""}`;
}

function Effective() {
  const { t } = useLanguage();
  const [who, setWho] = useState<ScopeValue>({ kind: "USER", id: null });
  const [r] = useQuery({ query: EffectivePolicyDocument, variables: { userId: who.id }, pause: !who.id });
  const e = r.data?.effectivePolicy;
  const row = (label: string, value: string, source: { kind: "GLOBAL" | "ORGANIZATION" | "GROUP" | "USER"; name?: string | null } | null | undefined) => (
    <Table.Tr key={label}>
      <Table.Td>{label}</Table.Td>
      <Table.Td>{value}</Table.Td>
      <Table.Td>{source ? <Badge variant="light">{scopeLabel(t, source)}</Badge> : <Text size="xs" c="dimmed">{t("policies.default")}</Text>}</Table.Td>
    </Table.Tr>
  );
  const secs = (v: number | null | undefined, unit: number, suffix: string) => (v == null ? "—" : `${+(v / unit).toFixed(2)} ${suffix}`);
  return (
    <Card withBorder>
      <Title order={5} mb="xs">
        {t("policies.effective")}
      </Title>
      <ScopePicker value={who} onChange={setWho} kinds={["USER"]} />
      <QueryState fetching={r.fetching} error={r.error}>
        {e && (
          <Stack mt="sm">
            <Text size="sm" c="dimmed">
              {t("policies.chain")}: {e.chain.map((s) => scopeLabel(t, s)).join(" → ")}
            </Text>
            <Table withTableBorder fz="sm" data-testid="effective-policy">
              <Table.Tbody>
                {row(t("policies.idleTimeoutMinutes"), secs(e.idleTimeoutSeconds.value, 60, "min"), e.idleTimeoutSeconds.source)}
                {row(t("policies.maxSessionHours"), secs(e.maxSessionSeconds.value, 3600, "h"), e.maxSessionSeconds.source)}
                {row(t("policies.defaultPriority"), String(e.defaultPriority.value ?? "—"), e.defaultPriority.source)}
                {row(t("policies.approvalRequired"), e.approvalRequired.value ? t("common.yes") : t("common.no"), e.approvalRequired.source)}
                {row(t("policies.preemptible"), e.preemptible.value ? t("common.yes") : t("common.no"), e.preemptible.source)}
                {e.limits.map((l) => row(`${l.field}${l.model ? ` (${l.model})` : ""}`, l.value, l.scope))}
              </Table.Tbody>
            </Table>
          </Stack>
        )}
      </QueryState>
    </Card>
  );
}

export function PoliciesPanel() {
  const { t } = useLanguage();
  const pages = useCursorPages();
  const [r, refetch] = useQuery({ query: PoliciesDocument, variables: pages.variables });
  const [editing, setEditing] = useState<{ scope: ScopeValue; draft: PolicyDraft } | null>(null);
  const [local, setLocal] = useState<Record<string, string>>({});
  const [{ fetching }, set] = useMutation(PolicySetDocument);
  const [, del] = useMutation(PolicyDeleteDocument);
  const errors = useFieldErrors([...Object.values(SERVER_FIELD), ...FIELDS, "approvalRequired", "preemptible", "scope.id"]);
  const listErrors = useFieldErrors([]);
  const conn = r.data?.policies;
  const reload = () => refetch({ requestPolicy: "network-only" });
  const err = (f: keyof PolicyDraft) => local[f] ?? errors.field(SERVER_FIELD[f] ?? f);

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!editing) return;
    const p = validatePolicy(editing.draft);
    setLocal(Object.fromEntries(Object.entries(p).map(([k, v]) => [k, t(`validation.${v}`)])));
    if (Object.keys(p).length) return;
    const res = await set({ input: { scope: { kind: editing.scope.kind, id: editing.scope.id }, ...policyInput(editing.draft) } });
    if (errors.take(res, (d) => d.policySet)) {
      setEditing(null);
      reload();
    }
  };

  const D = editing?.draft;
  const text = (f: keyof PolicyDraft, label: string) =>
    D && <TextInput key={f} label={label} value={D[f]} onChange={(e) => setEditing({ ...editing!, draft: { ...D, [f]: e.currentTarget.value } })} error={err(f)} />;
  const tri = (f: "approvalRequired" | "preemptible", label: string) =>
    D && (
      <Select
        key={f}
        label={label}
        data={[
          { value: "", label: t("policies.inherit") },
          { value: "true", label: t("common.yes") },
          { value: "false", label: t("common.no") },
        ]}
        value={D[f]}
        onChange={(v) => setEditing({ ...editing!, draft: { ...D, [f]: (v ?? "") as "" | "true" | "false" } })}
        allowDeselect={false}
        error={errors.field(f)}
      />
    );

  return (
    <Stack>
      <Group justify="flex-end">
        <Button
          onClick={() => {
            errors.clear();
            setLocal({});
            setEditing({ scope: { kind: "GLOBAL", id: null }, draft: EMPTY_POLICY });
          }}
        >
          {t("policies.set")}
        </Button>
      </Group>
      <GeneralErrors messages={listErrors.general} />
      <QueryState fetching={r.fetching} error={r.error}>
        {conn && conn.nodes.length === 0 && <Empty>{t("policies.none")}</Empty>}
        {conn && conn.nodes.length > 0 && (
          <Table striped withTableBorder fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("scope.kind")}</Table.Th>
                <Table.Th>{t("policies.limits")}</Table.Th>
                <Table.Th>{t("policies.settings")}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {conn.nodes.map((p) => {
                const limits = [
                  p.maxConcurrentSessions != null && `${t("policies.maxConcurrentSessions")}: ${p.maxConcurrentSessions}`,
                  p.maxGpus && `${t("policies.maxGpus")}: ${p.maxGpus}`,
                  ...p.modelCaps.map((m) => `${m.model} × ${m.cards}`),
                  p.maxVramMib != null && `VRAM ${formatMib(p.maxVramMib)}`,
                  p.maxCpuMillicores != null && `CPU ${p.maxCpuMillicores / 1000}`,
                  p.maxMemoryMib != null && `${t("presets.memory")} ${formatMib(p.maxMemoryMib)}`,
                  p.storageQuotaMib != null && `${t("policies.storageQuotaMib")} ${formatMib(p.storageQuotaMib)}`,
                ].filter(Boolean);
                const settings = [
                  p.idleTimeoutSeconds != null && `${t("policies.idleTimeoutMinutes")}: ${p.idleTimeoutSeconds / 60}`,
                  p.maxSessionSeconds != null && `${t("policies.maxSessionHours")}: ${p.maxSessionSeconds / 3600}`,
                  p.defaultPriority != null && `${t("policies.defaultPriority")}: ${p.defaultPriority}`,
                  p.approvalRequired != null && `${t("policies.approvalRequired")}: ${p.approvalRequired ? t("common.yes") : t("common.no")}`,
                  p.preemptible != null && `${t("policies.preemptible")}: ${p.preemptible ? t("common.yes") : t("common.no")}`,
                ].filter(Boolean);
                return (
                  <Table.Tr key={p.id}>
                    <Table.Td>
                      <Badge variant="light">{scopeLabel(t, p.scope)}</Badge>
                    </Table.Td>
                    <Table.Td>{limits.join(" · ") || "—"}</Table.Td>
                    <Table.Td>{settings.join(" · ") || "—"}</Table.Td>
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        <Button
                          size="xs"
                          variant="default"
                          onClick={() => {
                            errors.clear();
                            setLocal({});
                            setEditing({
                              scope: { kind: p.scope.kind, id: p.scope.id ?? null },
                              draft: {
                                maxConcurrentSessions: p.maxConcurrentSessions?.toString() ?? "",
                                maxGpus: p.maxGpus ?? "",
                                modelCaps: p.modelCaps.map((m) => `${m.model}=${m.cards}`).join(", "),
                                maxVramMib: p.maxVramMib?.toString() ?? "",
                                maxCpuCores: p.maxCpuMillicores != null ? String(p.maxCpuMillicores / 1000) : "",
                                maxMemoryMib: p.maxMemoryMib?.toString() ?? "",
                                storageQuotaMib: p.storageQuotaMib?.toString() ?? "",
                                idleTimeoutMinutes: p.idleTimeoutSeconds != null ? String(p.idleTimeoutSeconds / 60) : "",
                                maxSessionHours: p.maxSessionSeconds != null ? String(p.maxSessionSeconds / 3600) : "",
                                defaultPriority: p.defaultPriority?.toString() ?? "",
                                approvalRequired: p.approvalRequired == null ? "" : p.approvalRequired ? "true" : "false",
                                preemptible: p.preemptible == null ? "" : p.preemptible ? "true" : "false",
                              },
                            });
                          }}
                        >
                          {t("common.edit")}
                        </Button>
                        <Button
                          size="xs"
                          color="red"
                          variant="light"
                          onClick={async () => {
                            if (listErrors.take(await del({ input: { scope: { kind: p.scope.kind, id: p.scope.id } } }), (d) => d.policyDelete)) reload();
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
        <Pager pages={pages} pageInfo={conn?.pageInfo} totalCount={conn?.totalCount} fetching={r.fetching} />
      </QueryState>
      <Effective />
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={t("policies.set")} size="xl">
        {editing && D && (
          <form onSubmit={save} noValidate>
            <Stack>
              <ScopePicker value={editing.scope} onChange={(scope) => setEditing({ ...editing, scope })} kinds={["GLOBAL", "ORGANIZATION", "GROUP", "USER"]} error={errors.field("scope.id")} />
              <Text size="xs" c="dimmed">
                {t("policies.emptyInherits")}
              </Text>
              <SimpleGrid cols={3}>
                {text("maxConcurrentSessions", t("policies.maxConcurrentSessions"))}
                {text("maxGpus", t("policies.maxGpus"))}
                {text("maxVramMib", t("policies.maxVramMib"))}
                {text("maxCpuCores", t("policies.maxCpuCores"))}
                {text("maxMemoryMib", t("policies.maxMemoryMib"))}
                {text("storageQuotaMib", t("policies.storageQuotaMib"))}
                {text("idleTimeoutMinutes", t("policies.idleTimeoutMinutes"))}
                {text("maxSessionHours", t("policies.maxSessionHours"))}
                {text("defaultPriority", t("policies.defaultPriority"))}
                {tri("approvalRequired", t("policies.approvalRequired"))}
                {tri("preemptible", t("policies.preemptible"))}
              </SimpleGrid>
              {text("modelCaps", t("policies.modelCaps"))}
              <GeneralErrors messages={errors.general} />
              <FormActions onCancel={() => setEditing(null)} saving={fetching} />
            </Stack>
          </form>
        )}
      </Modal>
    </Stack>
  );
}

import { useState } from "react";
import { Badge, Button, Group, Modal, NumberInput, Select, Stack, Table, Text, TextInput, Textarea } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../../gql";
import type { GpuTier } from "../../gql/graphql";
import { useLanguage } from "../../i18n";
import { useFieldErrors } from "../../common/errors";
import { formatCredits, formatMib } from "../../common/format";
import { Pager, useCursorPages } from "../../common/pagination";
import { Empty, GeneralErrors, QueryState } from "../../common/ui";
import { useOfferings } from "../../common/options";
import { validatePreset, type PresetDraft } from "./presetValidation";

const PresetsDocument = graphql(`
  query Presets($first: Int, $after: String, $offeringId: ID!, $withLimits: Boolean!) {
    presets(first: $first, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        id
        name
        cpuMillicores
        memoryMib
        diskGib
        shmMib
        tier
        gpuCount
        customVramMib
        customCores
        description
        cpuOnly
        gpuLimits(offeringId: $offeringId) @include(if: $withLimits) {
          vramMib
          cores
          cards
          ratio
          exclusive
          hourlyCost {
            credits
          }
        }
      }
    }
  }
`);

const PresetCreateDocument = graphql(`
  mutation PresetCreate($input: PresetCreateInput!) {
    presetCreate(input: $input) {
      preset {
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

const PresetUpdateDocument = graphql(`
  mutation PresetUpdate($input: PresetUpdateInput!) {
    presetUpdate(input: $input) {
      preset {
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

const PresetDeleteDocument = graphql(`
  mutation PresetDelete($input: IdInput!) {
    presetDelete(input: $input) {
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

const TIERS: GpuTier[] = ["NONE", "XL", "L", "M", "S", "EXCLUSIVE", "CUSTOM"];
const FIELDS = ["name", "cpuMillicores", "memoryMib", "diskGib", "shmMib", "tier", "gpuCount", "customVramMib", "customCores", "description"];

export function PresetsPanel({ canEdit }: { canEdit: boolean }) {
  const { t, language } = useLanguage();
  const offerings = useOfferings();
  const [offeringId, setOfferingId] = useState<string | null>(null);
  const chosen = offeringId ?? offerings[0]?.id ?? null;
  const pages = useCursorPages();
  const [r, refetch] = useQuery({
    query: PresetsDocument,
    variables: { ...pages.variables, offeringId: chosen ?? "", withLimits: !!chosen },
  });
  const [editing, setEditing] = useState<PresetDraft | null>(null);
  const [local, setLocal] = useState<Record<string, string>>({});
  const [{ fetching: c }, create] = useMutation(PresetCreateDocument);
  const [{ fetching: u }, update] = useMutation(PresetUpdateDocument);
  const [, del] = useMutation(PresetDeleteDocument);
  const errors = useFieldErrors(FIELDS);
  const listErrors = useFieldErrors([]);
  const conn = r.data?.presets;
  const reload = () => refetch({ requestPolicy: "network-only" });
  const err = (f: string) => local[f] ?? errors.field(f);

  const open = (d: PresetDraft) => {
    errors.clear();
    setLocal({});
    setEditing(d);
  };

  const save = async (ev: React.FormEvent) => {
    ev.preventDefault();
    if (!editing) return;
    const problems = validatePreset(editing);
    setLocal(Object.fromEntries(Object.entries(problems).map(([k, p]) => [k, t(`validation.${p}`)])));
    if (Object.keys(problems).length) return;
    const gpu = editing.tier;
    const input = {
      name: editing.name.trim(),
      cpuMillicores: Math.round(Number(editing.cpuCores) * 1000),
      memoryMib: Number(editing.memoryMib),
      diskGib: Number(editing.diskGib),
      shmMib: Number(editing.shmMib),
      tier: gpu,
      gpuCount: gpu === "EXCLUSIVE" ? Number(editing.gpuCount) : null,
      customVramMib: gpu === "CUSTOM" ? Number(editing.customVramMib) : null,
      customCores: gpu === "CUSTOM" ? Number(editing.customCores) : null,
      description: editing.description,
    };
    const ok = editing.id
      ? errors.take(await update({ input: { id: editing.id, ...input } }), (d) => d.presetUpdate)
      : errors.take(await create({ input }), (d) => d.presetCreate);
    if (ok) {
      setEditing(null);
      reload();
    }
  };

  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <Select
          label={t("presets.limitsOn")}
          description={t("presets.limitsOnHint")}
          data={offerings.map((o) => ({ value: o.id, label: `${o.vendor} ${o.name}` }))}
          value={chosen}
          onChange={setOfferingId}
          allowDeselect={false}
          w={320}
        />
        {canEdit && (
          <Button
            onClick={() => open({ name: "", cpuCores: "4", memoryMib: "16384", diskGib: "50", shmMib: "1024", tier: "L", gpuCount: "1", customVramMib: "", customCores: "", description: "" })}
            data-testid="preset-add"
          >
            {t("presets.add")}
          </Button>
        )}
      </Group>
      <GeneralErrors messages={listErrors.general} />
      <QueryState fetching={r.fetching} error={r.error}>
        {conn && conn.nodes.length === 0 && <Empty>{t("presets.none")}</Empty>}
        {conn && conn.nodes.length > 0 && (
          <Table striped withTableBorder>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("presets.name")}</Table.Th>
                <Table.Th>CPU</Table.Th>
                <Table.Th>{t("presets.memory")}</Table.Th>
                <Table.Th>{t("presets.tier")}</Table.Th>
                <Table.Th>{t("presets.gpuLimits")}</Table.Th>
                <Table.Th>{t("presets.ratio")}</Table.Th>
                <Table.Th>{t("presets.hourlyCost")}</Table.Th>
                {canEdit && <Table.Th />}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {conn.nodes.map((p) => {
                const lim = p.gpuLimits;
                return (
                  <Table.Tr key={p.id}>
                    <Table.Td>{p.name}</Table.Td>
                    <Table.Td>{p.cpuMillicores / 1000}</Table.Td>
                    <Table.Td>{formatMib(p.memoryMib)}</Table.Td>
                    <Table.Td>
                      <Badge variant="light">{p.tier === "EXCLUSIVE" ? `${t("tier.EXCLUSIVE")} × ${p.gpuCount}` : t(`tier.${p.tier}`)}</Badge>
                    </Table.Td>
                    <Table.Td>
                      {p.cpuOnly ? (
                        <Text size="sm" c="dimmed">
                          {t("presets.cpuOnly")}
                        </Text>
                      ) : lim ? (
                        `${formatMib(lim.vramMib)} · ${lim.cores}% · ${lim.cards} ${t("presets.cards")}`
                      ) : (
                        <Text size="sm" c="orange">
                          {t("presets.doesNotFit")}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>{lim?.ratio ?? "—"}</Table.Td>
                    <Table.Td>{lim ? t("credits.perHour", { amount: formatCredits(lim.hourlyCost.credits, language) }) : p.cpuOnly ? t("presets.free") : "—"}</Table.Td>
                    {canEdit && (
                      <Table.Td>
                        <Group gap={4} wrap="nowrap">
                          <Button
                            size="xs"
                            variant="default"
                            onClick={() =>
                              open({
                                id: p.id,
                                name: p.name,
                                cpuCores: String(p.cpuMillicores / 1000),
                                memoryMib: String(p.memoryMib),
                                diskGib: String(p.diskGib),
                                shmMib: String(p.shmMib),
                                tier: p.tier,
                                gpuCount: String(p.gpuCount || 1),
                                customVramMib: p.customVramMib != null ? String(p.customVramMib) : "",
                                customCores: p.customCores != null ? String(p.customCores) : "",
                                description: p.description,
                              })
                            }
                          >
                            {t("common.edit")}
                          </Button>
                          <Button
                            size="xs"
                            color="red"
                            variant="light"
                            onClick={async () => {
                              if (!window.confirm(t("common.deleteConfirm", { name: p.name }))) return;
                              if (listErrors.take(await del({ input: { id: p.id } }), (d) => d.presetDelete)) reload();
                            }}
                          >
                            {t("common.delete")}
                          </Button>
                        </Group>
                      </Table.Td>
                    )}
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        )}
        <Pager pages={pages} pageInfo={conn?.pageInfo} totalCount={conn?.totalCount} fetching={r.fetching} />
      </QueryState>
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={editing?.id ? t("presets.edit") : t("presets.add")} size="lg">
        {editing && (
          <form onSubmit={save} noValidate>
            <Stack>
              <TextInput label={t("presets.name")} name="name" value={editing.name} onChange={(e) => setEditing({ ...editing, name: e.currentTarget.value })} error={err("name")} />
              <Group grow>
                <NumberInput label={t("presets.cpuCores")} value={editing.cpuCores} decimalScale={3} min={0.1} onChange={(v) => setEditing({ ...editing, cpuCores: String(v) })} error={local.cpuCores ?? errors.field("cpuMillicores")} />
                <NumberInput label={t("presets.memoryMib")} value={editing.memoryMib} min={1} onChange={(v) => setEditing({ ...editing, memoryMib: String(v) })} error={err("memoryMib")} />
              </Group>
              <Group grow>
                <NumberInput label={t("presets.diskGib")} value={editing.diskGib} min={1} onChange={(v) => setEditing({ ...editing, diskGib: String(v) })} error={err("diskGib")} />
                <NumberInput label={t("presets.shmMib")} value={editing.shmMib} min={1} onChange={(v) => setEditing({ ...editing, shmMib: String(v) })} error={err("shmMib")} />
              </Group>
              <Select
                label={t("presets.tier")}
                data={TIERS.map((x) => ({ value: x, label: t(`tier.${x}`) }))}
                value={editing.tier}
                onChange={(v) => setEditing({ ...editing, tier: (v as GpuTier) ?? "NONE" })}
                allowDeselect={false}
                error={err("tier")}
              />
              {editing.tier === "EXCLUSIVE" && (
                <NumberInput label={t("presets.gpuCount")} value={editing.gpuCount} min={1} onChange={(v) => setEditing({ ...editing, gpuCount: String(v) })} error={err("gpuCount")} />
              )}
              {editing.tier === "CUSTOM" && (
                <Group grow>
                  <NumberInput label={t("presets.customVramMib")} value={editing.customVramMib} min={1} onChange={(v) => setEditing({ ...editing, customVramMib: String(v) })} error={err("customVramMib")} />
                  <NumberInput label={t("presets.customCores")} value={editing.customCores} min={1} max={100} onChange={(v) => setEditing({ ...editing, customCores: String(v) })} error={err("customCores")} />
                </Group>
              )}
              <Textarea label={t("common.description")} value={editing.description} onChange={(e) => setEditing({ ...editing, description: e.currentTarget.value })} error={err("description")} />
              <GeneralErrors messages={errors.general} />
              <Group justify="flex-end">
                <Button variant="default" onClick={() => setEditing(null)}>
                  {t("common.cancel")}
                </Button>
                <Button type="submit" loading={c || u}>
                  {t("common.save")}
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Modal>
    </Stack>
  );
}

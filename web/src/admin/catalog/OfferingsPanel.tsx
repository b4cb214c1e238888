import { useState } from "react";
import { Badge, Button, Group, Modal, NumberInput, Stack, Switch, Table, TextInput, Textarea } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../../gql";
import { useLanguage } from "../../i18n";
import { useFieldErrors } from "../../common/errors";
import { creditsToMicro, formatCredits, formatMib, microToCredits } from "../../common/format";
import { Pager, useCursorPages } from "../../common/pagination";
import { Empty, GeneralErrors, QueryState } from "../../common/ui";
import { checkCuda, checkInt, type Problem } from "../../common/validation";

const OfferingsDocument = graphql(`
  query Offerings($first: Int, $after: String) {
    offerings(first: $first, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        id
        vendor
        name
        vramMib
        cores
        minCuda
        resourceName
        description
        enabled
        shareable
        hourlyRate {
          micro
          credits
        }
        cardClass {
          models
        }
        hourlyRateRange {
          low {
            credits
          }
          high {
            credits
          }
        }
      }
    }
  }
`);

const OfferingCreateDocument = graphql(`
  mutation OfferingCreate($input: OfferingCreateInput!) {
    offeringCreate(input: $input) {
      offering {
        id
      }
      errors {
        code
        field
        message
      }
    }
  }
`);

const OfferingUpdateDocument = graphql(`
  mutation OfferingUpdate($input: OfferingUpdateInput!) {
    offeringUpdate(input: $input) {
      offering {
        id
        name
        minCuda
        enabled
        description
        hourlyRate {
          micro
          credits
        }
        cardClass {
          models
        }
      }
      errors {
        code
        field
        message
      }
    }
  }
`);

const OfferingDeleteDocument = graphql(`
  mutation OfferingDelete($input: IdInput!) {
    offeringDelete(input: $input) {
      deletedId
      errors {
        code
        field
        message
      }
    }
  }
`);

interface Editing {
  id?: string;
  vendor: string;
  name: string;
  vramMib: string;
  cores: string;
  minCuda: string;
  hourlyRate: string;
  resourceName: string;
  description: string;
  enabled: boolean;
  /** A class of cards: the scheduler picks the model (minimum VRAM `vramMib`, CUDA `minCuda`). */
  isClass?: boolean;
  /** The class's card models, separated by commas or spaces; empty: any model with the VRAM. */
  models?: string;
}

/** The models a class of cards names, as the server keeps them: trimmed, each once, sorted. */
export function cardClassModels(text: string): string[] {
  const models = text
    .split(/[\s,]+/)
    .map((m) => m.trim())
    .filter((m) => m !== "");
  return [...new Set(models)].sort();
}

/** What the form sends: the create input, or the update input of the offering being edited. */
export function offeringInputs(v: Editing) {
  const models = v.isClass ? cardClassModels(v.models ?? "") : null;
  // a class of cards is billed at the rate of the card it lands on: its own rate is 0
  const hourlyRateMicro = v.isClass ? "0" : creditsToMicro(v.hourlyRate)!.toString();
  const cardClass = models === null ? null : { models };
  if (v.id) {
    return {
      update: {
        id: v.id,
        name: v.name.trim(),
        minCuda: v.minCuda.trim(),
        ...(v.isClass ? {} : { hourlyRateMicro }),
        description: v.description,
        enabled: v.enabled,
        cardClass,
      },
    };
  }
  return {
    create: {
      vendor: v.vendor.trim(),
      name: v.name.trim(),
      vramMib: Number(v.vramMib),
      cores: Number(v.cores),
      minCuda: v.minCuda.trim(),
      hourlyRateMicro,
      resourceName: v.resourceName.trim(),
      description: v.description,
      enabled: v.enabled,
      cardClass,
    },
  };
}

/** Client-side checks of the offering form; the keys are the input fields. */
export function validateOffering(v: Editing, isNew: boolean): Record<string, Problem> {
  const p: Record<string, Problem> = {};
  if (!v.name.trim()) p.name = "required";
  if (isNew) {
    if (!v.vendor.trim()) p.vendor = "required";
    const vram = checkInt(v.vramMib, 1);
    if (vram) p.vramMib = vram;
    const cores = checkInt(v.cores, 1, 100);
    if (cores) p.cores = cores;
    if (!v.resourceName.trim()) p.resourceName = "required";
  }
  const cuda = checkCuda(v.minCuda);
  if (cuda) p.minCuda = cuda;
  if (v.isClass) return p; // no rate of its own: the card's
  if (!v.hourlyRate.trim()) p.hourlyRateMicro = "required";
  else if (creditsToMicro(v.hourlyRate) === null) p.hourlyRateMicro = "credits";
  return p;
}

export function OfferingsPanel({ canEdit }: { canEdit: boolean }) {
  const { t, language } = useLanguage();
  const pages = useCursorPages();
  const [r, refetch] = useQuery({ query: OfferingsDocument, variables: pages.variables });
  const [editing, setEditing] = useState<Editing | null>(null);
  const [local, setLocal] = useState<Record<string, string>>({});
  const [{ fetching: c }, create] = useMutation(OfferingCreateDocument);
  const [{ fetching: u }, update] = useMutation(OfferingUpdateDocument);
  const [, del] = useMutation(OfferingDeleteDocument);
  const errors = useFieldErrors([
    "vendor",
    "name",
    "vramMib",
    "cores",
    "minCuda",
    "hourlyRateMicro",
    "hourlyRate",
    "resourceName",
    "description",
    "enabled",
    "cardClass",
    "cardClass.models",
  ]);
  const listErrors = useFieldErrors([]);
  const conn = r.data?.offerings;
  const reload = () => refetch({ requestPolicy: "network-only" });

  const open = (e: Editing) => {
    errors.clear();
    setLocal({});
    setEditing(e);
  };

  const save = async (ev: React.FormEvent) => {
    ev.preventDefault();
    if (!editing) return;
    const problems = validateOffering(editing, !editing.id);
    setLocal(Object.fromEntries(Object.entries(problems).map(([k, p]) => [k, t(`validation.${p}`)])));
    if (Object.keys(problems).length) return;
    const inputs = offeringInputs(editing);
    const ok = inputs.update
      ? errors.take(await update({ input: inputs.update }), (d) => d.offeringUpdate)
      : errors.take(await create({ input: inputs.create }), (d) => d.offeringCreate);
    if (ok) {
      setEditing(null);
      reload();
    }
  };

  const err = (f: string) => local[f] ?? errors.field(f);
  return (
    <Stack>
      {canEdit && (
        <Group justify="flex-end">
          <Button
            onClick={() =>
              open({ vendor: "NVIDIA", name: "", vramMib: "", cores: "100", minCuda: "", hourlyRate: "", resourceName: "nvidia.com/gpu", description: "", enabled: true, isClass: false, models: "" })
            }
            data-testid="offering-add"
          >
            {t("offerings.add")}
          </Button>
        </Group>
      )}
      <GeneralErrors messages={listErrors.general} />
      <QueryState fetching={r.fetching} error={r.error}>
        {conn && conn.nodes.length === 0 && <Empty>{t("offerings.none")}</Empty>}
        {conn && conn.nodes.length > 0 && (
          <Table striped withTableBorder>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("offerings.model")}</Table.Th>
                <Table.Th>VRAM</Table.Th>
                <Table.Th>{t("offerings.minCuda")}</Table.Th>
                <Table.Th>{t("offerings.hourlyRate")}</Table.Th>
                <Table.Th>{t("offerings.resourceName")}</Table.Th>
                <Table.Th>{t("common.status")}</Table.Th>
                {canEdit && <Table.Th />}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {conn.nodes.map((o) => (
                <Table.Tr key={o.id}>
                  <Table.Td>
                    {o.vendor} {o.name}
                    {o.shareable && (
                      <Badge ml="xs" size="xs" variant="light">
                        {t("offerings.shareable")}
                      </Badge>
                    )}
                    {o.cardClass && (
                      <Badge ml="xs" size="xs" variant="light" color="grape" data-testid="offering-class">
                        {o.cardClass.models.length ? o.cardClass.models.join(", ") : t("offerings.anyModel")}
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>{o.cardClass ? t("offerings.atLeast", { vram: formatMib(o.vramMib) }) : formatMib(o.vramMib)}</Table.Td>
                  <Table.Td>{o.minCuda}</Table.Td>
                  <Table.Td>
                    {o.cardClass
                      ? o.hourlyRateRange
                        ? t("offerings.rateRange", {
                            low: formatCredits(o.hourlyRateRange.low.credits, language),
                            high: formatCredits(o.hourlyRateRange.high.credits, language),
                          })
                        : t("offerings.noMember")
                      : t("credits.perHour", { amount: formatCredits(o.hourlyRate.credits, language) })}
                  </Table.Td>
                  <Table.Td ff="monospace">{o.resourceName}</Table.Td>
                  <Table.Td>
                    <Badge color={o.enabled ? "teal" : "gray"}>{o.enabled ? t("common.enabled") : t("common.disabled")}</Badge>
                  </Table.Td>
                  {canEdit && (
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        <Button
                          size="xs"
                          variant="default"
                          onClick={() =>
                            open({
                              id: o.id,
                              vendor: o.vendor,
                              name: o.name,
                              vramMib: String(o.vramMib),
                              cores: String(o.cores),
                              minCuda: o.minCuda,
                              hourlyRate: microToCredits(o.hourlyRate.micro),
                              resourceName: o.resourceName,
                              description: o.description,
                              enabled: o.enabled,
                              isClass: o.cardClass !== null && o.cardClass !== undefined,
                              models: o.cardClass?.models.join(", ") ?? "",
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
                            if (!window.confirm(t("common.deleteConfirm", { name: o.name }))) return;
                            if (listErrors.take(await del({ input: { id: o.id } }), (d) => d.offeringDelete)) reload();
                          }}
                        >
                          {t("common.delete")}
                        </Button>
                      </Group>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <Pager pages={pages} pageInfo={conn?.pageInfo} totalCount={conn?.totalCount} fetching={r.fetching} />
      </QueryState>
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={editing?.id ? t("offerings.edit") : t("offerings.add")}>
        {editing && (
          <form onSubmit={save} noValidate>
            <Stack>
              <Group grow>
                <TextInput label={t("offerings.vendor")} value={editing.vendor} disabled={!!editing.id} onChange={(e) => setEditing({ ...editing, vendor: e.currentTarget.value })} error={err("vendor")} />
                <TextInput label={t("offerings.name")} name="name" value={editing.name} onChange={(e) => setEditing({ ...editing, name: e.currentTarget.value })} error={err("name")} />
              </Group>
              <Switch
                label={t("offerings.cardClass")}
                description={t("offerings.cardClassHint")}
                checked={!!editing.isClass}
                disabled={!!editing.id}
                onChange={(e) => setEditing({ ...editing, isClass: e.currentTarget.checked })}
                error={err("cardClass")}
                data-testid="offering-class-switch"
              />
              {editing.isClass && (
                <TextInput
                  label={t("offerings.models")}
                  description={t("offerings.modelsHint")}
                  name="models"
                  placeholder="A100-80GB, H100-80GB"
                  value={editing.models ?? ""}
                  onChange={(e) => setEditing({ ...editing, models: e.currentTarget.value })}
                  error={err("cardClass.models")}
                />
              )}
              <Group grow>
                <NumberInput label={editing.isClass ? t("offerings.minVramMib") : t("offerings.vramMib")} value={editing.vramMib} disabled={!!editing.id} onChange={(v) => setEditing({ ...editing, vramMib: String(v) })} error={err("vramMib")} min={1} />
                <NumberInput label={t("offerings.cores")} value={editing.cores} disabled={!!editing.id} onChange={(v) => setEditing({ ...editing, cores: String(v) })} error={err("cores")} min={1} max={100} />
              </Group>
              <Group grow>
                <TextInput label={t("offerings.minCuda")} name="minCuda" placeholder="12.2" value={editing.minCuda} onChange={(e) => setEditing({ ...editing, minCuda: e.currentTarget.value })} error={err("minCuda")} />
                {editing.isClass ? (
                  <TextInput label={t("offerings.hourlyRate")} description={t("offerings.classRateHint")} value="" disabled />
                ) : (
                  <TextInput
                    label={t("offerings.hourlyRate")}
                    name="hourlyRate"
                    description={t("offerings.hourlyRateHint")}
                    value={editing.hourlyRate}
                    onChange={(e) => setEditing({ ...editing, hourlyRate: e.currentTarget.value })}
                    error={err("hourlyRateMicro") ?? err("hourlyRate")}
                  />
                )}
              </Group>
              <TextInput label={t("offerings.resourceName")} value={editing.resourceName} disabled={!!editing.id} onChange={(e) => setEditing({ ...editing, resourceName: e.currentTarget.value })} error={err("resourceName")} />
              <Textarea label={t("common.description")} value={editing.description} onChange={(e) => setEditing({ ...editing, description: e.currentTarget.value })} error={err("description")} />
              <Switch label={t("common.enabled")} checked={editing.enabled} onChange={(e) => setEditing({ ...editing, enabled: e.currentTarget.checked })} />
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

import { useMemo, useState } from "react";
import { ActionIcon, Alert, Anchor, Button, Card, Checkbox, Group, Modal, SegmentedControl, Select, SimpleGrid, Stack, Switch, Table, Text, TextInput, Textarea, Title } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { Link, useLocation } from "wouter";
import { graphql } from "../gql";
import type { Expiry, MountMode } from "../gql/graphql";
import { useLanguage } from "../i18n";
import { useFieldErrors } from "../common/errors";
import { formatCredits, formatMib, microToCredits } from "../common/format";
import { GeneralErrors, PageHeader } from "../common/ui";
import { useOfferings } from "../common/options";
import { classCostRange, holdEstimate } from "../common/cost";
import { SessionCreateDocument } from "./documents";
import { EXPIRIES } from "./expiries";
import { validateSessionDraft, EXPIRY_SECONDS, envFromTemplate, envInput, envProblems, shmProblem, templateParts, type EnvDraft, type MountDraft } from "./sessionDraft";
import { CapsSummary } from "./GroupCaps";
import { useViewer } from "../app/viewer";

const NewSessionChoicesDocument = graphql(`
  query NewSessionChoices($offeringId: ID!, $withOffering: Boolean!) {
    presets(first: 100) {
      nodes {
        id
        name
        cpuMillicores
        memoryMib
        tier
        gpuCount
        cpuOnly
        gpuLimits(offeringId: $offeringId) @include(if: $withOffering) {
          vramMib
          cores
          cards
          ratio
          hourlyCost {
            micro
            credits
          }
        }
        hourlyCostRange(offeringId: $offeringId) @include(if: $withOffering) {
          low {
            micro
          }
          high {
            micro
          }
        }
      }
    }
    images(first: 100) {
      nodes {
        id
        name
        reference
        cudaVersion
        scope
      }
    }
    volumes(first: 100) {
      nodes {
        id
        name
        scope
        sizeMib
        myMountMode
      }
    }
    templates(first: 100) {
      nodes {
        id
        name
        imageId
        presetId
        offeringId
        cpuMillicores
        memoryMib
        shmMib
        env
        mounts {
          volumeId
          mountPath
          mode
        }
      }
    }
    instanceBundles {
      name
      model
      gpus
      cpuMillicores
      memoryMib
      nodes
    }
  }
`);

const CudaCheckDocument = graphql(`
  query CudaCheck($imageId: ID!, $offeringId: ID!) {
    node(id: $imageId) {
      ... on Image {
        id
        cudaCompatibility(offeringId: $offeringId) {
          compatible
          reason
        }
      }
    }
  }
`);

const TemplateSaveDocument = graphql(`
  mutation TemplateSave($input: TemplateCreateInput!) {
    templateCreate(input: $input) {
      template {
        id
        name
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

const TEMPLATE_FIELDS = ["groupId", "name", "imageId", "presetId", "offeringId", "cpuMillicores", "memoryMib", "shmMib", "env", "mounts", "description"];

const FIELDS = ["name", "imageId", "presetId", "offeringId", "templateId", "expiry", "mounts", "shared", "bundleGpus", "bundleCpuMillicores", "bundleMemoryMib", "walletUserId", "env", "shmMib"];

export default function NewSessionPage() {
  const { t, language } = useLanguage();
  const [, navigate] = useLocation();
  const { me } = useViewer();
  const offerings = useOfferings().filter((o) => o.enabled);
  const [name, setName] = useState("");
  const [offeringId, setOfferingId] = useState<string | null>(null);
  const [mode, setMode] = useState<"preset" | "bundle">("preset");
  const [presetId, setPresetId] = useState<string | null>(null);
  const [bundle, setBundle] = useState<string | null>(null);
  const [imageId, setImageId] = useState<string | null>(null);
  const [templateId, setTemplateId] = useState<string | null>(null);
  const [expiry, setExpiry] = useState<Expiry>("H4");
  const [shared, setShared] = useState(false);
  const [mounts, setMounts] = useState<Record<string, MountDraft>>({});
  const [local, setLocal] = useState<Record<string, string>>({});
  const [env, setEnv] = useState<EnvDraft[]>([]);
  const [shm, setShm] = useState("");
  const [saving, setSaving] = useState<{ name: string; description: string } | null>(null);
  const [savedName, setSavedName] = useState<string | null>(null);
  const [{ fetching: templateSaving }, saveTemplate] = useMutation(TemplateSaveDocument);
  const templateErrors = useFieldErrors(TEMPLATE_FIELDS);
  const [choices, refetchChoices] = useQuery({ query: NewSessionChoicesDocument, variables: { offeringId: offeringId ?? "", withOffering: !!offeringId } });
  const [cuda] = useQuery({ query: CudaCheckDocument, variables: { imageId: imageId ?? "", offeringId: offeringId ?? "" }, pause: !imageId || !offeringId });
  const [{ fetching }, create] = useMutation(SessionCreateDocument);
  const errors = useFieldErrors(FIELDS);

  const presets = choices.data?.presets.nodes ?? [];
  const images = choices.data?.images.nodes ?? [];
  const volumes = choices.data?.volumes.nodes ?? [];
  const templates = choices.data?.templates.nodes ?? [];
  const bundles = choices.data?.instanceBundles ?? [];
  const preset = presets.find((p) => p.id === presetId);
  const chosenBundle = bundles.find((b) => b.name === bundle);
  const offering = offerings.find((o) => o.id === offeringId);
  const cudaResult = cuda.data?.node?.__typename === "Image" ? cuda.data.node.cudaCompatibility : null;

  // Estimated credits per hour: the preset's cost on the offering, or whole cards of a bundle.
  const hourlyMicro = useMemo(() => {
    if (mode === "preset") {
      if (!preset || preset.cpuOnly) return 0n;
      return preset.gpuLimits ? BigInt(preset.gpuLimits.hourlyCost.micro) : null;
    }
    if (!chosenBundle || chosenBundle.gpus === 0) return 0n;
    return offering ? BigInt(Math.round(Number(offering.hourlyRate.credits) * 1_000_000)) * BigInt(chosenBundle.gpus) : null;
  }, [mode, preset, chosenBundle, offering]);
  const hold = hourlyMicro == null ? null : holdEstimate(hourlyMicro, EXPIRY_SECONDS[expiry]);
  // A class of cards: billed at the rate of the card it is placed on, so a range (the hold and
  // the estimate above are the dearest card's).
  const costRange = mode === "preset" ? classCostRange(preset?.hourlyCostRange) : null;

  const applyTemplate = (id: string | null) => {
    setTemplateId(id);
    const tpl = templates.find((x) => x.id === id);
    if (!tpl) return;
    setImageId(tpl.imageId);
    if (tpl.presetId) {
      setMode("preset");
      setPresetId(tpl.presetId);
    } else if (tpl.cpuMillicores != null) {
      // a bundle's instance: the suggested bundle of that CPU and memory, when there is one now
      setMode("bundle");
      setBundle(bundles.find((b) => b.cpuMillicores === tpl.cpuMillicores && b.memoryMib === tpl.memoryMib)?.name ?? null);
    }
    if (tpl.offeringId) setOfferingId(tpl.offeringId);
    setShm(tpl.shmMib != null ? String(tpl.shmMib) : "");
    setEnv(envFromTemplate(tpl.env));
    setMounts(Object.fromEntries(tpl.mounts.map((m) => [m.volumeId, { mountPath: m.mountPath, mode: m.mode }])));
  };

  /** Checks shared by starting a session and saving the form as a template. */
  const formProblems = (): Record<string, string> => {
    const problems: Record<string, string> = {};
    for (const [k, p] of Object.entries(envProblems(env))) problems[k] = t(`validation.${p}`);
    const sp = shmProblem(shm);
    if (sp) problems.shmMib = t(`validation.${sp}`);
    return problems;
  };
  const shmMib = shm.trim() ? Number(shm.trim()) : null;
  const mountInput = (list: [string, MountDraft][]) => list.map(([volumeId, m]) => ({ volumeId, mountPath: m.mountPath.trim(), mode: m.mode }));

  const openSave = () => {
    templateErrors.clear();
    setSavedName(null);
    const problems: Record<string, string> = formProblems();
    if (!imageId) problems.imageId = t("validation.required");
    if (mode === "preset" ? !presetId : !chosenBundle) problems[mode === "preset" ? "presetId" : "bundleGpus"] = t("validation.required");
    setLocal(problems);
    if (Object.keys(problems).length) return;
    setSaving({ name: name.trim(), description: "" });
  };

  const submitSave = async (e: React.FormEvent) => {
    e.preventDefault();
    e.stopPropagation();
    if (!saving || !me.activeGroup) return;
    const r = await saveTemplate({
      input: {
        groupId: me.activeGroup.id,
        name: saving.name.trim(),
        description: saving.description,
        imageId: imageId!,
        offeringId,
        presetId: mode === "preset" ? presetId : null,
        cpuMillicores: mode === "bundle" ? chosenBundle?.cpuMillicores : null,
        memoryMib: mode === "bundle" ? chosenBundle?.memoryMib : null,
        shmMib,
        env: envInput(env),
        mounts: mountInput(Object.entries(mounts)),
      },
    });
    if (templateErrors.take(r, (d) => d.templateCreate)) {
      setSavedName(r.data!.templateCreate.template!.name);
      setSaving(null);
      refetchChoices({ requestPolicy: "network-only" });
    }
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const gpuNeeded = mode === "preset" ? !!preset && !preset.cpuOnly : !!chosenBundle && chosenBundle.gpus > 0;
    const problems = validateSessionDraft({ name, imageId, presetId: mode === "preset" ? presetId : null, bundle: mode === "bundle" ? bundle : null, offeringId, gpuNeeded, bundleMode: mode === "bundle", mounts });
    const all = { ...Object.fromEntries(Object.entries(problems).map(([k, p]) => [k, t(`validation.${p}`)])), ...formProblems() };
    setLocal(all);
    if (Object.keys(all).length) return;
    const fromTemplate = templateParts(
      templates.find((x) => x.id === templateId),
      { imageId, bundleMode: mode === "bundle", shm, env, mounts },
    );
    const r = await create({
      input: {
        name: name.trim(),
        imageId: imageId!,
        presetId: mode === "preset" ? presetId : null,
        offeringId,
        templateId: fromTemplate.templateId,
        bundleCpuMillicores: mode === "bundle" ? chosenBundle?.cpuMillicores : null,
        bundleMemoryMib: mode === "bundle" ? chosenBundle?.memoryMib : null,
        bundleGpus: mode === "bundle" ? chosenBundle?.gpus : null,
        expiry,
        shared,
        mounts: mountInput(fromTemplate.mounts),
        env: envInput(env),
        shmMib,
      },
    });
    if (errors.take(r, (d) => d.sessionCreate)) navigate(`/sessions/${encodeURIComponent(r.data!.sessionCreate.session!.id)}`);
  };

  const err = (f: string) => local[f] ?? errors.field(f);
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Anchor component={Link} href="/sessions" size="sm">
          ← {t("nav.sessions")}
        </Anchor>
        <PageHeader title={t("sessions.new")} />
        <SimpleGrid cols={{ base: 1, lg: 2 }}>
          <Card withBorder>
            <Stack>
              <TextInput label={t("sessions.name")} name="name" value={name} onChange={(e) => setName(e.currentTarget.value)} error={err("name")} />
              <Select label={t("sessions.template")} data={templates.map((x) => ({ value: x.id, label: x.name }))} value={templateId} onChange={applyTemplate} clearable error={err("templateId")} />
              <Select
                label={t("sessions.offering")}
                description={t("sessions.offeringHint")}
                data={offerings.map((o) => ({ value: o.id, label: `${o.vendor} ${o.name} · ${formatMib(o.vramMib)} · CUDA ≥ ${o.minCuda}` }))}
                value={offeringId}
                onChange={setOfferingId}
                clearable
                error={err("offeringId")}
                data-testid="offering-select"
              />
              <SegmentedControl
                value={mode}
                onChange={(v) => setMode(v as "preset" | "bundle")}
                data={[
                  { value: "preset", label: t("sessions.preset") },
                  { value: "bundle", label: t("sessions.bundle") },
                ]}
              />
              {mode === "preset" ? (
                <Select
                  label={t("sessions.preset")}
                  data={presets.map((p) => ({
                    value: p.id,
                    label: `${p.name} · ${p.cpuMillicores / 1000} CPU · ${formatMib(p.memoryMib)}${p.gpuLimits ? ` · ${formatMib(p.gpuLimits.vramMib)} VRAM` : ""}`,
                  }))}
                  value={presetId}
                  onChange={setPresetId}
                  error={err("presetId")}
                  data-testid="preset-select"
                />
              ) : (
                <Select
                  label={t("sessions.bundle")}
                  description={t("sessions.bundleHint")}
                  data={bundles.map((b) => ({ value: b.name, label: `${b.name} · ${b.gpus} GPU${b.model ? ` ${b.model}` : ""} · ${b.cpuMillicores / 1000} CPU · ${formatMib(b.memoryMib)} (${b.nodes})` }))}
                  value={bundle}
                  onChange={setBundle}
                  error={err("bundleGpus") ?? err("bundleCpuMillicores")}
                />
              )}
              <Switch label={t("sessions.shared")} description={t("sessions.sharedHint")} checked={shared} onChange={(e) => setShared(e.currentTarget.checked)} />
              {errors.field("shared") && (
                <Text c="red" size="sm">
                  {errors.field("shared")}
                </Text>
              )}
              <Select
                label={t("sessions.image")}
                data={images.map((i) => ({ value: i.id, label: `${i.name} · ${i.cudaVersion ? `CUDA ${i.cudaVersion}` : t("images.cpuOnly")}` }))}
                value={imageId}
                onChange={setImageId}
                error={err("imageId")}
                searchable
                data-testid="image-select"
              />
              {cudaResult && (
                <Alert color={cudaResult.compatible ? "teal" : "red"} data-testid="cuda-check">
                  {cudaResult.compatible ? t("sessions.cudaOk") : t("sessions.cudaBad", { reason: cudaResult.reason ?? "" })}
                </Alert>
              )}
              <Select
                label={t("sessions.expiry")}
                data={EXPIRIES.map((x) => ({ value: x, label: t(`expiry.${x}`) }))}
                value={expiry}
                onChange={(v) => setExpiry((v as Expiry) ?? "H4")}
                allowDeselect={false}
                error={err("expiry")}
              />
            </Stack>
          </Card>
          <Stack>
            <CapsSummary groupId={me.activeGroup?.id} />
            <Card withBorder>
              <Title order={5} mb="xs">
                {t("sessions.estimate")}
              </Title>
              <Text size="xl" fw={700} data-testid="cost-estimate">
                {hourlyMicro == null ? t("sessions.pickOffering") : hourlyMicro === 0n ? t("presets.free") : t("credits.perHour", { amount: formatCredits(microToCredits(hourlyMicro), language) })}
              </Text>
              {costRange && (
                <Text size="sm" data-testid="cost-range">
                  {t("sessions.costRange", {
                    low: formatCredits(microToCredits(costRange[0]), language),
                    high: formatCredits(microToCredits(costRange[1]), language),
                  })}
                </Text>
              )}
              {hold != null && hold > 0n && (
                <Text size="sm" c="dimmed">
                  {t("sessions.holdHint", { amount: formatCredits(microToCredits(hold), language) })}
                </Text>
              )}
            </Card>
            <Card withBorder>
              <Title order={5} mb="xs">
                {t("sessions.volumes")}
              </Title>
              {volumes.length === 0 ? (
                <Text size="sm" c="dimmed">
                  {t("sessions.noVolumes")}
                </Text>
              ) : (
                <Table>
                  <Table.Tbody>
                    {volumes.map((v) => {
                      const m = mounts[v.id];
                      const modes: MountMode[] = v.myMountMode === "READ_WRITE" ? ["READ_WRITE", "READ_ONLY"] : v.myMountMode ? ["READ_ONLY"] : [];
                      return (
                        <Table.Tr key={v.id}>
                          <Table.Td>
                            <Checkbox
                              label={`${v.name} (${formatMib(v.sizeMib)})`}
                              disabled={modes.length === 0}
                              checked={!!m}
                              onChange={(e) => {
                                const next = { ...mounts };
                                if (e.currentTarget.checked) next[v.id] = { mountPath: `/mnt/${v.name}`, mode: modes[0] };
                                else delete next[v.id];
                                setMounts(next);
                              }}
                            />
                          </Table.Td>
                          <Table.Td>
                            {m && (
                              <TextInput size="xs" aria-label={t("sessions.mountPath")} value={m.mountPath} onChange={(e) => setMounts({ ...mounts, [v.id]: { ...m, mountPath: e.currentTarget.value } })} error={local[`mount:${v.id}`]} />
                            )}
                          </Table.Td>
                          <Table.Td>
                            {m && (
                              <SegmentedControl
                                size="xs"
                                value={m.mode}
                                onChange={(x) => setMounts({ ...mounts, [v.id]: { ...m, mode: x as MountMode } })}
                                data={modes.map((x) => ({ value: x, label: t(`mount.${x}`) }))}
                              />
                            )}
                          </Table.Td>
                        </Table.Tr>
                      );
                    })}
                  </Table.Tbody>
                </Table>
              )}
              {errors.field("mounts") && (
                <Text c="red" size="sm" mt="xs">
                  {errors.field("mounts")}
                </Text>
              )}
            </Card>
            <Card withBorder data-testid="session-env">
              <Title order={5} mb="xs">
                {t("sessions.environment")}
              </Title>
              <Stack gap="xs">
                {env.map((row, i) => (
                  <Group key={i} align="flex-start" wrap="nowrap" gap="xs">
                    <TextInput
                      size="xs"
                      aria-label={t("sessions.envName")}
                      placeholder={t("sessions.envName")}
                      value={row.name}
                      onChange={(e) => setEnv(env.map((x, j) => (j === i ? { ...x, name: e.currentTarget.value } : x)))}
                      error={local[`env:${i}`]}
                      ff="monospace"
                      style={{ flex: 1 }}
                      data-testid={`env-name-${i}`}
                    />
                    <TextInput
                      size="xs"
                      aria-label={t("sessions.envValue")}
                      placeholder={t("sessions.envValue")}
                      value={row.value}
                      onChange={(e) => setEnv(env.map((x, j) => (j === i ? { ...x, value: e.currentTarget.value } : x)))}
                      style={{ flex: 2 }}
                      data-testid={`env-value-${i}`}
                    />
                    <ActionIcon variant="subtle" color="red" aria-label={t("sessions.envRemove")} onClick={() => setEnv(env.filter((_, j) => j !== i))}>
                      ×
                    </ActionIcon>
                  </Group>
                ))}
                <Group>
                  <Button size="xs" variant="light" onClick={() => setEnv([...env, { name: "", value: "" }])} data-testid="env-add">
                    {t("sessions.envAdd")}
                  </Button>
                </Group>
                {(errors.field("env") ?? templateErrors.field("env")) && (
                  <Text c="red" size="sm">
                    {errors.field("env") ?? templateErrors.field("env")}
                  </Text>
                )}
                <TextInput
                  label={t("sessions.shm")}
                  description={t("sessions.shmHint")}
                  value={shm}
                  onChange={(e) => setShm(e.currentTarget.value)}
                  error={local.shmMib ?? errors.field("shmMib") ?? templateErrors.field("shmMib")}
                  inputMode="numeric"
                  data-testid="session-shm"
                />
              </Stack>
            </Card>
          </Stack>
        </SimpleGrid>
        <GeneralErrors messages={errors.general} />
        {savedName && (
          <Alert color="teal" data-testid="template-saved" withCloseButton onClose={() => setSavedName(null)}>
            {t("templates.saved", { name: savedName })}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" size="md" onClick={openSave} disabled={!me.activeGroup} data-testid="template-save">
            {t("templates.saveForm")}
          </Button>
          <Button type="submit" loading={fetching} size="md" data-testid="session-submit">
            {t("sessions.create")}
          </Button>
        </Group>
      </Stack>
      <Modal opened={saving !== null} onClose={() => setSaving(null)} title={t("templates.saveForm")}>
        {saving && (
          <form onSubmit={submitSave} noValidate>
            <Stack>
              <Text size="sm" c="dimmed">
                {t("templates.saveHint", { group: me.activeGroup ? `${me.activeGroup.organization.name} / ${me.activeGroup.name}` : "—" })}
              </Text>
              <TextInput label={t("sessions.name")} value={saving.name} onChange={(e) => setSaving({ ...saving, name: e.currentTarget.value })} error={templateErrors.field("name")} data-testid="template-name" />
              <Textarea label={t("common.description")} value={saving.description} onChange={(e) => setSaving({ ...saving, description: e.currentTarget.value })} error={templateErrors.field("description")} />
              {TEMPLATE_FIELDS.filter((f) => f !== "name" && f !== "description").map(
                (f) =>
                  templateErrors.field(f) && (
                    <Text key={f} c="red" size="sm">
                      {templateErrors.field(f)}
                    </Text>
                  ),
              )}
              <GeneralErrors messages={templateErrors.general} />
              <Group justify="flex-end">
                <Button variant="default" onClick={() => setSaving(null)}>
                  {t("common.cancel")}
                </Button>
                <Button type="submit" loading={templateSaving} data-testid="template-save-submit">
                  {t("common.save")}
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Modal>
    </form>
  );
}

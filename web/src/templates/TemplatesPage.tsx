import { useState } from "react";
import { Button, Modal, Select, Stack, Table, Text, TextInput, Textarea } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import { useLanguage } from "../i18n";
import { useFieldErrors } from "../common/errors";
import { formatDateTime, formatMib } from "../common/format";
import { envFromTemplate } from "../sessions/sessionDraft";
import { Pager, useCursorPages } from "../common/pagination";
import { Empty, FormActions, GeneralErrors, PageHeader, QueryState } from "../common/ui";
import { useOfferings } from "../common/options";
import { useViewer } from "../app/viewer";

const TemplatesDocument = graphql(`
  query Templates($first: Int, $after: String) {
    templates(first: $first, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        id
        name
        description
        createdAt
        groupId
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
    images(first: 100) {
      nodes {
        id
        name
      }
    }
    presets(first: 100) {
      nodes {
        id
        name
      }
    }
  }
`);

const TemplateCreateDocument = graphql(`
  mutation TemplateCreate($input: TemplateCreateInput!) {
    templateCreate(input: $input) {
      template {
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

const TemplateDeleteDocument = graphql(`
  mutation TemplateDelete($input: IdInput!) {
    templateDelete(input: $input) {
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

export default function TemplatesPage() {
  const { t, language } = useLanguage();
  const { me } = useViewer();
  const offerings = useOfferings();
  const pages = useCursorPages();
  const [r, refetch] = useQuery({ query: TemplatesDocument, variables: pages.variables });
  const [editing, setEditing] = useState<{ groupId: string | null; name: string; imageId: string | null; presetId: string | null; offeringId: string | null; description: string } | null>(null);
  const [local, setLocal] = useState<Record<string, string>>({});
  const [{ fetching }, create] = useMutation(TemplateCreateDocument);
  const [, del] = useMutation(TemplateDeleteDocument);
  const errors = useFieldErrors(["groupId", "name", "imageId", "presetId", "offeringId", "description"]);
  const listErrors = useFieldErrors([]);
  const conn = r.data?.templates;
  const imageName = new Map((r.data?.images.nodes ?? []).map((i) => [i.id, i.name]));
  const presetName = new Map((r.data?.presets.nodes ?? []).map((i) => [i.id, i.name]));
  const groupName = new Map(me.memberships.map((m) => [m.group.id, `${m.group.organization.name} / ${m.group.name}`]));
  const reload = () => refetch({ requestPolicy: "network-only" });

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!editing) return;
    const p: Record<string, string> = {};
    if (!editing.groupId) p.groupId = t("validation.required");
    if (!editing.name.trim()) p.name = t("validation.required");
    if (!editing.imageId) p.imageId = t("validation.required");
    setLocal(p);
    if (Object.keys(p).length) return;
    const res = await create({
      input: { groupId: editing.groupId!, name: editing.name.trim(), imageId: editing.imageId!, presetId: editing.presetId, offeringId: editing.offeringId, description: editing.description },
    });
    if (errors.take(res, (d) => d.templateCreate)) {
      setEditing(null);
      reload();
    }
  };

  return (
    <Stack>
      <PageHeader
        title={t("nav.templates")}
        description={t("templates.description")}
        actions={
          <Button
            onClick={() => {
              errors.clear();
              setLocal({});
              setEditing({ groupId: me.activeGroup?.id ?? null, name: "", imageId: null, presetId: null, offeringId: null, description: "" });
            }}
          >
            {t("templates.add")}
          </Button>
        }
      />
      <GeneralErrors messages={listErrors.general} />
      <QueryState fetching={r.fetching} error={r.error}>
        {conn && conn.nodes.length === 0 && <Empty>{t("templates.none")}</Empty>}
        {conn && conn.nodes.length > 0 && (
          <Table striped withTableBorder>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("sessions.name")}</Table.Th>
                <Table.Th>{t("groups.name")}</Table.Th>
                <Table.Th>{t("sessions.image")}</Table.Th>
                <Table.Th>{t("templates.instance")}</Table.Th>
                <Table.Th>{t("templates.details")}</Table.Th>
                <Table.Th>{t("common.created")}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {conn.nodes.map((x) => (
                <Table.Tr key={x.id}>
                  <Table.Td>{x.name}</Table.Td>
                  <Table.Td>{groupName.get(x.groupId) ?? "—"}</Table.Td>
                  <Table.Td>{imageName.get(x.imageId) ?? "—"}</Table.Td>
                  <Table.Td>
                    {x.presetId ? (presetName.get(x.presetId) ?? "—") : x.cpuMillicores != null ? `${x.cpuMillicores / 1000} CPU · ${formatMib(x.memoryMib ?? 0)}` : "—"}
                  </Table.Td>
                  <Table.Td data-testid="template-details">
                    <Text size="sm" ff="monospace" translate="no">
                      {[
                        envFromTemplate(x.env)
                          .map((e) => e.name)
                          .join(", "),
                        x.shmMib != null ? `shm ${formatMib(x.shmMib)}` : "",
                        x.mounts.map((m) => m.mountPath).join(", "),
                      ]
                        .filter(Boolean)
                        .join(" · ") || "—"}
                    </Text>
                  </Table.Td>
                  <Table.Td>{formatDateTime(x.createdAt, language)}</Table.Td>
                  <Table.Td>
                    <Button
                      size="xs"
                      color="red"
                      variant="light"
                      onClick={async () => {
                        if (!window.confirm(t("common.deleteConfirm", { name: x.name }))) return;
                        if (listErrors.take(await del({ input: { id: x.id } }), (d) => d.templateDelete)) reload();
                      }}
                    >
                      {t("common.delete")}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <Pager pages={pages} pageInfo={conn?.pageInfo} totalCount={conn?.totalCount} fetching={r.fetching} />
      </QueryState>
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={t("templates.add")}>
        {editing && (
          <form onSubmit={save} noValidate>
            <Stack>
              <Select label={t("groups.name")} data={me.memberships.map((m) => ({ value: m.group.id, label: groupName.get(m.group.id)! }))} value={editing.groupId} onChange={(v) => setEditing({ ...editing, groupId: v })} error={local.groupId ?? errors.field("groupId")} />
              <TextInput label={t("sessions.name")} value={editing.name} onChange={(e) => setEditing({ ...editing, name: e.currentTarget.value })} error={local.name ?? errors.field("name")} />
              <Select label={t("sessions.image")} data={(r.data?.images.nodes ?? []).map((i) => ({ value: i.id, label: i.name }))} value={editing.imageId} onChange={(v) => setEditing({ ...editing, imageId: v })} error={local.imageId ?? errors.field("imageId")} searchable />
              <Select label={t("sessions.offering")} data={offerings.map((o) => ({ value: o.id, label: `${o.vendor} ${o.name}` }))} value={editing.offeringId} onChange={(v) => setEditing({ ...editing, offeringId: v })} clearable error={errors.field("offeringId")} />
              <Select label={t("sessions.preset")} data={(r.data?.presets.nodes ?? []).map((i) => ({ value: i.id, label: i.name }))} value={editing.presetId} onChange={(v) => setEditing({ ...editing, presetId: v })} clearable error={errors.field("presetId")} />
              <Textarea label={t("common.description")} value={editing.description} onChange={(e) => setEditing({ ...editing, description: e.currentTarget.value })} error={errors.field("description")} />
              <GeneralErrors messages={errors.general} />
              <FormActions onCancel={() => setEditing(null)} saving={fetching} />
            </Stack>
          </form>
        )}
      </Modal>
    </Stack>
  );
}

import { useState } from "react";
import { Badge, Button, Modal, NumberInput, Select, Stack, Table, TextInput } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import type { MountMode } from "../gql/graphql";
import { useLanguage } from "../i18n";
import { useFieldErrors } from "../common/errors";
import { formatDateTime, formatMib } from "../common/format";
import { Pager, useCursorPages } from "../common/pagination";
import { Empty, FormActions, GeneralErrors, PageHeader, QueryState } from "../common/ui";
import { checkInt } from "../common/validation";
import { useViewer } from "../app/viewer";

const VolumesDocument = graphql(`
  query Volumes($first: Int, $after: String) {
    volumes(first: $first, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        id
        name
        scope
        storageClass
        sizeMib
        memberMode
        myMountMode
        createdAt
        groupId
      }
    }
    storageClasses {
      name
      description
      isDefault
    }
  }
`);

const VolumeCreateDocument = graphql(`
  mutation VolumeCreate($input: VolumeCreateInput!) {
    volumeCreate(input: $input) {
      volume {
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

const VolumeDeleteDocument = graphql(`
  mutation VolumeDelete($input: IdInput!) {
    volumeDelete(input: $input) {
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

export default function VolumesPage() {
  const { t, language } = useLanguage();
  const { me } = useViewer();
  const pages = useCursorPages();
  const [r, refetch] = useQuery({ query: VolumesDocument, variables: pages.variables });
  const [editing, setEditing] = useState<{ name: string; sizeGib: string; storageClass: string | null; groupId: string | null; memberMode: MountMode } | null>(null);
  const [local, setLocal] = useState<Record<string, string>>({});
  const [{ fetching }, create] = useMutation(VolumeCreateDocument);
  const [, del] = useMutation(VolumeDeleteDocument);
  const errors = useFieldErrors(["name", "sizeMib", "storageClass", "groupId", "memberMode"]);
  const listErrors = useFieldErrors([]);
  const conn = r.data?.volumes;
  const reload = () => refetch({ requestPolicy: "network-only" });
  const adminGroups = me.memberships.filter((m) => m.role === "GROUP_ADMIN" || m.role === "ORG_ADMIN" || me.isSuperAdmin);

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!editing) return;
    const p: Record<string, string> = {};
    if (!editing.name.trim()) p.name = t("validation.required");
    const size = checkInt(editing.sizeGib, 1, 100_000);
    if (size) p.sizeMib = t(`validation.${size}`);
    setLocal(p);
    if (Object.keys(p).length) return;
    const res = await create({
      input: { name: editing.name.trim(), sizeMib: Number(editing.sizeGib) * 1024, storageClass: editing.storageClass, groupId: editing.groupId, memberMode: editing.memberMode },
    });
    if (errors.take(res, (d) => d.volumeCreate)) {
      setEditing(null);
      reload();
    }
  };

  return (
    <Stack>
      <PageHeader
        title={t("nav.volumes")}
        description={t("volumes.description")}
        actions={
          <Button
            onClick={() => {
              errors.clear();
              setLocal({});
              setEditing({ name: "", sizeGib: "10", storageClass: null, groupId: null, memberMode: "READ_WRITE" });
            }}
          >
            {t("volumes.add")}
          </Button>
        }
      />
      <GeneralErrors messages={listErrors.general} />
      <QueryState fetching={r.fetching} error={r.error}>
        {conn && conn.nodes.length === 0 && <Empty>{t("volumes.none")}</Empty>}
        {conn && conn.nodes.length > 0 && (
          <Table striped withTableBorder>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("volumes.name")}</Table.Th>
                <Table.Th>{t("volumes.size")}</Table.Th>
                <Table.Th>{t("images.scope")}</Table.Th>
                <Table.Th>{t("volumes.storageClass")}</Table.Th>
                <Table.Th>{t("volumes.myMode")}</Table.Th>
                <Table.Th>{t("common.created")}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {conn.nodes.map((v) => (
                <Table.Tr key={v.id}>
                  <Table.Td>{v.name}</Table.Td>
                  <Table.Td>{formatMib(v.sizeMib)}</Table.Td>
                  <Table.Td>
                    <Badge variant="light">{t(`volumes.scope.${v.scope}`)}</Badge>
                  </Table.Td>
                  <Table.Td>{v.storageClass}</Table.Td>
                  <Table.Td>{v.myMountMode ? t(`mount.${v.myMountMode}`) : "—"}</Table.Td>
                  <Table.Td>{formatDateTime(v.createdAt, language)}</Table.Td>
                  <Table.Td>
                    <Button
                      size="xs"
                      color="red"
                      variant="light"
                      onClick={async () => {
                        if (!window.confirm(t("common.deleteConfirm", { name: v.name }))) return;
                        if (listErrors.take(await del({ input: { id: v.id } }), (d) => d.volumeDelete)) reload();
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
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={t("volumes.add")}>
        {editing && (
          <form onSubmit={save} noValidate>
            <Stack>
              <TextInput label={t("volumes.name")} value={editing.name} onChange={(e) => setEditing({ ...editing, name: e.currentTarget.value })} error={local.name ?? errors.field("name")} />
              <NumberInput label={t("volumes.sizeGib")} value={editing.sizeGib} min={1} onChange={(v) => setEditing({ ...editing, sizeGib: String(v) })} error={local.sizeMib ?? errors.field("sizeMib")} />
              <Select
                label={t("volumes.storageClass")}
                data={(r.data?.storageClasses ?? []).map((s) => ({ value: s.name, label: s.isDefault ? `${s.name} (${t("groups.default")})` : s.name }))}
                value={editing.storageClass}
                onChange={(v) => setEditing({ ...editing, storageClass: v })}
                clearable
                error={errors.field("storageClass")}
              />
              <Select
                label={t("volumes.shareWith")}
                description={t("volumes.shareHint")}
                data={adminGroups.map((m) => ({ value: m.group.id, label: `${m.group.organization.name} / ${m.group.name}` }))}
                value={editing.groupId}
                onChange={(v) => setEditing({ ...editing, groupId: v })}
                clearable
                error={errors.field("groupId")}
              />
              {editing.groupId && (
                <Select
                  label={t("volumes.memberMode")}
                  data={(["READ_WRITE", "READ_ONLY"] as MountMode[]).map((m) => ({ value: m, label: t(`mount.${m}`) }))}
                  value={editing.memberMode}
                  onChange={(v) => setEditing({ ...editing, memberMode: (v as MountMode) ?? "READ_WRITE" })}
                  allowDeselect={false}
                  error={errors.field("memberMode")}
                />
              )}
              <GeneralErrors messages={errors.general} />
              <FormActions onCancel={() => setEditing(null)} saving={fetching} />
            </Stack>
          </form>
        )}
      </Modal>
    </Stack>
  );
}

import { useState } from "react";
import { Badge, Button, Group, Modal, Select, Stack, Table, Text, TextInput, Textarea } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import type { ImageScope } from "../gql/graphql";
import { useLanguage } from "../i18n";
import { useFieldErrors } from "../common/errors";
import { formatDateTime } from "../common/format";
import { Pager, useCursorPages } from "../common/pagination";
import { Empty, FormActions, GeneralErrors, QueryState } from "../common/ui";
import { checkCuda } from "../common/validation";
import { useOrganizationOptions, useRegistryOptions } from "../common/options";

const ImagesDocument = graphql(`
  query Images($first: Int, $after: String) {
    images(first: $first, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        id
        name
        reference
        cudaVersion
        scope
        description
        createdAt
        registry {
          id
          name
        }
        organization {
          id
          name
        }
      }
    }
  }
`);

const ImageCreateDocument = graphql(`
  mutation ImageCreate($input: ImageCreateInput!) {
    imageCreate(input: $input) {
      image {
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

const ImageUpdateDocument = graphql(`
  mutation ImageUpdate($input: ImageUpdateInput!) {
    imageUpdate(input: $input) {
      image {
        id
        name
        reference
        cudaVersion
        description
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

const ImageDeleteDocument = graphql(`
  mutation ImageDelete($input: IdInput!) {
    imageDelete(input: $input) {
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

interface Editing {
  id?: string;
  name: string;
  reference: string;
  cudaVersion: string;
  description: string;
  scope: ImageScope;
  organizationId: string | null;
  registryId: string | null;
}

const blank = (scope: ImageScope): Editing => ({
  name: "",
  reference: "",
  cudaVersion: "",
  description: "",
  scope,
  organizationId: null,
  registryId: null,
});

/** Images the viewer can see; `admin` adds global and organisation scopes to the form. */
export function ImagesPanel({ admin }: { admin: boolean }) {
  const { t, language } = useLanguage();
  const pages = useCursorPages();
  const [result, refetch] = useQuery({ query: ImagesDocument, variables: pages.variables });
  const [editing, setEditing] = useState<Editing | null>(null);
  const [local, setLocal] = useState<Record<string, string>>({});
  const [{ fetching: saving }, create] = useMutation(ImageCreateDocument);
  const [, update] = useMutation(ImageUpdateDocument);
  const [{ fetching: deleting }, del] = useMutation(ImageDeleteDocument);
  const errors = useFieldErrors(["name", "reference", "cudaVersion", "scope", "organizationId", "registryId", "description"]);
  const listErrors = useFieldErrors([]);
  const orgs = useOrganizationOptions(true);
  const registries = useRegistryOptions();
  const conn = result.data?.images;

  const open = (e: Editing) => {
    errors.clear();
    setLocal({});
    setEditing(e);
  };

  const save = async (ev: React.FormEvent) => {
    ev.preventDefault();
    if (!editing) return;
    const problems: Record<string, string> = {};
    if (!editing.name.trim()) problems.name = t("validation.required");
    if (!editing.reference.trim()) problems.reference = t("validation.required");
    if (checkCuda(editing.cudaVersion, true)) problems.cudaVersion = t("validation.cuda");
    if (editing.scope === "ORGANIZATION" && !editing.organizationId) problems.organizationId = t("validation.required");
    setLocal(problems);
    if (Object.keys(problems).length) return;
    const common = {
      name: editing.name.trim(),
      reference: editing.reference.trim(),
      cudaVersion: editing.cudaVersion.trim() || null,
      description: editing.description,
    };
    const ok = editing.id
      ? errors.take(await update({ input: { id: editing.id, ...common } }), (d) => d.imageUpdate)
      : errors.take(
          await create({
            input: {
              ...common,
              scope: editing.scope,
              organizationId: editing.scope === "ORGANIZATION" ? editing.organizationId : null,
              registryId: editing.registryId,
            },
          }),
          (d) => d.imageCreate,
        );
    if (ok) {
      setEditing(null);
      refetch({ requestPolicy: "network-only" });
    }
  };

  const scopes: ImageScope[] = admin ? ["GLOBAL", "ORGANIZATION", "PERSONAL"] : ["PERSONAL"];
  return (
    <Stack>
      <Group justify="flex-end">
        <Button onClick={() => open(blank(admin ? "GLOBAL" : "PERSONAL"))} data-testid="image-add">
          {t("images.add")}
        </Button>
      </Group>
      <GeneralErrors messages={listErrors.general} />
      <QueryState fetching={result.fetching} error={result.error}>
        {conn && conn.nodes.length === 0 ? (
          <Empty>{t("images.none")}</Empty>
        ) : (
          conn && (
            <Table striped withTableBorder>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t("images.name")}</Table.Th>
                  <Table.Th>{t("images.reference")}</Table.Th>
                  <Table.Th>CUDA</Table.Th>
                  <Table.Th>{t("images.scope")}</Table.Th>
                  <Table.Th>{t("images.registry")}</Table.Th>
                  <Table.Th>{t("common.created")}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {conn.nodes.map((img) => (
                  <Table.Tr key={img.id}>
                    <Table.Td>{img.name}</Table.Td>
                    <Table.Td>
                      <Text size="sm" ff="monospace">
                        {img.reference}
                      </Text>
                    </Table.Td>
                    <Table.Td>{img.cudaVersion ?? t("images.cpuOnly")}</Table.Td>
                    <Table.Td>
                      <Badge variant="light">
                        {t(`images.scope.${img.scope}`)}
                        {img.organization ? ` · ${img.organization.name}` : ""}
                      </Badge>
                    </Table.Td>
                    <Table.Td>{img.registry?.name ?? "—"}</Table.Td>
                    <Table.Td>{formatDateTime(img.createdAt, language)}</Table.Td>
                    <Table.Td>
                      {(admin || img.scope === "PERSONAL") && (
                        <Group gap={4} wrap="nowrap">
                          <Button
                            size="xs"
                            variant="default"
                            onClick={() =>
                              open({
                                id: img.id,
                                name: img.name,
                                reference: img.reference,
                                cudaVersion: img.cudaVersion ?? "",
                                description: img.description,
                                scope: img.scope,
                                organizationId: img.organization?.id ?? null,
                                registryId: img.registry?.id ?? null,
                              })
                            }
                          >
                            {t("common.edit")}
                          </Button>
                          <Button
                            size="xs"
                            color="red"
                            variant="light"
                            loading={deleting}
                            onClick={async () => {
                              if (!window.confirm(t("common.deleteConfirm", { name: img.name }))) return;
                              if (listErrors.take(await del({ input: { id: img.id } }), (d) => d.imageDelete))
                                refetch({ requestPolicy: "network-only" });
                            }}
                          >
                            {t("common.delete")}
                          </Button>
                        </Group>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )
        )}
        <Pager pages={pages} pageInfo={conn?.pageInfo} totalCount={conn?.totalCount} fetching={result.fetching} />
      </QueryState>
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={editing?.id ? t("images.edit") : t("images.add")}>
        {editing && (
          <form onSubmit={save} noValidate>
            <Stack>
              <TextInput label={t("images.name")} value={editing.name} onChange={(e) => setEditing({ ...editing, name: e.currentTarget.value })} error={local.name ?? errors.field("name")} />
              <TextInput
                label={t("images.reference")}
                placeholder="nvcr.io/nvidia/pytorch:24.05-py3"
                value={editing.reference}
                onChange={(e) => setEditing({ ...editing, reference: e.currentTarget.value })}
                error={local.reference ?? errors.field("reference")}
              />
              <TextInput
                label={t("images.cudaVersion")}
                description={t("images.cudaHint")}
                placeholder="12.4"
                value={editing.cudaVersion}
                onChange={(e) => setEditing({ ...editing, cudaVersion: e.currentTarget.value })}
                error={local.cudaVersion ?? errors.field("cudaVersion")}
              />
              {!editing.id && (
                <>
                  <Select
                    label={t("images.scope")}
                    data={scopes.map((s) => ({ value: s, label: t(`images.scope.${s}`) }))}
                    value={editing.scope}
                    onChange={(v) => setEditing({ ...editing, scope: (v as ImageScope) ?? "PERSONAL" })}
                    allowDeselect={false}
                    error={errors.field("scope")}
                  />
                  {editing.scope === "ORGANIZATION" && (
                    <Select
                      label={t("common.organization")}
                      data={orgs}
                      value={editing.organizationId}
                      onChange={(v) => setEditing({ ...editing, organizationId: v })}
                      error={local.organizationId ?? errors.field("organizationId")}
                    />
                  )}
                  <Select
                    label={t("images.registry")}
                    data={registries}
                    value={editing.registryId}
                    onChange={(v) => setEditing({ ...editing, registryId: v })}
                    clearable
                    error={errors.field("registryId")}
                  />
                </>
              )}
              <Textarea label={t("common.description")} value={editing.description} onChange={(e) => setEditing({ ...editing, description: e.currentTarget.value })} error={errors.field("description")} />
              <GeneralErrors messages={errors.general} />
              <FormActions onCancel={() => setEditing(null)} saving={saving} />
            </Stack>
          </form>
        )}
      </Modal>
    </Stack>
  );
}

import { useState } from "react";
import { Badge, Button, Group, Modal, Select, Stack, Table, TextInput, Textarea } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../../gql";
import { useLanguage } from "../../i18n";
import { useFieldErrors } from "../../common/errors";
import { formatDateTime } from "../../common/format";
import { Pager, useCursorPages } from "../../common/pagination";
import { Empty, GeneralErrors, QueryState } from "../../common/ui";
import { useOrganizationOptions } from "../../common/options";

const RegistriesDocument = graphql(`
  query Registries($first: Int, $after: String) {
    registries(first: $first, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        id
        name
        url
        description
        createdAt
        organization {
          id
          name
        }
      }
    }
  }
`);

const RegistryCreateDocument = graphql(`
  mutation RegistryCreate($input: RegistryCreateInput!) {
    registryCreate(input: $input) {
      registry {
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

const RegistryUpdateDocument = graphql(`
  mutation RegistryUpdate($input: RegistryUpdateInput!) {
    registryUpdate(input: $input) {
      registry {
        id
        name
        url
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

const RegistryDeleteDocument = graphql(`
  mutation RegistryDelete($input: IdInput!) {
    registryDelete(input: $input) {
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
  url: string;
  description: string;
  organizationId: string | null;
}

export function RegistriesPanel({ superAdmin }: { superAdmin: boolean }) {
  const { t, language } = useLanguage();
  const pages = useCursorPages();
  const [r, refetch] = useQuery({ query: RegistriesDocument, variables: pages.variables });
  const [editing, setEditing] = useState<Editing | null>(null);
  const [local, setLocal] = useState<Record<string, string>>({});
  const [{ fetching: c }, create] = useMutation(RegistryCreateDocument);
  const [{ fetching: u }, update] = useMutation(RegistryUpdateDocument);
  const [, del] = useMutation(RegistryDeleteDocument);
  const errors = useFieldErrors(["name", "url", "description", "organizationId"]);
  const listErrors = useFieldErrors([]);
  const orgs = useOrganizationOptions(true);
  const conn = r.data?.registries;
  const reload = () => refetch({ requestPolicy: "network-only" });
  const err = (f: string) => local[f] ?? errors.field(f);

  const save = async (ev: React.FormEvent) => {
    ev.preventDefault();
    if (!editing) return;
    const problems: Record<string, string> = {};
    if (!editing.name.trim()) problems.name = t("validation.required");
    if (!editing.url.trim()) problems.url = t("validation.required");
    if (!superAdmin && !editing.id && !editing.organizationId) problems.organizationId = t("validation.required");
    setLocal(problems);
    if (Object.keys(problems).length) return;
    const base = { name: editing.name.trim(), url: editing.url.trim(), description: editing.description };
    const ok = editing.id
      ? errors.take(await update({ input: { id: editing.id, ...base } }), (d) => d.registryUpdate)
      : errors.take(await create({ input: { ...base, organizationId: editing.organizationId } }), (d) => d.registryCreate);
    if (ok) {
      setEditing(null);
      reload();
    }
  };

  return (
    <Stack>
      <Group justify="flex-end">
        <Button
          onClick={() => {
            errors.clear();
            setLocal({});
            setEditing({ name: "", url: "", description: "", organizationId: null });
          }}
        >
          {t("registries.add")}
        </Button>
      </Group>
      <GeneralErrors messages={listErrors.general} />
      <QueryState fetching={r.fetching} error={r.error}>
        {conn && conn.nodes.length === 0 && <Empty>{t("registries.none")}</Empty>}
        {conn && conn.nodes.length > 0 && (
          <Table striped withTableBorder>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("registries.name")}</Table.Th>
                <Table.Th>URL</Table.Th>
                <Table.Th>{t("images.scope")}</Table.Th>
                <Table.Th>{t("common.created")}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {conn.nodes.map((g) => (
                <Table.Tr key={g.id}>
                  <Table.Td>{g.name}</Table.Td>
                  <Table.Td ff="monospace">{g.url}</Table.Td>
                  <Table.Td>
                    <Badge variant="light">{g.organization ? g.organization.name : t("images.scope.GLOBAL")}</Badge>
                  </Table.Td>
                  <Table.Td>{formatDateTime(g.createdAt, language)}</Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <Button
                        size="xs"
                        variant="default"
                        onClick={() => {
                          errors.clear();
                          setLocal({});
                          setEditing({ id: g.id, name: g.name, url: g.url, description: g.description, organizationId: g.organization?.id ?? null });
                        }}
                      >
                        {t("common.edit")}
                      </Button>
                      <Button
                        size="xs"
                        color="red"
                        variant="light"
                        onClick={async () => {
                          if (!window.confirm(t("common.deleteConfirm", { name: g.name }))) return;
                          if (listErrors.take(await del({ input: { id: g.id } }), (d) => d.registryDelete)) reload();
                        }}
                      >
                        {t("common.delete")}
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <Pager pages={pages} pageInfo={conn?.pageInfo} totalCount={conn?.totalCount} fetching={r.fetching} />
      </QueryState>
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={editing?.id ? t("registries.edit") : t("registries.add")}>
        {editing && (
          <form onSubmit={save} noValidate>
            <Stack>
              <TextInput label={t("registries.name")} value={editing.name} onChange={(e) => setEditing({ ...editing, name: e.currentTarget.value })} error={err("name")} />
              <TextInput label="URL" placeholder="https://registry.example.org" value={editing.url} onChange={(e) => setEditing({ ...editing, url: e.currentTarget.value })} error={err("url")} />
              {!editing.id && (
                <Select
                  label={t("common.organization")}
                  description={superAdmin ? t("registries.globalHint") : undefined}
                  data={orgs}
                  value={editing.organizationId}
                  onChange={(v) => setEditing({ ...editing, organizationId: v })}
                  clearable={superAdmin}
                  error={err("organizationId")}
                />
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

import { useState } from "react";
import { Anchor, Badge, Button, Group, Modal, Stack, Table, TextInput, Textarea } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { Link } from "wouter";
import { graphql } from "../../gql";
import { useLanguage } from "../../i18n";
import { useFieldErrors } from "../../common/errors";
import { formatDateTime } from "../../common/format";
import { Pager, useCursorPages } from "../../common/pagination";
import { Empty, GeneralErrors, PageHeader, QueryState } from "../../common/ui";
import { checkSlug } from "../../common/validation";
import { useViewer } from "../../app/viewer";

const OrganizationsDocument = graphql(`
  query Organizations($first: Int, $after: String) {
    organizations(first: $first, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        id
        name
        slug
        description
        createdAt
        viewerIsAdmin
      }
    }
  }
`);

export const OrganizationCreateDocument = graphql(`
  mutation OrganizationCreate($input: OrganizationCreateInput!) {
    organizationCreate(input: $input) {
      organization {
        id
        name
        slug
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

export const OrganizationUpdateDocument = graphql(`
  mutation OrganizationUpdate($input: OrganizationUpdateInput!) {
    organizationUpdate(input: $input) {
      organization {
        id
        name
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

interface Editing {
  id?: string;
  name: string;
  slug: string;
  description: string;
}

export function OrganizationForm({ initial, onDone, onCancel }: { initial: Editing; onDone(id: string): void; onCancel(): void }) {
  const { t } = useLanguage();
  const [v, setV] = useState(initial);
  const [local, setLocal] = useState<Record<string, string>>({});
  const [{ fetching: creating }, create] = useMutation(OrganizationCreateDocument);
  const [{ fetching: updating }, update] = useMutation(OrganizationUpdateDocument);
  const errors = useFieldErrors(["name", "slug", "description"]);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const problems: Record<string, string> = {};
    if (!v.name.trim()) problems.name = t("validation.required");
    if (!v.id && checkSlug(v.slug)) problems.slug = t("validation.slug");
    setLocal(problems);
    if (Object.keys(problems).length) return;
    if (v.id) {
      const r = await update({ input: { id: v.id, name: v.name.trim(), description: v.description } });
      if (errors.take(r, (d) => d.organizationUpdate)) onDone(v.id);
    } else {
      const r = await create({ input: { name: v.name.trim(), slug: v.slug.trim() || null, description: v.description } });
      if (errors.take(r, (d) => d.organizationCreate)) onDone(r.data!.organizationCreate.organization!.id);
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <TextInput label={t("orgs.name")} name="name" value={v.name} onChange={(e) => setV({ ...v, name: e.currentTarget.value })} error={local.name ?? errors.field("name")} data-autofocus />
        {!v.id && (
          <TextInput
            label={t("orgs.slug")}
            name="slug"
            description={t("orgs.slugHint")}
            value={v.slug}
            onChange={(e) => setV({ ...v, slug: e.currentTarget.value })}
            error={local.slug ?? errors.field("slug")}
          />
        )}
        <Textarea label={t("common.description")} value={v.description} onChange={(e) => setV({ ...v, description: e.currentTarget.value })} error={errors.field("description")} />
        <GeneralErrors messages={errors.general} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t("common.cancel")}
          </Button>
          <Button type="submit" loading={creating || updating}>
            {t("common.save")}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export default function OrganizationsPage() {
  const { t, language } = useLanguage();
  const { admin } = useViewer();
  const pages = useCursorPages();
  const [result, refetch] = useQuery({ query: OrganizationsDocument, variables: pages.variables });
  const [editing, setEditing] = useState<Editing | null>(null);
  const conn = result.data?.organizations;

  return (
    <Stack>
      <PageHeader
        title={t("nav.organizations")}
        actions={
          admin.superAdmin && (
            <Button onClick={() => setEditing({ name: "", slug: "", description: "" })} data-testid="org-add">
              {t("orgs.add")}
            </Button>
          )
        }
      />
      <QueryState fetching={result.fetching} error={result.error}>
        {conn && conn.nodes.length === 0 && <Empty>{t("orgs.none")}</Empty>}
        {conn && conn.nodes.length > 0 && (
          <Table striped withTableBorder>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("orgs.name")}</Table.Th>
                <Table.Th>{t("orgs.slug")}</Table.Th>
                <Table.Th>{t("common.description")}</Table.Th>
                <Table.Th>{t("common.created")}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {conn.nodes.map((o) => (
                <Table.Tr key={o.id}>
                  <Table.Td>
                    <Anchor component={Link} href={`/admin/organizations/${encodeURIComponent(o.id)}`}>
                      {o.name}
                    </Anchor>
                    {o.viewerIsAdmin && (
                      <Badge ml="xs" size="xs" variant="light">
                        {t("orgs.youAdminister")}
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>{o.slug}</Table.Td>
                  <Table.Td>{o.description}</Table.Td>
                  <Table.Td>{formatDateTime(o.createdAt, language)}</Table.Td>
                  <Table.Td>
                    {o.viewerIsAdmin && (
                      <Button size="xs" variant="default" onClick={() => setEditing({ id: o.id, name: o.name, slug: o.slug, description: o.description })}>
                        {t("common.edit")}
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <Pager pages={pages} pageInfo={conn?.pageInfo} totalCount={conn?.totalCount} fetching={result.fetching} />
      </QueryState>
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={editing?.id ? t("orgs.edit") : t("orgs.add")}>
        {editing && (
          <OrganizationForm
            initial={editing}
            onCancel={() => setEditing(null)}
            onDone={() => {
              setEditing(null);
              refetch({ requestPolicy: "network-only" });
            }}
          />
        )}
      </Modal>
    </Stack>
  );
}

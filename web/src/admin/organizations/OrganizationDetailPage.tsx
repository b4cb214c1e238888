import { useState } from "react";
import { Anchor, Badge, Button, Group, Modal, Paper, Stack, Table, Tabs, Text, TextInput, Textarea, Title } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { useMutation, useQuery } from "urql";
import { Link, useParams } from "wouter";
import { graphql } from "../../gql";
import { useLanguage } from "../../i18n";
import { useFieldErrors } from "../../common/errors";
import { formatDateTime } from "../../common/format";
import { Pager, useCursorPages } from "../../common/pagination";
import { Empty, GeneralErrors, PageHeader, QueryState } from "../../common/ui";
import { UserCreateForm } from "../users/UserCreateForm";
import { OrganizationForm } from "./OrganizationsPage";

/** The description the server gives every organisation's default group (domain/tenancy). */
const SERVER_DEFAULT_GROUP_DESCRIPTION = "Everyone in the organisation";

const OrganizationDocument = graphql(`
  query Organization($id: ID!) {
    node(id: $id) {
      ... on Organization {
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

const OrganizationGroupsDocument = graphql(`
  query OrganizationGroups($id: ID!, $first: Int, $after: String) {
    node(id: $id) {
      ... on Organization {
        id
        groups(first: $first, after: $after) {
          totalCount
          pageInfo {
            hasNextPage
            endCursor
          }
          nodes {
            id
            name
            description
            isDefault
            createdAt
            viewerIsAdmin
            members(first: 1) {
              totalCount
            }
          }
        }
      }
    }
  }
`);

const OrganizationUsersDocument = graphql(`
  query OrganizationUsers($id: ID!, $search: String, $first: Int, $after: String) {
    node(id: $id) {
      ... on Organization {
        id
        users(search: $search, first: $first, after: $after) {
          totalCount
          pageInfo {
            hasNextPage
            endCursor
          }
          nodes {
            id
            username
            displayName
            email
            isActive
            adminOf {
              id
            }
          }
        }
      }
    }
  }
`);

const GroupCreateDocument = graphql(`
  mutation GroupCreate($input: GroupCreateInput!) {
    groupCreate(input: $input) {
      group {
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

const GroupUpdateDocument = graphql(`
  mutation GroupUpdate($input: GroupUpdateInput!) {
    groupUpdate(input: $input) {
      group {
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

const GroupDeleteDocument = graphql(`
  mutation GroupDelete($input: IdInput!) {
    groupDelete(input: $input) {
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

export const UserOrgAdminSetDocument = graphql(`
  mutation UserOrgAdminSet($input: UserOrgAdminSetInput!) {
    userOrgAdminSet(input: $input) {
      user {
        id
        adminOf {
          id
          name
        }
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

function GroupForm({ organizationId, initial, onDone, onCancel }: { organizationId: string; initial: { id?: string; name: string; description: string }; onDone(): void; onCancel(): void }) {
  const { t } = useLanguage();
  const [v, setV] = useState(initial);
  const [local, setLocal] = useState<Record<string, string>>({});
  const [{ fetching: c }, create] = useMutation(GroupCreateDocument);
  const [{ fetching: u }, update] = useMutation(GroupUpdateDocument);
  const errors = useFieldErrors(["name", "description"]);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!v.name.trim()) {
      setLocal({ name: t("validation.required") });
      return;
    }
    setLocal({});
    const ok = v.id
      ? errors.take(await update({ input: { id: v.id, name: v.name.trim(), description: v.description } }), (d) => d.groupUpdate)
      : errors.take(await create({ input: { organizationId, name: v.name.trim(), description: v.description } }), (d) => d.groupCreate);
    if (ok) onDone();
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <TextInput label={t("groups.name")} name="name" value={v.name} onChange={(e) => setV({ ...v, name: e.currentTarget.value })} error={local.name ?? errors.field("name")} />
        <Textarea label={t("common.description")} value={v.description} onChange={(e) => setV({ ...v, description: e.currentTarget.value })} error={errors.field("description")} />
        <GeneralErrors messages={errors.general} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t("common.cancel")}
          </Button>
          <Button type="submit" loading={c || u}>
            {t("common.save")}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function GroupsTab({ organizationId }: { organizationId: string }) {
  const { t, language } = useLanguage();
  const pages = useCursorPages();
  const [r, refetch] = useQuery({ query: OrganizationGroupsDocument, variables: { id: organizationId, ...pages.variables } });
  const [editing, setEditing] = useState<{ id?: string; name: string; description: string } | null>(null);
  const [{ fetching: deleting }, del] = useMutation(GroupDeleteDocument);
  const listErrors = useFieldErrors([]);
  const conn = r.data?.node?.__typename === "Organization" ? r.data.node.groups : null;
  const reload = () => refetch({ requestPolicy: "network-only" });
  return (
    <Stack>
      <Group justify="flex-end">
        <Button onClick={() => setEditing({ name: "", description: "" })} data-testid="group-add">
          {t("groups.add")}
        </Button>
      </Group>
      <GeneralErrors messages={listErrors.general} />
      <QueryState fetching={r.fetching} error={r.error}>
        {conn && conn.nodes.length === 0 && <Empty>{t("groups.none")}</Empty>}
        {conn && conn.nodes.length > 0 && (
          <Table striped withTableBorder>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("groups.name")}</Table.Th>
                <Table.Th>{t("common.description")}</Table.Th>
                <Table.Th>{t("groups.members")}</Table.Th>
                <Table.Th>{t("common.created")}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {conn.nodes.map((g) => (
                <Table.Tr key={g.id}>
                  <Table.Td>
                    {g.name}
                    {g.isDefault && (
                      <Badge ml="xs" size="xs" variant="light">
                        {t("groups.default")}
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>{g.isDefault && g.description === SERVER_DEFAULT_GROUP_DESCRIPTION ? t("groups.defaultDescription") : g.description}</Table.Td>
                  <Table.Td>{g.members.totalCount}</Table.Td>
                  <Table.Td>{formatDateTime(g.createdAt, language)}</Table.Td>
                  <Table.Td>
                    {g.viewerIsAdmin && (
                      <Group gap={4} wrap="nowrap">
                        <Button size="xs" variant="default" onClick={() => setEditing({ id: g.id, name: g.name, description: g.description })}>
                          {t("common.edit")}
                        </Button>
                        {!g.isDefault && (
                          <Button
                            size="xs"
                            color="red"
                            variant="light"
                            loading={deleting}
                            onClick={async () => {
                              if (!window.confirm(t("common.deleteConfirm", { name: g.name }))) return;
                              if (listErrors.take(await del({ input: { id: g.id } }), (d) => d.groupDelete)) reload();
                            }}
                          >
                            {t("common.delete")}
                          </Button>
                        )}
                      </Group>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <Pager pages={pages} pageInfo={conn?.pageInfo} totalCount={conn?.totalCount} fetching={r.fetching} />
      </QueryState>
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={editing?.id ? t("groups.edit") : t("groups.add")}>
        {editing && (
          <GroupForm
            organizationId={organizationId}
            initial={editing}
            onCancel={() => setEditing(null)}
            onDone={() => {
              setEditing(null);
              reload();
            }}
          />
        )}
      </Modal>
    </Stack>
  );
}

function UsersTab({ organizationId }: { organizationId: string }) {
  const { t } = useLanguage();
  const [search, setSearch] = useState("");
  const [debounced] = useDebouncedValue(search, 250);
  const pages = useCursorPages(undefined, debounced);
  const [r, refetch] = useQuery({ query: OrganizationUsersDocument, variables: { id: organizationId, search: debounced || null, ...pages.variables } });
  const [creating, setCreating] = useState(false);
  const [{ fetching: setting }, setOrgAdmin] = useMutation(UserOrgAdminSetDocument);
  const listErrors = useFieldErrors([]);
  const conn = r.data?.node?.__typename === "Organization" ? r.data.node.users : null;
  return (
    <Stack>
      <Group justify="space-between">
        <TextInput placeholder={t("users.search")} value={search} onChange={(e) => setSearch(e.currentTarget.value)} w={280} aria-label={t("users.search")} />
        <Button onClick={() => setCreating(true)} data-testid="user-add">
          {t("users.add")}
        </Button>
      </Group>
      <GeneralErrors messages={listErrors.general} />
      <QueryState fetching={r.fetching} error={r.error}>
        {conn && conn.nodes.length === 0 && <Empty>{t("users.none")}</Empty>}
        {conn && conn.nodes.length > 0 && (
          <Table striped withTableBorder>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("users.username")}</Table.Th>
                <Table.Th>{t("users.displayName")}</Table.Th>
                <Table.Th>{t("users.email")}</Table.Th>
                <Table.Th>{t("common.status")}</Table.Th>
                <Table.Th>{t("users.orgAdmin")}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {conn.nodes.map((u) => {
                const isAdmin = u.adminOf.some((o) => o.id === organizationId);
                return (
                  <Table.Tr key={u.id}>
                    <Table.Td>
                      <Anchor component={Link} href={`/admin/users/${encodeURIComponent(u.id)}`}>
                        {u.username}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{u.displayName}</Table.Td>
                    <Table.Td>{u.email}</Table.Td>
                    <Table.Td>
                      <Badge color={u.isActive ? "teal" : "gray"}>{u.isActive ? t("users.active") : t("users.disabled")}</Badge>
                    </Table.Td>
                    <Table.Td>
                      <Button
                        size="xs"
                        variant={isAdmin ? "filled" : "default"}
                        loading={setting}
                        onClick={async () => {
                          if (listErrors.take(await setOrgAdmin({ input: { userId: u.id, organizationId, admin: !isAdmin } }), (d) => d.userOrgAdminSet))
                            refetch({ requestPolicy: "network-only" });
                        }}
                      >
                        {isAdmin ? t("users.orgAdminRevoke") : t("users.orgAdminGrant")}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        )}
        <Pager pages={pages} pageInfo={conn?.pageInfo} totalCount={conn?.totalCount} fetching={r.fetching} />
      </QueryState>
      <Modal opened={creating} onClose={() => setCreating(false)} title={t("users.add")}>
        <UserCreateForm
          organizationId={organizationId}
          onCancel={() => setCreating(false)}
          onDone={() => {
            setCreating(false);
            refetch({ requestPolicy: "network-only" });
          }}
        />
      </Modal>
    </Stack>
  );
}

export default function OrganizationDetailPage() {
  const { t, language } = useLanguage();
  const params = useParams<{ id: string }>();
  const id = decodeURIComponent(params.id);
  const [r, refetch] = useQuery({ query: OrganizationDocument, variables: { id } });
  const [editing, setEditing] = useState(false);
  const org = r.data?.node?.__typename === "Organization" ? r.data.node : null;
  return (
    <Stack>
      <Anchor component={Link} href="/admin/organizations" size="sm">
        ← {t("nav.organizations")}
      </Anchor>
      <QueryState fetching={r.fetching} error={r.error}>
        {r.data && !org && <Empty>{t("common.notFound")}</Empty>}
        {org && (
          <>
            <PageHeader
              title={org.name}
              description={`${org.slug} · ${t("common.created")} ${formatDateTime(org.createdAt, language)}`}
              actions={
                org.viewerIsAdmin && (
                  <Button variant="default" onClick={() => setEditing(true)}>
                    {t("common.edit")}
                  </Button>
                )
              }
            />
            {org.description && (
              <Paper withBorder p="sm">
                <Text size="sm">{org.description}</Text>
              </Paper>
            )}
            <Tabs defaultValue="groups" keepMounted={false}>
              <Tabs.List>
                <Tabs.Tab value="groups">{t("groups.title")}</Tabs.Tab>
                <Tabs.Tab value="users">{t("nav.users")}</Tabs.Tab>
              </Tabs.List>
              <Tabs.Panel value="groups" pt="md">
                <GroupsTab organizationId={org.id} />
              </Tabs.Panel>
              <Tabs.Panel value="users" pt="md">
                <UsersTab organizationId={org.id} />
              </Tabs.Panel>
            </Tabs>
            <Modal opened={editing} onClose={() => setEditing(false)} title={<Title order={4}>{t("orgs.edit")}</Title>}>
              <OrganizationForm
                initial={{ id: org.id, name: org.name, slug: org.slug, description: org.description }}
                onCancel={() => setEditing(false)}
                onDone={() => {
                  setEditing(false);
                  refetch({ requestPolicy: "network-only" });
                }}
              />
            </Modal>
          </>
        )}
      </QueryState>
    </Stack>
  );
}

import { useState } from "react";
import { Anchor, Badge, Button, Group, Modal, Select, Stack, Table, TextInput } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { useQuery } from "urql";
import { Link, useLocation } from "wouter";
import { graphql } from "../../gql";
import { useLanguage } from "../../i18n";
import { formatDateTime } from "../../common/format";
import { Pager, useCursorPages } from "../../common/pagination";
import { Empty, PageHeader, QueryState } from "../../common/ui";
import { useOrganizationOptions } from "../../common/options";
import { UserCreateForm } from "./UserCreateForm";

const UsersDocument = graphql(`
  query Users($organizationId: ID, $search: String, $first: Int, $after: String) {
    users(organizationId: $organizationId, search: $search, first: $first, after: $after) {
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
        isSuperAdmin
        createdAt
        memberships {
          role
          group {
            id
            name
            organization {
              id
              name
            }
          }
        }
      }
    }
  }
`);

export default function UsersPage() {
  const { t, language } = useLanguage();
  const [, navigate] = useLocation();
  const [search, setSearch] = useState("");
  const [org, setOrg] = useState<string | null>(null);
  const [debounced] = useDebouncedValue(search, 250);
  const pages = useCursorPages(undefined, `${debounced}|${org ?? ""}`);
  const [r, refetch] = useQuery({ query: UsersDocument, variables: { organizationId: org, search: debounced || null, ...pages.variables } });
  const orgs = useOrganizationOptions();
  const [creating, setCreating] = useState(false);
  const conn = r.data?.users;
  return (
    <Stack>
      <PageHeader
        title={t("nav.users")}
        actions={
          <Button onClick={() => setCreating(true)} data-testid="user-add">
            {t("users.add")}
          </Button>
        }
      />
      <Group>
        <TextInput placeholder={t("users.search")} aria-label={t("users.search")} value={search} onChange={(e) => setSearch(e.currentTarget.value)} w={260} />
        <Select placeholder={t("common.allOrganizations")} aria-label={t("common.organization")} data={orgs} value={org} onChange={setOrg} clearable w={240} />
      </Group>
      <QueryState fetching={r.fetching} error={r.error}>
        {conn && conn.nodes.length === 0 && <Empty>{t("users.none")}</Empty>}
        {conn && conn.nodes.length > 0 && (
          <Table striped withTableBorder>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("users.username")}</Table.Th>
                <Table.Th>{t("users.displayName")}</Table.Th>
                <Table.Th>{t("users.email")}</Table.Th>
                <Table.Th>{t("users.groups")}</Table.Th>
                <Table.Th>{t("common.status")}</Table.Th>
                <Table.Th>{t("common.created")}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {conn.nodes.map((u) => (
                <Table.Tr key={u.id}>
                  <Table.Td>
                    <Anchor component={Link} href={`/admin/users/${encodeURIComponent(u.id)}`}>
                      {u.username}
                    </Anchor>
                    {u.isSuperAdmin && (
                      <Badge ml="xs" size="xs" color="grape">
                        {t("role.SUPER_ADMIN")}
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>{u.displayName}</Table.Td>
                  <Table.Td>{u.email}</Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      {u.memberships.map((m) => (
                        <Badge key={m.group.id} size="sm" variant="light">
                          {m.group.organization.name} / {m.group.name} · {t(`role.${m.role}`)}
                        </Badge>
                      ))}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Badge color={u.isActive ? "teal" : "gray"}>{u.isActive ? t("users.active") : t("users.disabled")}</Badge>
                  </Table.Td>
                  <Table.Td>{formatDateTime(u.createdAt, language)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <Pager pages={pages} pageInfo={conn?.pageInfo} totalCount={conn?.totalCount} fetching={r.fetching} />
      </QueryState>
      <Modal opened={creating} onClose={() => setCreating(false)} title={t("users.add")}>
        <UserCreateForm
          onCancel={() => setCreating(false)}
          onDone={(id) => {
            setCreating(false);
            refetch({ requestPolicy: "network-only" });
            navigate(`/admin/users/${encodeURIComponent(id)}`);
          }}
        />
      </Modal>
    </Stack>
  );
}

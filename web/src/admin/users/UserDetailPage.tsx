import { useState } from "react";
import { Alert, Anchor, Badge, Button, Group, Modal, Paper, PasswordInput, Select, Stack, Switch, Table, Text, TextInput, Title } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { Link, useLocation, useParams } from "wouter";
import { graphql } from "../../gql";
import type { Role } from "../../gql/graphql";
import { useLanguage } from "../../i18n";
import { useFieldErrors } from "../../common/errors";
import { formatDateTime } from "../../common/format";
import { Empty, GeneralErrors, PageHeader, QueryState } from "../../common/ui";
import { checkEmail } from "../../common/validation";
import { useOrganizationOptions } from "../../common/options";
import { useViewer } from "../../app/viewer";
import { ROLES, useGroupOptions } from "./UserCreateForm";
import { UserOrgAdminSetDocument } from "../organizations/OrganizationDetailPage";

const UserDocument = graphql(`
  query User($id: ID!) {
    node(id: $id) {
      ... on User {
        id
        username
        displayName
        email
        isActive
        isSuperAdmin
        createdAt
        activeGroup {
          id
          name
        }
        adminOf {
          id
          name
        }
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

const UserUpdateDocument = graphql(`
  mutation UserUpdate($input: UserUpdateInput!) {
    userUpdate(input: $input) {
      user {
        id
        displayName
        email
        isActive
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

const UserPasswordSetDocument = graphql(`
  mutation UserPasswordSet($input: UserPasswordSetInput!) {
    userPasswordSet(input: $input) {
      user {
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

const UserSuperAdminSetDocument = graphql(`
  mutation UserSuperAdminSet($input: UserSuperAdminSetInput!) {
    userSuperAdminSet(input: $input) {
      user {
        id
        isSuperAdmin
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

const MembershipSetDocument = graphql(`
  mutation MembershipSet($input: MembershipSetInput!) {
    membershipSet(input: $input) {
      membership {
        role
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

const MembershipRemoveDocument = graphql(`
  mutation MembershipRemove($input: MembershipRemoveInput!) {
    membershipRemove(input: $input) {
      membership {
        role
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

type U = { id: string; displayName: string; email: string; isActive: boolean };

function ProfileForm({ user, onDone }: { user: U; onDone(): void }) {
  const { t } = useLanguage();
  const [v, setV] = useState({ displayName: user.displayName, email: user.email, isActive: user.isActive });
  const [local, setLocal] = useState<Record<string, string>>({});
  const [{ fetching }, update] = useMutation(UserUpdateDocument);
  const errors = useFieldErrors(["displayName", "email", "isActive"]);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const p = checkEmail(v.email);
    setLocal(p ? { email: t(p === "required" ? "validation.required" : "validation.email") } : {});
    if (p) return;
    if (errors.take(await update({ input: { id: user.id, ...v } }), (d) => d.userUpdate)) onDone();
  };
  return (
    <Paper withBorder p="md">
      <form onSubmit={submit} noValidate>
        <Stack>
          <Title order={4}>{t("users.profile")}</Title>
          <TextInput label={t("users.displayName")} value={v.displayName} onChange={(e) => setV({ ...v, displayName: e.currentTarget.value })} error={errors.field("displayName")} />
          <TextInput label={t("users.email")} value={v.email} onChange={(e) => setV({ ...v, email: e.currentTarget.value })} error={local.email ?? errors.field("email")} />
          <Switch label={t("users.active")} checked={v.isActive} onChange={(e) => setV({ ...v, isActive: e.currentTarget.checked })} />
          {errors.field("isActive") && (
            <Text c="red" size="sm">
              {errors.field("isActive")}
            </Text>
          )}
          <GeneralErrors messages={errors.general} />
          <Group justify="flex-end">
            <Button type="submit" loading={fetching}>
              {t("common.save")}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

function PasswordForm({ userId, self }: { userId: string; self: boolean }) {
  const { t } = useLanguage();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [done, setDone] = useState(false);
  const [{ fetching }, set] = useMutation(UserPasswordSetDocument);
  const errors = useFieldErrors(["newPassword", "currentPassword"]);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setDone(false);
    if (errors.take(await set({ input: { id: userId, newPassword: next, currentPassword: self ? current : null } }), (d) => d.userPasswordSet)) {
      setDone(true);
      setNext("");
      setCurrent("");
    }
  };
  return (
    <Paper withBorder p="md">
      <form onSubmit={submit} noValidate>
        <Stack>
          <Title order={4}>{t("users.setPassword")}</Title>
          {self && <PasswordInput label={t("users.currentPassword")} value={current} onChange={(e) => setCurrent(e.currentTarget.value)} error={errors.field("currentPassword")} />}
          <PasswordInput label={t("users.newPassword")} value={next} onChange={(e) => setNext(e.currentTarget.value)} error={errors.field("newPassword")} />
          <GeneralErrors messages={errors.general} />
          {done && (
            <Text c="teal" size="sm">
              {t("users.passwordChanged")}
            </Text>
          )}
          <Group justify="flex-end">
            <Button type="submit" loading={fetching}>
              {t("common.save")}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

const UserDeleteDocument = graphql(`
  mutation UserDelete($input: IdInput!) {
    userDelete(input: $input) {
      user {
        id
        username
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

/** Deleting a user, guarded: the admin types the user name to confirm. Their personal data
 * goes; the ledger and the audit log keep pointing at them. */
function DeleteUserCard({ userId, username }: { userId: string; username: string }) {
  const { t } = useLanguage();
  const [, navigate] = useLocation();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const [{ fetching }, del] = useMutation(UserDeleteDocument);
  const errors = useFieldErrors(["id"]);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (typed !== username) return;
    if (errors.take(await del({ input: { id: userId } }), (d) => d.userDelete)) navigate("/admin/users");
  };
  return (
    <Paper withBorder p="md" data-testid="user-delete-card">
      <Group justify="space-between" align="flex-start">
        <Stack gap={4} maw={640}>
          <Title order={4}>{t("users.delete")}</Title>
          <Text size="sm" c="dimmed">
            {t("users.deleteHint")}
          </Text>
        </Stack>
        <Button
          color="red"
          variant="light"
          onClick={() => {
            errors.clear();
            setTyped("");
            setOpen(true);
          }}
          data-testid="user-delete"
        >
          {t("users.delete")}
        </Button>
      </Group>
      <Modal opened={open} onClose={() => setOpen(false)} title={t("users.delete")}>
        <form onSubmit={submit} noValidate>
          <Stack>
            <Alert color="red">{t("users.deleteConfirm", { name: username })}</Alert>
            <TextInput label={t("users.deleteType", { name: username })} value={typed} onChange={(e) => setTyped(e.currentTarget.value)} autoComplete="off" data-testid="user-delete-typed" />
            {errors.field("id") && (
              <Text c="red" size="sm" data-testid="user-delete-error">
                {errors.field("id")}
              </Text>
            )}
            <GeneralErrors messages={errors.general} />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setOpen(false)}>
                {t("common.cancel")}
              </Button>
              <Button type="submit" color="red" loading={fetching} disabled={typed !== username} data-testid="user-delete-submit">
                {t("users.deleteNow")}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Paper>
  );
}

export default function UserDetailPage() {
  const { t, language } = useLanguage();
  const { me, admin } = useViewer();
  const id = decodeURIComponent(useParams<{ id: string }>().id);
  const [r, refetch] = useQuery({ query: UserDocument, variables: { id } });
  const reload = () => refetch({ requestPolicy: "network-only" });
  const user = r.data?.node?.__typename === "User" ? r.data.node : null;
  const orgs = useOrganizationOptions(true);
  const [addOrg, setAddOrg] = useState<string | null>(null);
  const [addGroup, setAddGroup] = useState<string | null>(null);
  const [addRole, setAddRole] = useState<Role>("MEMBER");
  const groups = useGroupOptions(addOrg);
  const [{ fetching: settingMembership }, membershipSet] = useMutation(MembershipSetDocument);
  const [, membershipRemove] = useMutation(MembershipRemoveDocument);
  const [{ fetching: settingSuper }, superSet] = useMutation(UserSuperAdminSetDocument);
  const [, orgAdminSet] = useMutation(UserOrgAdminSetDocument);
  const membershipErrors = useFieldErrors(["groupId", "role"]);
  const roleErrors = useFieldErrors([]);

  return (
    <Stack>
      <Anchor component={Link} href="/admin/users" size="sm">
        ← {t("nav.users")}
      </Anchor>
      <QueryState fetching={r.fetching} error={r.error}>
        {r.data && !user && <Empty>{t("common.notFound")}</Empty>}
        {user && (
          <>
            <PageHeader
              title={user.displayName || user.username}
              description={`${user.username} · ${t("common.created")} ${formatDateTime(user.createdAt, language)}${user.activeGroup ? ` · ${t("users.activeGroup")}: ${user.activeGroup.name}` : ""}`}
            />
            <Group align="flex-start" grow>
              <ProfileForm key={`${user.id}:${user.email}:${user.isActive}`} user={user} onDone={reload} />
              <PasswordForm userId={user.id} self={user.id === me.id} />
            </Group>
            <Paper withBorder p="md">
              <Stack>
                <Title order={4}>{t("users.roles")}</Title>
                <GeneralErrors messages={roleErrors.general} />
                {admin.superAdmin && (
                  <Switch
                    label={t("role.SUPER_ADMIN")}
                    checked={user.isSuperAdmin}
                    disabled={settingSuper}
                    onChange={async (e) => {
                      if (roleErrors.take(await superSet({ input: { id: user.id, superAdmin: e.currentTarget.checked } }), (d) => d.userSuperAdminSet)) reload();
                    }}
                  />
                )}
                <Text size="sm" fw={500}>
                  {t("users.orgAdminOf")}
                </Text>
                <Group gap="xs">
                  {user.adminOf.length === 0 && <Text size="sm" c="dimmed">—</Text>}
                  {user.adminOf.map((o) => (
                    <Badge
                      key={o.id}
                      variant="light"
                      rightSection={
                        <Anchor
                          component="button"
                          size="xs"
                          aria-label={t("users.orgAdminRevoke")}
                          onClick={async () => {
                            if (roleErrors.take(await orgAdminSet({ input: { userId: user.id, organizationId: o.id, admin: false } }), (d) => d.userOrgAdminSet)) reload();
                          }}
                        >
                          ×
                        </Anchor>
                      }
                    >
                      {o.name}
                    </Badge>
                  ))}
                </Group>
              </Stack>
            </Paper>
            <Paper withBorder p="md">
              <Stack>
                <Title order={4}>{t("users.memberships")}</Title>
                <Table withTableBorder>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t("common.organization")}</Table.Th>
                      <Table.Th>{t("groups.name")}</Table.Th>
                      <Table.Th>{t("users.role")}</Table.Th>
                      <Table.Th />
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {user.memberships.map((m) => (
                      <Table.Tr key={m.group.id}>
                        <Table.Td>{m.group.organization.name}</Table.Td>
                        <Table.Td>{m.group.name}</Table.Td>
                        <Table.Td>
                          <Select
                            size="xs"
                            aria-label={t("users.role")}
                            data={ROLES.map((x) => ({ value: x, label: t(`role.${x}`) }))}
                            value={m.role}
                            allowDeselect={false}
                            onChange={async (x) => {
                              if (x && roleErrors.take(await membershipSet({ input: { userId: user.id, groupId: m.group.id, role: x as Role } }), (d) => d.membershipSet)) reload();
                            }}
                            w={180}
                          />
                        </Table.Td>
                        <Table.Td>
                          <Button
                            size="xs"
                            color="red"
                            variant="light"
                            onClick={async () => {
                              if (roleErrors.take(await membershipRemove({ input: { userId: user.id, groupId: m.group.id } }), (d) => d.membershipRemove)) reload();
                            }}
                          >
                            {t("users.removeMembership")}
                          </Button>
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
                <Group align="flex-start">
                  <Select label={t("common.organization")} data={orgs} value={addOrg} onChange={(v) => { setAddOrg(v); setAddGroup(null); }} w={200} />
                  <Select label={t("groups.name")} data={groups} value={addGroup} onChange={setAddGroup} error={membershipErrors.field("groupId")} w={200} />
                  <Select label={t("users.role")} data={ROLES.map((x) => ({ value: x, label: t(`role.${x}`) }))} value={addRole} onChange={(x) => setAddRole((x as Role) ?? "MEMBER")} allowDeselect={false} error={membershipErrors.field("role")} w={180} />
                  <Button
                    mt={24}
                    loading={settingMembership}
                    disabled={!addGroup}
                    onClick={async () => {
                      if (addGroup && membershipErrors.take(await membershipSet({ input: { userId: user.id, groupId: addGroup, role: addRole } }), (d) => d.membershipSet)) {
                        setAddGroup(null);
                        reload();
                      }
                    }}
                  >
                    {t("users.addMembership")}
                  </Button>
                </Group>
                <GeneralErrors messages={membershipErrors.general} />
              </Stack>
            </Paper>
            {user.id !== me.id && !(/^deleted-[0-9a-f]{12}$/.test(user.username) && !user.isActive) && <DeleteUserCard userId={user.id} username={user.username} />}
          </>
        )}
      </QueryState>
    </Stack>
  );
}

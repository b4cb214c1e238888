import { useState } from "react";
import { Button, Group, MultiSelect, PasswordInput, Select, Stack, TextInput } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../../gql";
import type { Role } from "../../gql/graphql";
import { useT } from "../../i18n";
import { useFieldErrors } from "../../common/errors";
import { GeneralErrors } from "../../common/ui";
import { checkEmail } from "../../common/validation";
import { useOrganizationOptions } from "../../common/options";

export const UserCreateDocument = graphql(`
  mutation UserCreate($input: UserCreateInput!) {
    userCreate(input: $input) {
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

const GroupOptionsDocument = graphql(`
  query GroupOptions($organizationId: ID) {
    groups(organizationId: $organizationId, first: 100) {
      nodes {
        id
        name
        isDefault
      }
    }
  }
`);

export const ROLES: Role[] = ["MEMBER", "GROUP_ADMIN", "ORG_ADMIN", "GUEST"];

export function useGroupOptions(organizationId: string | null) {
  const [r] = useQuery({ query: GroupOptionsDocument, variables: { organizationId }, pause: !organizationId });
  return (r.data?.groups.nodes ?? []).map((g) => ({ value: g.id, label: g.name }));
}

export function UserCreateForm({ organizationId, onDone, onCancel }: { organizationId?: string; onDone(id: string): void; onCancel(): void }) {
  const t = useT();
  const orgs = useOrganizationOptions(true);
  const [v, setV] = useState({
    organizationId: organizationId ?? null,
    username: "",
    email: "",
    displayName: "",
    password: "",
    role: "MEMBER" as Role,
    groupIds: [] as string[],
  });
  const groups = useGroupOptions(v.organizationId);
  const [local, setLocal] = useState<Record<string, string>>({});
  const [{ fetching }, create] = useMutation(UserCreateDocument);
  const errors = useFieldErrors(["organizationId", "username", "email", "displayName", "password", "role", "groupIds"]);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const problems: Record<string, string> = {};
    if (!v.organizationId) problems.organizationId = t("validation.required");
    if (!v.username.trim()) problems.username = t("validation.required");
    const emailProblem = checkEmail(v.email);
    if (emailProblem) problems.email = t(emailProblem === "required" ? "validation.required" : "validation.email");
    setLocal(problems);
    if (Object.keys(problems).length) return;
    const r = await create({
      input: {
        organizationId: v.organizationId!,
        username: v.username.trim(),
        email: v.email.trim(),
        displayName: v.displayName.trim() || null,
        password: v.password || null,
        role: v.role,
        groupIds: v.groupIds.length ? v.groupIds : null,
      },
    });
    if (errors.take(r, (d) => d.userCreate)) onDone(r.data!.userCreate.user!.id);
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        {!organizationId && (
          <Select label={t("common.organization")} data={orgs} value={v.organizationId} onChange={(x) => setV({ ...v, organizationId: x, groupIds: [] })} error={local.organizationId ?? errors.field("organizationId")} searchable />
        )}
        <TextInput label={t("users.username")} name="username" value={v.username} onChange={(e) => setV({ ...v, username: e.currentTarget.value })} error={local.username ?? errors.field("username")} />
        <TextInput label={t("users.email")} name="email" type="email" value={v.email} onChange={(e) => setV({ ...v, email: e.currentTarget.value })} error={local.email ?? errors.field("email")} />
        <TextInput label={t("users.displayName")} name="displayName" value={v.displayName} onChange={(e) => setV({ ...v, displayName: e.currentTarget.value })} error={errors.field("displayName")} />
        <PasswordInput label={t("users.password")} name="password" description={t("users.passwordHint")} value={v.password} onChange={(e) => setV({ ...v, password: e.currentTarget.value })} error={errors.field("password")} />
        <Select
          label={t("users.role")}
          data={ROLES.map((r) => ({ value: r, label: t(`role.${r}`) }))}
          value={v.role}
          onChange={(x) => setV({ ...v, role: (x as Role) ?? "MEMBER" })}
          allowDeselect={false}
          error={errors.field("role")}
        />
        <MultiSelect label={t("users.groups")} description={t("users.groupsHint")} data={groups} value={v.groupIds} onChange={(x) => setV({ ...v, groupIds: x })} error={errors.field("groupIds")} />
        <GeneralErrors messages={errors.general} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t("common.cancel")}
          </Button>
          <Button type="submit" loading={fetching} data-testid="user-create-submit">
            {t("common.save")}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

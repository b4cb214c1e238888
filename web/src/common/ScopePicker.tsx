import { useState } from "react";
import { Group, Select } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { useQuery } from "urql";
import { graphql } from "../gql";
import type { ScopeKind } from "../gql/graphql";
import { useT } from "../i18n";
import { useOrganizationOptions } from "./options";

const ScopeGroupsDocument = graphql(`
  query ScopeGroups {
    groups(first: 100) {
      nodes {
        id
        name
        organization {
          name
        }
      }
    }
  }
`);

const ScopeUsersDocument = graphql(`
  query ScopeUsers($search: String) {
    users(search: $search, first: 20) {
      nodes {
        id
        username
        displayName
      }
    }
  }
`);

export interface ScopeValue {
  kind: ScopeKind;
  id: string | null;
}

/** Choose a scope: global, an organisation, a group or a user (searched by name). */
export function ScopePicker({ value, onChange, kinds, error }: { value: ScopeValue; onChange(v: ScopeValue): void; kinds: ScopeKind[]; error?: string }) {
  const t = useT();
  const orgs = useOrganizationOptions(true);
  const [groups] = useQuery({ query: ScopeGroupsDocument, pause: value.kind !== "GROUP" });
  const [search, setSearch] = useState("");
  const [debounced] = useDebouncedValue(search, 250);
  const [users] = useQuery({ query: ScopeUsersDocument, variables: { search: debounced || null }, pause: value.kind !== "USER" });
  const options =
    value.kind === "ORGANIZATION"
      ? orgs
      : value.kind === "GROUP"
        ? (groups.data?.groups.nodes ?? []).map((g) => ({ value: g.id, label: `${g.organization.name} / ${g.name}` }))
        : value.kind === "USER"
          ? (users.data?.users.nodes ?? []).map((u) => ({ value: u.id, label: `${u.displayName || u.username} (${u.username})` }))
          : [];
  return (
    <Group align="flex-start">
      <Select
        label={t("scope.kind")}
        data={kinds.map((k) => ({ value: k, label: t(`scope.${k}`) }))}
        value={value.kind}
        onChange={(k) => onChange({ kind: (k as ScopeKind) ?? kinds[0], id: null })}
        allowDeselect={false}
        w={170}
      />
      {value.kind !== "GLOBAL" && (
        <Select
          label={t(`scope.${value.kind}`)}
          data={options}
          value={value.id}
          onChange={(id) => onChange({ ...value, id })}
          searchable
          onSearchChange={value.kind === "USER" ? setSearch : undefined}
          error={error}
          w={300}
          data-testid="scope-entity"
        />
      )}
    </Group>
  );
}

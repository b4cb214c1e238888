import { Card, Group, Progress, Stack, Table, Text, Title } from "@mantine/core";
import { useQuery } from "urql";
import { graphql } from "../gql";
import type { ScopeKind } from "../gql/graphql";
import { useT } from "../i18n";
import { QueryState } from "../common/ui";
import { capQuantity, capShare, type CapField } from "./caps";

const GroupCapsDocument = graphql(`
  query GroupCaps($groupId: ID) {
    effectivePolicy(groupId: $groupId) {
      limits {
        field
        model
        value
        used
        remaining
        scope {
          kind
          name
        }
      }
    }
  }
`);

const GpuAvailabilityDocument = graphql(`
  query GpuAvailability {
    capacity {
      models {
        model
        physical {
          total
          used
          available
        }
      }
    }
  }
`);

/** The caps on the chain of the viewer working in `groupId` (their active group by default) and
 * what is left of each: the group's (and the organisation's, the deployment's, their own) quota
 * before new work is refused. */
export function GroupCapsCard({ groupId, title }: { groupId: string | null | undefined; title?: string }) {
  const t = useT();
  const [r] = useQuery({ query: GroupCapsDocument, variables: { groupId: groupId ?? null }, requestPolicy: "cache-and-network" });
  const limits = r.data?.effectivePolicy.limits ?? [];
  return (
    <Card withBorder data-testid="group-caps">
      <Title order={5} mb="xs">
        {title ?? t("caps.title")}
      </Title>
      <QueryState fetching={r.fetching && !r.data} error={r.error}>
        {limits.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t("caps.none")}
          </Text>
        ) : (
          <Table fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("caps.limit")}</Table.Th>
                <Table.Th>{t("caps.scope")}</Table.Th>
                <Table.Th>{t("caps.usedOf")}</Table.Th>
                <Table.Th>{t("caps.left")}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {limits.map((l) => {
                const field = l.field as CapField;
                const pct = capShare(l.used, l.value);
                return (
                  <Table.Tr key={`${l.field}|${l.model ?? ""}|${l.scope.kind}`} data-testid={`cap-${l.field}`}>
                    <Table.Td>
                      {t(`caps.field.${field}`)}
                      {l.model && (
                        <Text span size="sm" translate="no">
                          {" "}
                          {l.model}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      {t(`scope.${l.scope.kind as ScopeKind}`)}
                      {l.scope.name && l.scope.kind !== "GLOBAL" ? ` · ${l.scope.name}` : ""}
                    </Table.Td>
                    <Table.Td miw={110}>
                      <Text size="sm">
                        {capQuantity(field, l.used ?? "0")} / {capQuantity(field, l.value)}
                      </Text>
                      <Progress size="xs" value={pct} color={pct >= 100 ? "red" : pct >= 80 ? "orange" : "teal"} />
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" fw={700} c={l.remaining === "0" ? "red" : undefined}>
                        {capQuantity(field, l.remaining ?? l.value)}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        )}
      </QueryState>
    </Card>
  );
}

/** Physical cards per GPU model now: Total / Used / Available. */
export function GpuAvailabilityCard() {
  const t = useT();
  const [r] = useQuery({ query: GpuAvailabilityDocument, requestPolicy: "cache-and-network" });
  const models = r.data?.capacity.models ?? [];
  return (
    <Card withBorder data-testid="gpu-availability">
      <Group justify="space-between" mb="xs">
        <Title order={5}>{t("caps.gpusNow")}</Title>
        <Text size="xs" c="dimmed">
          {t("capacity.legend")}
        </Text>
      </Group>
      <QueryState fetching={r.fetching && !r.data} error={r.error}>
        {models.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t("caps.noGpus")}
          </Text>
        ) : (
          <Table fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("capacity.model")}</Table.Th>
                <Table.Th>{t("caps.total")}</Table.Th>
                <Table.Th>{t("caps.used")}</Table.Th>
                <Table.Th>{t("caps.available")}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {models.map((m) => (
                <Table.Tr key={m.model} data-testid="gpu-availability-row">
                  <Table.Td translate="no">{m.model}</Table.Td>
                  <Table.Td>{m.physical.total}</Table.Td>
                  <Table.Td>{m.physical.used}</Table.Td>
                  <Table.Td>
                    <Text size="sm" fw={700} c={m.physical.available === 0 ? "red" : undefined}>
                      {m.physical.available}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </QueryState>
    </Card>
  );
}

export function CapsSummary({ groupId }: { groupId: string | null | undefined }) {
  return (
    <Stack>
      <GpuAvailabilityCard />
      <GroupCapsCard groupId={groupId} />
    </Stack>
  );
}

import { Badge, Card, Group, Progress, Stack, Table, Text, Title, Tooltip } from "@mantine/core";
import { useSubscription } from "urql";
import { graphql } from "../gql";
import type { GpuKind } from "../gql/graphql";
import { useT } from "../i18n";

const CapacitySubscription = graphql(`
  subscription CapacityLive {
    capacityChanged {
      byResource {
        resource
        kind
        model
        shared
        physical {
          total
          used
          available
        }
        logical {
          total
          used
          available
        }
        usedCardEquivalents
      }
      models {
        model
        physical {
          total
          used
          available
        }
        logical {
          total
          used
          available
        }
      }
    }
  }
`);

interface Counts {
  total: number;
  used: number;
  available: number;
}

function CountsCell({ c }: { c: Counts }) {
  const pct = c.total > 0 ? (c.used / c.total) * 100 : 0;
  return (
    <Stack gap={2} miw={120}>
      <Text size="sm">
        {c.total} / {c.used} / <b>{c.available}</b>
      </Text>
      <Progress size="xs" value={pct} color={pct >= 90 ? "red" : pct >= 70 ? "orange" : "teal"} />
    </Stack>
  );
}

/** Capacity per GPU kind and per model, physical cards and logical units, live. */
export function CapacityCard() {
  const t = useT();
  const [r] = useSubscription({ query: CapacitySubscription });
  const cap = r.data?.capacityChanged;
  return (
    <Card withBorder data-testid="capacity">
      <Group justify="space-between" mb="xs">
        <Title order={4}>{t("capacity.title")}</Title>
        <Text size="xs" c="dimmed">
          {t("capacity.legend")}
        </Text>
      </Group>
      {!cap ? (
        <Text c="dimmed" size="sm">
          {r.error ? r.error.message : t("common.loading")}
        </Text>
      ) : (
        <Stack>
          <Table withTableBorder fz="sm" data-testid="capacity-by-resource">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("capacity.kind")}</Table.Th>
                {/* rows per resource carry no model (the table per model follows): no column of "—" */}
                <Table.Th>{cap.byResource.some((r) => r.model) ? t("capacity.model") : t("capacity.resource")}</Table.Th>
                <Table.Th>{t("capacity.physical")}</Table.Th>
                <Table.Th>{t("capacity.logical")}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {cap.byResource.map((row) => (
                <Table.Tr key={`${row.resource}|${row.model ?? ""}`}>
                  <Table.Td>
                    <Tooltip label={row.resource}>
                      <Text size="sm">{t(`gpuKind.${row.kind as GpuKind}`)}</Text>
                    </Tooltip>
                    {row.shared && (
                      <Badge size="xs" variant="light" color="grape" ml={4}>
                        {t("capacity.shared")}
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>
                    {row.model && <Text size="sm">{row.model}</Text>}
                    <Text size="xs" c="dimmed" ff="monospace" translate="no">
                      {row.resource}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <CountsCell c={row.physical} />
                  </Table.Td>
                  <Table.Td>
                    <CountsCell c={row.logical} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Table withTableBorder fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("capacity.model")}</Table.Th>
                <Table.Th>{t("capacity.physical")}</Table.Th>
                <Table.Th>{t("capacity.logical")}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {cap.models.map((m) => (
                <Table.Tr key={m.model}>
                  <Table.Td>{m.model}</Table.Td>
                  <Table.Td>
                    <CountsCell c={m.physical} />
                  </Table.Td>
                  <Table.Td>
                    <CountsCell c={m.logical} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Stack>
      )}
    </Card>
  );
}

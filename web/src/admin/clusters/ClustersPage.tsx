import { useState } from "react";
import { Anchor, Badge, Button, Card, Group, Modal, Progress, Select, Stack, Table, Text, Title } from "@mantine/core";
import { useQuery } from "urql";
import { Link } from "wouter";
import { graphql } from "../../gql";
import { useT } from "../../i18n";
import { formatMib, formatMibOf } from "../../common/format";
import { Empty, PageHeader, QueryState } from "../../common/ui";
import { useViewer } from "../../app/viewer";
import { useRefetchOnCapacityChange } from "../../common/live";
import type { SharingMode } from "../../gql/graphql";
import { SharingModeChange } from "./SharingModeChange";
import { NodeGuard, type NodeAction } from "./NodeGuard";

const ClustersDocument = graphql(`
  query Clusters($clusterId: String) {
    clusters {
      id
      name
      kind
      placementPolicy
    }
    clusterNodes(clusterId: $clusterId) {
      id
      name
      clusterId
      clusterName
      sharingMode
      cpuMillicores
      memoryMib
      freeCpuMillicores
      freeMemoryMib
      cordoned
      schedulable
      staleResources
      cards {
        uuid
        model
        vramMib
        cores
        migEnabled
        timesliceReplicas
        freeVramMib
        freeCores
        tenants {
          sessionId
          sessionName
          vramMib
          cores
        }
        migInstances {
          id
          profile
          vramMib
          tenant
          tenantName
        }
      }
      allocations {
        sessionId
        sessionName
        kind
        ratio
        cardUuids
        vramMib
        cores
      }
    }
  }
`);

function sessionLink(id: string | null | undefined, anonymous: string, name?: string | null) {
  if (!id) return <Text span size="xs" c="dimmed">{anonymous}</Text>;
  return (
    <Anchor component={Link} href={`/sessions/${encodeURIComponent(id)}`} size="xs">
      {name ?? `${id.slice(0, 10)}…`}
    </Anchor>
  );
}

/** Clusters, their nodes and cards, and what runs on each card (admins). */
export default function ClustersPage() {
  const t = useT();
  const [cluster, setCluster] = useState<string | null>(null);
  const [r, refetch] = useQuery({ query: ClustersDocument, variables: { clusterId: cluster } });
  const { admin } = useViewer();
  useRefetchOnCapacityChange(refetch);
  const [changing, setChanging] = useState<{ clusterId: string; nodeId: string; mode: SharingMode } | null>(null);
  const [guard, setGuard] = useState<{ clusterId: string; node: string; action: NodeAction; sessions: number } | null>(null);
  const nodes = r.data?.clusterNodes ?? [];
  return (
    <Stack>
      <PageHeader
        title={t("nav.clusters")}
        actions={
          <Select
            placeholder={t("clusters.all")}
            aria-label={t("clusters.cluster")}
            data={(r.data?.clusters ?? []).map((c) => ({ value: c.id, label: `${c.name} (${c.kind})` }))}
            value={cluster}
            onChange={setCluster}
            clearable
            w={260}
          />
        }
      />
      <QueryState fetching={r.fetching} error={r.error}>
        {r.data && nodes.length === 0 && <Empty>{t("clusters.none")}</Empty>}
        {nodes.map((n) => (
          <Card withBorder key={n.id} data-testid="node-card">
            <Group justify="space-between" mb="xs">
              <Group gap="xs">
                <Title order={5}>{n.name}</Title>
                <Text size="sm" c="dimmed">
                  {n.clusterName}
                </Text>
                <Badge variant="light" data-mode={n.sharingMode}>
                  {/* MIG cards are partitioned by the driver, whatever the node's device-plugin mode says */}
                  {n.cards.some((c) => c.migEnabled) && n.sharingMode === "EXCLUSIVE" ? "MIG" : t(`sharing.${n.sharingMode}`)}
                </Badge>
                {n.cordoned && <Badge color="orange">{t("clusters.cordoned")}</Badge>}
                {!n.schedulable && <Badge color="red">{t("clusters.unschedulable")}</Badge>}
              </Group>
              <Group gap="xs">
              {admin.superAdmin && (
                <>
                  <Button size="xs" variant="default" onClick={() => setChanging({ clusterId: n.clusterId, nodeId: n.name, mode: n.sharingMode })}>
                    {t("nodeOp.change")}
                  </Button>
                  <Button
                    size="xs"
                    variant="default"
                    onClick={() => setGuard({ clusterId: n.clusterId, node: n.name, action: n.cordoned ? "uncordon" : "cordon", sessions: n.allocations.length })}
                    data-testid="node-cordon"
                  >
                    {t(n.cordoned ? "nodeGuard.uncordon" : "nodeGuard.cordon")}
                  </Button>
                  <Button
                    size="xs"
                    variant="light"
                    color="orange"
                    onClick={() => setGuard({ clusterId: n.clusterId, node: n.name, action: "drain", sessions: n.allocations.length })}
                    data-testid="node-drain"
                  >
                    {t("nodeGuard.drain")}
                  </Button>
                </>
              )}
              <Text size="sm">
                CPU {(n.cpuMillicores - n.freeCpuMillicores) / 1000}/{n.cpuMillicores / 1000} · {t("presets.memory")} {formatMibOf(n.memoryMib - n.freeMemoryMib, n.memoryMib)}
              </Text>
              </Group>
            </Group>
            {n.staleResources.length > 0 && (
              <Text size="sm" c="orange" mb="xs">
                {t("clusters.stale", { resources: n.staleResources.join(", ") })}
              </Text>
            )}
            {n.cards.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t("presets.cpuOnly")}
              </Text>
            ) : (
            <Table withTableBorder fz="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t("clusters.card")}</Table.Th>
                  <Table.Th>{t("capacity.model")}</Table.Th>
                  <Table.Th>VRAM</Table.Th>
                  <Table.Th>{t("clusters.cores")}</Table.Th>
                  <Table.Th>{t("clusters.runs")}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {n.cards.map((c) => {
                  const usedV = c.vramMib - c.freeVramMib;
                  const usedC = c.cores - c.freeCores;
                  return (
                    <Table.Tr key={c.uuid}>
                      <Table.Td ff="monospace">
                        {c.uuid}
                        {c.migEnabled && <Badge size="xs" ml={4}>MIG</Badge>}
                        {c.timesliceReplicas > 1 && (
                          <Badge size="xs" ml={4} color="grape">
                            ×{c.timesliceReplicas}
                          </Badge>
                        )}
                      </Table.Td>
                      <Table.Td>{c.model}</Table.Td>
                      <Table.Td miw={140}>
                        <Text size="xs">
                          {formatMibOf(usedV, c.vramMib)}
                        </Text>
                        <Progress size="xs" value={(usedV / Math.max(1, c.vramMib)) * 100} />
                      </Table.Td>
                      <Table.Td miw={100}>
                        <Text size="xs">
                          {usedC} / {c.cores}
                        </Text>
                        <Progress size="xs" value={(usedC / Math.max(1, c.cores)) * 100} />
                      </Table.Td>
                      <Table.Td>
                        <Stack gap={2}>
                          {c.tenants.map((x, i) => (
                            <Text key={i} size="xs">
                              {sessionLink(x.sessionId, t("clusters.anonymous"), x.sessionName)} · {formatMib(x.vramMib)} · {x.cores}%
                            </Text>
                          ))}
                          {c.migInstances.map((m) => (
                            <Text key={m.id} size="xs">
                              {m.profile}: {m.tenant ? sessionLink(m.tenant, t("clusters.anonymous"), m.tenantName) : t("clusters.free")}
                            </Text>
                          ))}
                          {c.tenants.length === 0 && c.migInstances.length === 0 && (
                            <Text size="xs" c="dimmed">
                              {t("clusters.free")}
                            </Text>
                          )}
                        </Stack>
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
            )}
          </Card>
        ))}
      </QueryState>
      <Modal
        opened={guard !== null}
        onClose={() => {
          setGuard(null);
          refetch({ requestPolicy: "network-only" });
        }}
        title={guard ? t(`nodeGuard.title.${guard.action}`, { node: guard.node }) : ""}
      >
        {guard && (
          <NodeGuard
            {...guard}
            onDone={() => {
              setGuard(null);
              refetch({ requestPolicy: "network-only" });
            }}
          />
        )}
      </Modal>
      <Modal
        opened={changing !== null}
        onClose={() => {
          setChanging(null);
          refetch({ requestPolicy: "network-only" });
        }}
        title={changing ? t("nodeOp.title", { node: changing.nodeId }) : ""}
        size="lg"
      >
        {changing && (
          <SharingModeChange
            clusterId={changing.clusterId}
            nodeId={changing.nodeId}
            current={changing.mode}
            onClose={() => setChanging(null)}
          />
        )}
      </Modal>
    </Stack>
  );
}

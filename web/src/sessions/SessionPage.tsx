import { useEffect, useMemo, useState } from "react";
import { Alert, Anchor, Badge, Button, Card, Code, Group, Loader, Progress, Select, SimpleGrid, Stack, Table, Text, Title } from "@mantine/core";
import { useMutation, useQuery, useSubscription } from "urql";
import { Link, useParams } from "wouter";
import type { Expiry, SessionFieldsFragment } from "../gql/graphql";
import { useLanguage } from "../i18n";
import { localisedReason } from "./stateReason";
import { useFieldErrors } from "../common/errors";
import { formatCredits, formatDateTime, formatMib, microToCredits } from "../common/format";
import { liveCostMicro } from "../common/cost";
import { GeneralErrors, PageHeader } from "../common/ui";
import {
  SessionChargedQuery,
  SessionExtendDocument,
  SessionPauseDocument,
  SessionResumeDocument,
  SessionStatusSubscription,
  SessionStopDocument,
  SessionUsageSubscription,
} from "./documents";
import { formatRemaining, remainingTone, TONE_COLOR } from "./remaining";
import { sessionActions, STATE_COLOR } from "./states";
import { UsageChart } from "./UsageChart";
import { mergeSamples, type Sample } from "./usage";
import { EXPIRIES } from "./expiries";


function useNow(ms = 1000) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(id);
  }, [ms]);
  return now;
}

function Remaining({ s }: { s: SessionFieldsFragment }) {
  const { t, language } = useLanguage();
  const now = useNow();
  if (!s.expiresAt) return <Text>{t("sessions.noExpiry")}</Text>;
  if (s.remainingSeconds == null) return <Text data-testid="remaining">—</Text>; // ended: no clock runs
  const start = s.startedAt ?? s.createdAt;
  let tone = remainingTone(start, s.expiresAt, now);
  if (s.expiryWarning && tone === "ok") tone = "warning";
  const left = Date.parse(s.expiresAt) - now;
  const total = Date.parse(s.expiresAt) - Date.parse(start);
  const used = total > 0 ? Math.min(100, Math.max(0, ((now - Date.parse(start)) / total) * 100)) : 100;
  return (
    <Stack gap={4}>
      <Text fw={700} size="xl" c={TONE_COLOR[tone]} data-testid="remaining" data-tone={tone}>
        {formatRemaining(left, language)}
      </Text>
      <Progress value={used} color={TONE_COLOR[tone]} aria-label={t("sessions.remaining")} />
      <Text size="xs" c="dimmed">
        {t("sessions.expiresAt", { at: formatDateTime(s.expiresAt, language) })}
      </Text>
    </Stack>
  );
}

/** "Cost so far", moving every second while the session runs (from the running seconds the
 * server last reported), and what the meter has charged, re-read every 15 s while running. */
function CostSoFar({ s }: { s: SessionFieldsFragment }) {
  const { t, language } = useLanguage();
  const running = s.state === "RUNNING";
  const now = useNow();
  const [charged, refetchCharged] = useQuery({ query: SessionChargedQuery, variables: { id: s.id }, requestPolicy: "network-only" });
  useEffect(() => {
    if (!running) return;
    const id = setInterval(() => refetchCharged({ requestPolicy: "network-only" }), 15_000);
    return () => clearInterval(id);
  }, [running, refetchCharged]);
  const fresh = charged.data?.node?.__typename === "Session" ? charged.data.node : null;
  // the newest running-seconds reading (each status push, each charged re-read) and when it came
  const reading = useMemo(
    () => ({ seconds: Math.max(s.runningSeconds, fresh?.runningSeconds ?? 0), at: Date.now() }),
    [s, fresh],
  );
  const hourly = s.gpu ? BigInt(s.gpu.hourlyCost.micro) : 0n;
  const cost = liveCostMicro(hourly, reading.seconds, (now - reading.at) / 1000, running);
  return (
    <Card withBorder>
      <Text size="sm" c="dimmed">
        {t("sessions.cost")}
      </Text>
      <Text fw={700} size="xl" data-testid="cost-so-far" data-micro={cost.toString()}>
        {formatCredits(microToCredits(cost), language)}
      </Text>
      <Text size="xs" c="dimmed">
        {s.gpu ? t("credits.perHour", { amount: formatCredits(s.gpu.hourlyCost.credits, language) }) : t("presets.free")} ·{" "}
        <span data-testid="charged">{t("sessions.charged", { amount: formatCredits(fresh?.charged.credits ?? s.charged.credits, language) })}</span>
      </Text>
    </Card>
  );
}

const ENDPOINTS = [
  ["jupyterlab", "JupyterLab"],
  ["vscode", "VS Code"],
  ["terminal", "Terminal"],
] as const;

export default function SessionPage() {
  const { t, language } = useLanguage();
  const id = decodeURIComponent(useParams<{ id: string }>().id);
  const [status] = useSubscription({ query: SessionStatusSubscription, variables: { id } });
  const [samples, setSamples] = useState<Sample[]>([]);
  useSubscription({ query: SessionUsageSubscription, variables: { sessionId: id } }, (_prev: unknown, data) => {
    setSamples((p) => mergeSamples(p, data.sessionUsage));
    return data;
  });
  const [{ fetching: pausing }, pause] = useMutation(SessionPauseDocument);
  const [{ fetching: resuming }, resume] = useMutation(SessionResumeDocument);
  const [{ fetching: stopping }, stop] = useMutation(SessionStopDocument);
  const [{ fetching: extending }, extend] = useMutation(SessionExtendDocument);
  const [expiry, setExpiry] = useState<Expiry>("H4");
  const actionErrors = useFieldErrors([]);
  const extendErrors = useFieldErrors(["expiry"]);

  const s = status.data?.sessionStatus;
  if (status.error && !s)
    return (
      <Alert color="red" role="alert">
        {status.error.message}
      </Alert>
    );
  if (!s)
    return (
      <Group p="xl">
        <Loader size="sm" /> <Text>{t("common.loading")}</Text>
      </Group>
    );
  const can = sessionActions(s.state);
  const busy = ["STARTING", "SCHEDULED", "PAUSING", "RESUMING", "STOPPING"].includes(s.state);

  return (
    <Stack data-testid="session-page">
      <Anchor component={Link} href="/sessions" size="sm">
        ← {t("nav.sessions")}
      </Anchor>
      <PageHeader
        title={s.name}
        description={s.imageReference}
        actions={
          <Group>
            <Badge size="lg" color={STATE_COLOR[s.state]} data-testid="session-state" leftSection={busy ? <Loader size={10} color="white" /> : undefined}>
              {t(`state.${s.state}`)}
            </Badge>
            {can.pause && (
              <Button variant="default" loading={pausing} onClick={async () => actionErrors.take(await pause({ input: { id: s.id } }), (d) => d.sessionPause)}>
                {t("sessions.pause")}
              </Button>
            )}
            {can.resume && (
              <Button variant="default" loading={resuming} onClick={async () => actionErrors.take(await resume({ input: { id: s.id } }), (d) => d.sessionResume)}>
                {t("sessions.resume")}
              </Button>
            )}
            {can.stop && (
              <Button
                color="red"
                variant="light"
                loading={stopping}
                onClick={async () => {
                  if (window.confirm(t("sessions.stopConfirm", { name: s.name }))) actionErrors.take(await stop({ input: { id: s.id } }), (d) => d.sessionStop);
                }}
              >
                {t("sessions.stop")}
              </Button>
            )}
          </Group>
        }
      />
      {s.stateReason && !["RUNNING", "STARTING", "SCHEDULED"].includes(s.state) && (
        <Alert color={s.state === "FAILED" || s.state === "REJECTED" ? "red" : "blue"} data-testid="state-reason">
          {/* the server's reason is English prose (for API clients); other languages say what the state means */}
          {localisedReason(t, language, s.state, s.stateReason, s.stateReasonCode, s.stateReasonParams)}
        </Alert>
      )}
      {s.state === "QUEUED" && s.queuePosition && (
        <Alert color="yellow" data-testid="queue-position">
          {t("sessions.queued", { position: s.queuePosition.position, length: s.queuePosition.length, offering: s.queuePosition.offering })}
        </Alert>
      )}
      <GeneralErrors messages={actionErrors.general} />
      <Group gap="lg" data-testid="session-context">
        <Text size="sm">
          <Text span c="dimmed">
            {t("sessions.group")}:
          </Text>{" "}
          {s.group?.name ?? "—"}
        </Text>
        {s.templateName && (
          <Text size="sm">
            <Text span c="dimmed">
              {t("sessions.template")}:
            </Text>{" "}
            {s.templateName}
          </Text>
        )}
        {s.approver && (
          <Text size="sm">
            <Text span c="dimmed">
              {t("sessions.approver")}:
            </Text>{" "}
            {s.approver.displayName} ({s.approver.username})
          </Text>
        )}
      </Group>
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <Card withBorder>
          <Text size="sm" c="dimmed">
            {t("sessions.remaining")}
          </Text>
          <Remaining s={s} />
          {can.extend && (
            <Group mt="sm" align="flex-start" gap="xs">
              <Select
                size="xs"
                aria-label={t("sessions.expiry")}
                data={EXPIRIES.map((e) => ({ value: e, label: t(`expiry.${e}`) }))}
                value={expiry}
                onChange={(v) => setExpiry((v as Expiry) ?? "H4")}
                allowDeselect={false}
                error={extendErrors.field("expiry")}
                w={140}
              />
              <Button size="xs" variant="default" loading={extending} onClick={async () => extendErrors.take(await extend({ input: { id: s.id, expiry } }), (d) => d.sessionExtend)}>
                {t("sessions.extend")}
              </Button>
            </Group>
          )}
          <GeneralErrors messages={extendErrors.general} />
        </Card>
        <CostSoFar s={s} />
        <Card withBorder>
          <Text size="sm" c="dimmed">
            {t("sessions.resources")}
          </Text>
          <Text size="sm">
            {s.cpuMillicores / 1000} CPU · {formatMib(s.memoryMib)}
          </Text>
          {s.gpu ? (
            <Text size="sm">
              {s.gpu.placedModel ? `${s.gpu.offeringName} → ${s.gpu.placedModel}` : s.gpu.offeringName} · {s.gpu.cards > 1 ? `${s.gpu.cards} × ` : ""}
              {formatMib(s.gpu.vramMib)} · {s.gpu.cores}%{s.gpu.exclusive ? "" : ` · ${t("presets.ratio")} ${s.gpu.ratio}`}
              {s.gpu.shared ? ` · ${t("capacity.shared")}` : ""}
            </Text>
          ) : (
            <Text size="sm">{t("presets.cpuOnly")}</Text>
          )}
          {s.placement && (
            <Text size="xs" c="dimmed">
              {s.placement.clusterId} / {s.placement.nodeId} · {s.placement.kind}
            </Text>
          )}
        </Card>
      </SimpleGrid>
      <Card withBorder>
        <Title order={5} mb="xs">
          {t("sessions.endpoints")}
        </Title>
        <Group>
          {ENDPOINTS.map(([key, label]) => {
            const href = s.endpoints[key];
            return (
              <Button key={key} component="a" href={href ?? undefined} target="_blank" rel="noreferrer" disabled={!href || s.state !== "RUNNING"} variant="light" data-testid={`endpoint-${key}`}>
                {key === "terminal" ? t("sessions.endpointTerminal") : label /* product names stay */}
              </Button>
            );
          })}
          {s.endpoints.ssh && <Code>{s.endpoints.ssh}</Code>}
        </Group>
      </Card>
      <Card withBorder>
        <Title order={5} mb="xs">
          {t("sessions.usage")}
        </Title>
        <UsageChart samples={samples} />
      </Card>
      {s.mounts.length > 0 && (
        <Card withBorder>
          <Title order={5} mb="xs">
            {t("sessions.volumes")}
          </Title>
          <Table>
            <Table.Tbody>
              {s.mounts.map((m) => (
                <Table.Tr key={m.volumeId + m.mountPath}>
                  <Table.Td>{m.volumeName ?? t("sessions.volumeGone")}</Table.Td>
                  <Table.Td ff="monospace">{m.mountPath}</Table.Td>
                  <Table.Td>{t(`mount.${m.mode}`)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Card>
      )}
    </Stack>
  );
}

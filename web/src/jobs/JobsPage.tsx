import { useEffect, useState } from "react";
import { Alert, Badge, Button, Card, Code, Group, Select, SimpleGrid, Stack, Table, Text, TextInput, Textarea, Title } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import { useLanguage } from "../i18n";
import { useFieldErrors } from "../common/errors";
import { formatDateTime } from "../common/format";
import { Empty, GeneralErrors, PageHeader, QueryState, WithCode } from "../common/ui";
import { SessionCreateDocument, SessionStopDocument } from "../sessions/documents";
import { STATE_COLOR } from "../sessions/states";

/** Batch jobs: submit an image and a command on whole (exclusive) cards, follow each job's
 * state, exit code and log tail, cancel one. A job is a session of kind JOB: the server runs
 * admission, bills the seconds it runs and keeps the log's end once it ends. */

const JobChoicesDocument = graphql(`
  query JobChoices {
    offerings(first: 100) {
      nodes {
        id
        name
        vramMib
      }
    }
    presets(first: 100) {
      nodes {
        id
        name
        tier
        gpuCount
      }
    }
    images(first: 100) {
      nodes {
        id
        name
        reference
      }
    }
  }
`);

const MyJobsDocument = graphql(`
  query MyJobs {
    mySessions(first: 100) {
      nodes {
        id
        name
        kind
        state
        stateReason
        exitCode
        createdAt
        gpu {
          offeringName
          cards
        }
      }
    }
  }
`);

const JobDetailDocument = graphql(`
  query JobDetail($id: ID!) {
    node(id: $id) {
      ... on Session {
        id
        name
        state
        stateReason
        exitCode
        command
        args
        backoffLimit
        logTail(lines: 20) {
          lines
          live
          reason
        }
      }
    }
  }
`);

const FINISHED = new Set(["SUCCEEDED", "FAILED", "STOPPED", "REJECTED", "EXPIRED"]);

function JobDetail({ id }: { id: string }) {
  const { t } = useLanguage();
  const [r, refetch] = useQuery({ query: JobDetailDocument, variables: { id }, requestPolicy: "network-only" });
  const [{ fetching: cancelling }, cancel] = useMutation(SessionStopDocument);
  const errors = useFieldErrors([]);
  const job = r.data?.node?.__typename === "Session" ? r.data.node : null;
  const done = job ? FINISHED.has(job.state) : false;
  useEffect(() => {
    if (done) return;
    const timer = setInterval(() => refetch({ requestPolicy: "network-only" }), 2000);
    return () => clearInterval(timer);
  }, [done, refetch]);
  return (
    <Card withBorder data-testid="job-detail">
      <QueryState fetching={r.fetching && !job} error={r.error}>
        {job && (
          <Stack gap="xs">
            <Group justify="space-between">
              <Title order={4}>{job.name}</Title>
              <Badge color={STATE_COLOR[job.state]} data-testid="job-state" style={{ overflow: "visible" }}>
                {t(`state.${job.state}`)}
              </Badge>
            </Group>
            <Text size="sm" c="dimmed">
              {job.exitCode != null ? t("jobs.exitCode", { code: String(job.exitCode) }) : t("jobs.noExitYet")}
            </Text>
            <Code block data-testid="job-command">
              {[...job.command, ...job.args].join(" ")}
            </Code>
            <Text size="sm" fw={600}>
              {job.logTail.live ? t("jobs.logLive") : t("jobs.logKept")}
            </Text>
            {job.logTail.lines.length ? (
              <Code block data-testid="job-log">
                {job.logTail.lines.join("\n")}
              </Code>
            ) : (
              <Text size="sm" c="dimmed" data-testid="job-log-empty">
                {t("jobs.noLog")}
              </Text>
            )}
            {!done && (
              <Group>
                <Button
                  color="red"
                  variant="light"
                  loading={cancelling}
                  data-testid="job-cancel"
                  onClick={async () => {
                    if (errors.take(await cancel({ input: { id: job.id } }), (d) => d.sessionStop)) refetch({ requestPolicy: "network-only" });
                  }}
                >
                  {t("jobs.cancel")}
                </Button>
              </Group>
            )}
            <GeneralErrors messages={errors.general} />
          </Stack>
        )}
      </QueryState>
    </Card>
  );
}

export default function JobsPage() {
  const { t, language } = useLanguage();
  const [choices] = useQuery({ query: JobChoicesDocument });
  const [jobs, refetchJobs] = useQuery({ query: MyJobsDocument, requestPolicy: "cache-and-network" });
  const [{ fetching: submitting }, create] = useMutation(SessionCreateDocument);
  const errors = useFieldErrors(["name", "imageId", "offeringId", "presetId", "command", "args"]);
  const [name, setName] = useState("");
  const [imageId, setImageId] = useState<string | null>(null);
  const [offeringId, setOfferingId] = useState<string | null>(null);
  const [presetId, setPresetId] = useState<string | null>(null);
  const [command, setCommand] = useState("python train.py");
  const [selected, setSelected] = useState<string | null>(null);

  const list = (jobs.data?.mySessions.nodes ?? []).filter((s) => s.kind === "JOB");
  const active = list.some((j) => !FINISHED.has(j.state));
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => refetchJobs({ requestPolicy: "network-only" }), 3000);
    return () => clearInterval(timer);
  }, [active, refetchJobs]);

  // whole cards only: a job takes exclusive cards, never a HAMi share, a MIG slice or a time-slice
  const exclusive = (choices.data?.presets.nodes ?? []).filter((p) => p.tier === "EXCLUSIVE");
  const submit = async () => {
    const result = await create({
      input: {
        name,
        kind: "JOB",
        imageId: imageId ?? "",
        offeringId,
        presetId,
        command: ["sh", "-c"],
        args: [command],
      },
    });
    const made = result.data?.sessionCreate.session;
    if (errors.take(result, (d) => d.sessionCreate) && made) {
      setSelected(made.id);
      setName("");
      refetchJobs({ requestPolicy: "network-only" });
    }
  };

  return (
    <Stack data-testid="jobs-page">
      <PageHeader title={t("nav.jobs")} description={t("jobs.description")} />
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder>
          <Stack gap="sm">
            <Title order={4}>{t("jobs.submit")}</Title>
            <TextInput label={t("sessions.name")} value={name} onChange={(e) => setName(e.currentTarget.value)} error={errors.field("name")} data-testid="job-name" />
            <Select
              label={t("sessions.image")}
              data={(choices.data?.images.nodes ?? []).map((i) => ({ value: i.id, label: i.name }))}
              value={imageId}
              onChange={setImageId}
              error={errors.field("imageId")}
              data-testid="job-image"
            />
            <Select
              label={t("sessions.offering")}
              data={(choices.data?.offerings.nodes ?? []).map((o) => ({ value: o.id, label: o.name }))}
              value={offeringId}
              onChange={setOfferingId}
              error={errors.field("offeringId")}
              data-testid="job-offering"
            />
            <Select
              label={t("jobs.cards")}
              description={t("jobs.cardsHint")}
              data={exclusive.map((p) => ({ value: p.id, label: p.name }))}
              value={presetId}
              onChange={setPresetId}
              error={errors.field("presetId")}
              data-testid="job-preset"
            />
            <Textarea
              label={t("jobs.command")}
              translate="no"
              description={<WithCode text={t("jobs.commandHint")} />}
              value={command}
              onChange={(e) => setCommand(e.currentTarget.value)}
              error={errors.field("args") ?? errors.field("command")}
              autosize
              minRows={2}
              data-testid="job-command-input"
            />
            <GeneralErrors messages={errors.general} />
            <Group>
              <Button onClick={submit} loading={submitting} disabled={!name || !imageId || !presetId || !command} data-testid="job-submit">
                {t("jobs.submitButton")}
              </Button>
            </Group>
          </Stack>
        </Card>
        {selected ? <JobDetail id={selected} /> : <Alert color="gray">{t("jobs.pick")}</Alert>}
      </SimpleGrid>
      <QueryState fetching={jobs.fetching && !jobs.data} error={jobs.error}>
        {list.length === 0 ? (
          <Empty>{t("jobs.none")}</Empty>
        ) : (
          <Table striped data-testid="jobs-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("sessions.name")}</Table.Th>
                <Table.Th>{t("common.status")}</Table.Th>
                <Table.Th>{t("jobs.gpus")}</Table.Th>
                <Table.Th>{t("jobs.exit")}</Table.Th>
                <Table.Th>{t("common.created")}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.map((j) => (
                <Table.Tr key={j.id} onClick={() => setSelected(j.id)} style={{ cursor: "pointer" }} data-testid={`job-row-${j.name}`}>
                  <Table.Td>
                    <Button variant="subtle" size="compact-sm" onClick={() => setSelected(j.id)}>
                      {j.name}
                    </Button>
                  </Table.Td>
                  <Table.Td>
                    <Badge color={STATE_COLOR[j.state]} style={{ overflow: "visible" }}>
                      {t(`state.${j.state}`)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{j.gpu ? `${j.gpu.offeringName} × ${j.gpu.cards}` : "—"}</Table.Td>
                  <Table.Td>{j.exitCode ?? "—"}</Table.Td>
                  <Table.Td>{formatDateTime(j.createdAt, language)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </QueryState>
    </Stack>
  );
}

import { useState } from "react";
import { Alert, Button, Group, NumberInput, Select, Stack, Stepper, Text } from "@mantine/core";
import { useMutation, useSubscription } from "urql";
import { graphql } from "../../gql";
import type { NodeOperationStep, SharingMode } from "../../gql/graphql";
import { useLanguage } from "../../i18n";
import { useFieldErrors } from "../../common/errors";
import { GeneralErrors } from "../../common/ui";

const NodeSharingModeChangeDocument = graphql(`
  mutation NodeSharingModeChange($input: NodeSharingModeChangeInput!) {
    nodeSharingModeChange(input: $input) {
      operation {
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

const NodeOperationProgressSubscription = graphql(`
  subscription NodeOperationProgress($id: ID!) {
    nodeOperationProgress(id: $id) {
      id
      state
      currentStep
      steps {
        step
        message
        at
      }
      drainedSessions
      removedResources
      error
      finishedAt
    }
  }
`);

export const STEPS: NodeOperationStep[] = ["PRECHECK", "CORDON", "DRAIN", "RELABEL", "WAIT_FOR_RESOURCE", "REMOVE_STALE", "UNCORDON"];
const MODES: SharingMode[] = ["HAMI", "TIMESLICING", "EXCLUSIVE"];

/** Index of the step the stepper shows as active: the current one, or past the end when done. */
export function activeStep(current: NodeOperationStep | null | undefined, state: string | undefined): number {
  if (state === "SUCCEEDED") return STEPS.length;
  return current ? STEPS.indexOf(current) : 0;
}

function Progress({ id }: { id: string }) {
  const { t } = useLanguage();
  const [r] = useSubscription({ query: NodeOperationProgressSubscription, variables: { id } });
  const op = r.data?.nodeOperationProgress;
  if (!op) return <Text size="sm">{t("common.loading")}</Text>;
  const byStep = new Map(op.steps.map((s) => [s.step, s.message]));
  return (
    <Stack data-testid="node-operation" data-state={op.state}>
      <Stepper active={activeStep(op.currentStep, op.state)} orientation="vertical" size="sm" color={op.state === "FAILED" ? "red" : undefined}>
        {STEPS.map((s) => (
          <Stepper.Step key={s} label={t(`nodeStep.${s}`)} description={byStep.get(s)} loading={op.state === "RUNNING" && op.currentStep === s} />
        ))}
      </Stepper>
      {op.state === "FAILED" && <Alert color="red">{op.error}</Alert>}
      {op.state === "SUCCEEDED" && <Alert color="teal">{t("nodeOp.done")}</Alert>}
      {op.drainedSessions.length > 0 && <Text size="sm">{t("nodeOp.drained", { count: op.drainedSessions.length })}</Text>}
      {op.removedResources.length > 0 && <Text size="sm">{t("nodeOp.removed", { resources: op.removedResources.join(", ") })}</Text>}
    </Stack>
  );
}

/** Change a node's sharing mode (super admin): the request, then its steps live. */
export function SharingModeChange({ clusterId, nodeId, current, onClose }: { clusterId: string; nodeId: string; current: SharingMode; onClose(): void }) {
  const { t } = useLanguage();
  const [mode, setMode] = useState<SharingMode>(current);
  const [replicas, setReplicas] = useState<string>("4");
  const [operation, setOperation] = useState<string | null>(null);
  const [{ fetching }, change] = useMutation(NodeSharingModeChangeDocument);
  const errors = useFieldErrors(["mode", "replicas", "nodeId"]);
  if (operation) return <Progress id={operation} />;
  return (
    <Stack>
      <Text size="sm">{t("nodeOp.explain")}</Text>
      <Select label={t("nodeOp.mode")} data={MODES.map((m) => ({ value: m, label: t(`sharing.${m}`) }))} value={mode} onChange={(v) => setMode((v as SharingMode) ?? current)} allowDeselect={false} error={errors.field("mode") ?? errors.field("nodeId")} />
      {mode === "TIMESLICING" && <NumberInput label={t("nodeOp.replicas")} value={replicas} min={2} max={64} onChange={(v) => setReplicas(String(v))} error={errors.field("replicas")} />}
      <GeneralErrors messages={errors.general} />
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {t("common.cancel")}
        </Button>
        <Button
          color="orange"
          loading={fetching}
          onClick={async () => {
            const res = await change({ input: { clusterId, nodeId, mode, replicas: mode === "TIMESLICING" ? Number(replicas) : null } });
            if (errors.take(res, (d) => d.nodeSharingModeChange)) setOperation(res.data!.nodeSharingModeChange.operation!.id);
          }}
        >
          {t("nodeOp.start")}
        </Button>
      </Group>
    </Stack>
  );
}

import { useState } from "react";
import { Alert, Button, Group, Stack, Text, TextInput } from "@mantine/core";
import { useMutation } from "urql";
import { graphql } from "../../gql";
import { useT } from "../../i18n";
import { useFieldErrors } from "../../common/errors";
import { GeneralErrors } from "../../common/ui";

const NodeCordonSetDocument = graphql(`
  mutation NodeCordonSet($input: NodeCordonSetInput!) {
    nodeCordonSet(input: $input) {
      nodeId
      cordoned
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

const NodeDrainDocument = graphql(`
  mutation NodeDrain($input: NodeDrainInput!) {
    nodeDrain(input: $input) {
      nodeId
      drainedSessions
      skippedSessions
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

export type NodeAction = "cordon" | "uncordon" | "drain";

/** A node's cordon, uncordon or drain, confirmed first: what will happen is said, and a drain
 * (which pauses running sessions) asks for the node's name to be typed. */
export function NodeGuard({ clusterId, node, action, sessions, onDone }: { clusterId: string; node: string; action: NodeAction; sessions: number; onDone(): void }) {
  const t = useT();
  const [typed, setTyped] = useState("");
  const [result, setResult] = useState<{ drained: number; skipped: number } | null>(null);
  const [{ fetching: cordoning }, cordon] = useMutation(NodeCordonSetDocument);
  const [{ fetching: draining }, drain] = useMutation(NodeDrainDocument);
  const errors = useFieldErrors(["clusterId", "nodeId"]);
  const guarded = action === "drain";
  const run = async (e: React.FormEvent) => {
    e.preventDefault();
    if (guarded && typed !== node) return;
    if (action === "drain") {
      const r = await drain({ input: { clusterId, nodeId: node } });
      if (errors.take(r, (d) => d.nodeDrain)) setResult({ drained: r.data!.nodeDrain.drainedSessions.length, skipped: r.data!.nodeDrain.skippedSessions.length });
    } else if (errors.take(await cordon({ input: { clusterId, nodeId: node, cordoned: action === "cordon" } }), (d) => d.nodeCordonSet)) {
      onDone();
    }
  };
  if (result)
    return (
      <Stack>
        <Alert color="teal" data-testid="node-drained">
          {t("nodeGuard.drained", { count: result.drained })}
          {result.skipped > 0 && ` ${t("nodeGuard.skipped", { count: result.skipped })}`}
        </Alert>
        <Group justify="flex-end">
          <Button onClick={onDone}>{t("nodeGuard.close")}</Button>
        </Group>
      </Stack>
    );
  return (
    <form onSubmit={run} noValidate>
      <Stack>
        <Text size="sm">{t(`nodeGuard.explain.${action}`, { count: sessions })}</Text>
        {guarded && <TextInput label={t("nodeGuard.type", { node })} value={typed} onChange={(e) => setTyped(e.currentTarget.value)} autoComplete="off" data-testid="node-guard-typed" />}
        {(errors.field("nodeId") ?? errors.field("clusterId")) && (
          <Text c="red" size="sm">
            {errors.field("nodeId") ?? errors.field("clusterId")}
          </Text>
        )}
        <GeneralErrors messages={errors.general} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t("common.cancel")}
          </Button>
          <Button type="submit" color={action === "uncordon" ? "teal" : "orange"} loading={cordoning || draining} disabled={guarded && typed !== node} data-testid="node-guard-submit">
            {t(`nodeGuard.${action}`)}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

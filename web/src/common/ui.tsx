import type { ReactNode } from "react";
import { Alert, Button, Center, Code, Group, Loader, Stack, Text, Title } from "@mantine/core";
import type { CombinedError } from "urql";
import { useT } from "../i18n";
import { describeCombinedError } from "./errors";

export function PageHeader({ title, actions, description }: { title: string; actions?: ReactNode; description?: string }) {
  return (
    <Group justify="space-between" align="flex-end" mb="md">
      <Stack gap={2}>
        <Title order={2}>{title}</Title>
        {description && (
          <Text c="dimmed" size="sm">
            {description}
          </Text>
        )}
      </Stack>
      {actions}
    </Group>
  );
}

/** No content yet: `{r.data && …}` is false and `{rows.map(…)}` an empty list before the data. */
function nothing(children: ReactNode): boolean {
  if (Array.isArray(children)) return children.every(nothing);
  return children === null || children === undefined || children === false || children === "";
}

/** Loading, query error or content: the same shape on every screen. */
export function QueryState({ fetching, error, children }: { fetching: boolean; error?: CombinedError; children: ReactNode }) {
  const t = useT();
  if (error)
    return (
      <Alert color="red" title={t("common.loadFailed")} role="alert">
        {describeCombinedError(error, t)}
      </Alert>
    );
  if (fetching && nothing(children))
    return (
      <Center p="xl">
        <Loader aria-label={t("common.loading")} />
      </Center>
    );
  return <>{children}</>;
}

/** Refusals that do not name a field the form shows. */
/** A dialog form's Cancel and Save buttons. */
export function FormActions({ onCancel, saving }: { onCancel(): void; saving: boolean }) {
  const t = useT();
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onCancel}>
        {t("common.cancel")}
      </Button>
      <Button type="submit" loading={saving}>
        {t("common.save")}
      </Button>
    </Group>
  );
}

export function GeneralErrors({ messages }: { messages: string[] }) {
  if (messages.length === 0) return null;
  return (
    <Alert color="red" role="alert" data-testid="form-errors">
      <Stack gap={2}>
        {messages.map((m) => (
          <Text key={m} size="sm">
            {m}
          </Text>
        ))}
      </Stack>
    </Alert>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return (
    <Text c="dimmed" ta="center" p="lg">
      {children}
    </Text>
  );
}

/** A message whose `backquoted` parts are code (a header, a command): shown as code and marked
 * `translate="no"`, the rest is the viewer's language. */
export function WithCode({ text }: { text: string }) {
  return (
    <>
      {text.split("`").map((part, i) =>
        i % 2 ? (
          <Code key={i} translate="no">
            {part}
          </Code>
        ) : (
          part
        ),
      )}
    </>
  );
}

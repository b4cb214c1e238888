import { useEffect, useRef } from "react";
import { Anchor, Badge, Button, Card, Group, Stack, Text, Title } from "@mantine/core";
import { useMutation, useQuery, useSubscription } from "urql";
import { Link } from "wouter";
import { graphql } from "../gql";
import { useLanguage } from "../i18n";
import { formatDateTime } from "../common/format";
import { Pager, useCursorPages } from "../common/pagination";
import { useFieldErrors } from "../common/errors";
import { GeneralErrors } from "../common/ui";

const NotificationsDocument = graphql(`
  query Notifications($first: Int, $after: String) {
    notifications(first: $first, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        id
        kind
        message
        createdAt
        readAt
        sessionId
      }
    }
  }
`);

const NotificationsSubscription = graphql(`
  subscription NotificationsLive {
    notifications {
      id
    }
  }
`);

const MarkReadDocument = graphql(`
  mutation NotificationsMarkRead($input: NotificationsMarkReadInput!) {
    notificationsMarkRead(input: $input) {
      marked
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

export function NotificationsCard() {
  const { t, language } = useLanguage();
  const pages = useCursorPages(5);
  const [r, refetch] = useQuery({ query: NotificationsDocument, variables: pages.variables });
  const [live] = useSubscription({ query: NotificationsSubscription });
  const [{ fetching }, markRead] = useMutation(MarkReadDocument);
  const errors = useFieldErrors([]);
  const seen = useRef(false);
  useEffect(() => {
    if (!live.data) return;
    if (seen.current) refetch({ requestPolicy: "network-only" });
    seen.current = true;
  }, [live.data, refetch]);
  const conn = r.data?.notifications;
  const unread = (conn?.nodes ?? []).filter((n) => !n.readAt).map((n) => n.id);
  return (
    <Card withBorder data-testid="notifications">
      <Group justify="space-between" mb="xs">
        <Title order={4}>{t("notifications.title")}</Title>
        {unread.length > 0 && (
          <Button
            size="xs"
            variant="subtle"
            loading={fetching}
            onClick={async () => {
              if (errors.take(await markRead({ input: { ids: unread } }), (d) => d.notificationsMarkRead)) refetch({ requestPolicy: "network-only" });
            }}
          >
            {t("notifications.markRead")}
          </Button>
        )}
      </Group>
      <GeneralErrors messages={errors.general} />
      <Stack gap="xs">
        {conn && conn.nodes.length === 0 && (
          <Text size="sm" c="dimmed">
            {t("notifications.none")}
          </Text>
        )}
        {conn?.nodes.map((n) => (
          <Group key={n.id} justify="space-between" wrap="nowrap" align="flex-start">
            <Stack gap={0}>
              <Text size="sm" fw={n.readAt ? 400 : 600}>
                {n.message}
              </Text>
              <Text size="xs" c="dimmed">
                {formatDateTime(n.createdAt, language)}
                {n.sessionId && (
                  <>
                    {" · "}
                    <Anchor component={Link} href={`/sessions/${encodeURIComponent(n.sessionId)}`} size="xs">
                      {t("notifications.session")}
                    </Anchor>
                  </>
                )}
              </Text>
            </Stack>
            <Badge size="xs" variant="light">
              {n.kind}
            </Badge>
          </Group>
        ))}
      </Stack>
      {conn && conn.totalCount > 5 && <Pager pages={pages} pageInfo={conn.pageInfo} totalCount={conn.totalCount} fetching={r.fetching} />}
    </Card>
  );
}

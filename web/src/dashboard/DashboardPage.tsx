import { Badge, Button, Card, Group, Select, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { useMutation } from "urql";
import { Link } from "wouter";
import { graphql } from "../gql";
import { useT } from "../i18n";
import { useFieldErrors } from "../common/errors";
import { GeneralErrors, PageHeader } from "../common/ui";
import { useViewer } from "../app/viewer";
import { SessionsTable } from "../sessions/SessionsTable";
import { CapacityCard } from "./CapacityCard";
import { NotificationsCard } from "./NotificationsCard";
import { WalletCard } from "../credits/WalletCard";
import { GroupCapsCard } from "../sessions/GroupCaps";

const ActiveGroupSetDocument = graphql(`
  mutation ActiveGroupSet($input: ActiveGroupSetInput!) {
    activeGroupSet(input: $input) {
      user {
        id
        activeGroup {
          id
          name
          organization {
            id
            name
          }
        }
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

function GroupCard() {
  const t = useT();
  const { me, refresh } = useViewer();
  const [{ fetching }, setActive] = useMutation(ActiveGroupSetDocument);
  const errors = useFieldErrors(["groupId"]);
  return (
    <Card withBorder>
      <Title order={4} mb="sm">
        {t("dashboard.activeGroup")}
      </Title>
      <Select
        aria-label={t("dashboard.activeGroup")}
        description={t("dashboard.activeGroupHint")}
        data={me.memberships.map((m) => ({ value: m.group.id, label: `${m.group.organization.name} / ${m.group.name}` }))}
        value={me.activeGroup?.id ?? null}
        disabled={fetching}
        allowDeselect={false}
        error={errors.field("groupId")}
        onChange={async (v) => {
          if (v && errors.take(await setActive({ input: { groupId: v } }), (d) => d.activeGroupSet)) refresh();
        }}
        data-testid="active-group"
      />
      <GeneralErrors messages={errors.general} />
      <Stack gap={6} mt="md">
        {me.memberships.length === 0 && <Text c="dimmed">{t("dashboard.noMemberships")}</Text>}
        {me.memberships.map((m) => (
          <Group key={m.group.id} justify="space-between">
            <Text size="sm">
              {m.group.organization.name} / {m.group.name}
            </Text>
            <Badge variant="light">{t(`role.${m.role}`)}</Badge>
          </Group>
        ))}
        {me.isSuperAdmin && (
          <Group justify="space-between">
            <Text size="sm">{t("dashboard.everything")}</Text>
            <Badge color="grape">{t("role.SUPER_ADMIN")}</Badge>
          </Group>
        )}
      </Stack>
    </Card>
  );
}

export default function DashboardPage() {
  const t = useT();
  const { me } = useViewer();
  return (
    <Stack data-testid="dashboard">
      <PageHeader
        title={t("dashboard.title")}
        description={t("dashboard.welcome", { name: me.displayName || me.username })}
        actions={
          <Button component={Link} href="/sessions/new" data-testid="dashboard-new-session">
            {t("sessions.new")}
          </Button>
        }
      />
      <WalletCard />
      {me.activeGroup && <GroupCapsCard groupId={me.activeGroup.id} title={t("caps.homeTitle")} />}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <GroupCard />
        <NotificationsCard />
      </SimpleGrid>
      <Card withBorder>
        <Title order={4} mb="sm">
          {t("dashboard.mySessions")}
        </Title>
        <SessionsTable pageSize={5} />
      </Card>
      <CapacityCard />
    </Stack>
  );
}

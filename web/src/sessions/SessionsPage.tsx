import { Button, Stack } from "@mantine/core";
import { Link } from "wouter";
import { useT } from "../i18n";
import { PageHeader } from "../common/ui";
import { SessionsTable } from "./SessionsTable";

export default function SessionsPage() {
  const t = useT();
  return (
    <Stack>
      <PageHeader
        title={t("nav.sessions")}
        actions={
          <Button component={Link} href="/sessions/new" data-testid="session-new">
            {t("sessions.new")}
          </Button>
        }
      />
      <SessionsTable />
    </Stack>
  );
}

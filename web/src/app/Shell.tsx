import { useEffect, useRef, type ReactNode } from "react";
import { AppShell, Badge, Burger, Button, Group, NavLink, SegmentedControl, Text, Tooltip } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { useMutation, useSubscription } from "urql";
import { Link, useLocation } from "wouter";
import { graphql } from "../gql";
import { useLanguage, type Language } from "../i18n";
import type { MessageKey } from "../i18n/en";
import { useViewer, type AdminScope } from "./viewer";

const ViewerSubscription = graphql(`
  subscription ViewerState {
    viewer {
      userId
      username
      isSuperAdmin
      readOnly
    }
  }
`);

const LogoutDocument = graphql(`
  mutation Logout {
    logout {
      ok
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

interface NavItem {
  to: string;
  label: MessageKey;
  show?: (a: AdminScope) => boolean;
}

const USER_NAV: NavItem[] = [
  { to: "/", label: "nav.dashboard" },
  { to: "/sessions", label: "nav.sessions" },
  { to: "/jobs", label: "nav.jobs" },
  { to: "/wallet", label: "nav.wallet" },
  { to: "/volumes", label: "nav.volumes" },
  { to: "/templates", label: "nav.templates" },
  { to: "/images", label: "nav.myImages" },
  { to: "/tokens", label: "nav.tokens" },
];

const ADMIN_NAV: NavItem[] = [
  { to: "/admin/organizations", label: "nav.organizations", show: (a) => a.superAdmin || a.orgAdmin },
  { to: "/admin/users", label: "nav.users" },
  { to: "/admin/sessions", label: "nav.adminSessions" },
  { to: "/admin/credits", label: "nav.credits" },
  { to: "/admin/policies", label: "nav.policies" },
  { to: "/admin/usage", label: "nav.usage" },
  { to: "/admin/history", label: "nav.history" },
  { to: "/admin/clusters", label: "nav.clusters", show: (a) => a.superAdmin || a.orgAdmin },
  { to: "/admin/queue", label: "nav.queue" },
  { to: "/admin/catalog", label: "nav.catalog", show: (a) => a.superAdmin || a.orgAdmin },
  { to: "/admin/audit", label: "nav.audit" },
  { to: "/admin/operations", label: "nav.operations", show: (a) => a.superAdmin },
];

export function Shell({ children }: { children: ReactNode }) {
  const { me, admin, refresh } = useViewer();
  const { t, language, setLanguage } = useLanguage();
  const [opened, { toggle, close }] = useDisclosure();
  const [location] = useLocation();
  const [, logout] = useMutation(LogoutDocument);
  const [live] = useSubscription({ query: ViewerSubscription });

  // The server pushes the viewer's state on every change to the account (roles, sign-out
  // elsewhere); reload what the shell derives from it.
  const seen = useRef<string | null>(null);
  const liveState = live.data?.viewer;
  useEffect(() => {
    if (!liveState) return;
    const key = `${liveState.userId}:${liveState.isSuperAdmin}:${liveState.readOnly}`;
    if (seen.current !== null && seen.current !== key) refresh();
    seen.current = key;
  }, [liveState, refresh]);

  const isActive = (to: string) => (to === "/" ? location === "/" : location.startsWith(to));
  const item = (n: NavItem) => (
    <NavLink
      key={n.to}
      component={Link}
      href={n.to}
      label={t(n.label)}
      active={isActive(n.to)}
      onClick={close}
      data-testid={`nav-${n.to}`}
    />
  );

  const signOut = async () => {
    await logout({});
    // A full reload drops every cached query and the WebSocket of this user.
    window.location.hash = "/";
    window.location.reload();
  };

  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 230, breakpoint: "sm", collapsed: { mobile: !opened } }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t("nav.menu")} />
            <Text fw={700} size="lg">
              gshare
            </Text>
            <Tooltip label={live.data ? t("shell.liveOn") : t("shell.liveOff")}>
              <Badge size="xs" variant="dot" color={live.data ? "teal" : "gray"} data-testid="live-badge">
                {t("shell.live")}
              </Badge>
            </Tooltip>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <SegmentedControl
              size="xs"
              value={language}
              onChange={(v) => setLanguage(v as Language)}
              data={[
                { value: "ko", label: <span lang="ko">한국어</span> },
                { value: "en", label: <span lang="en">English</span> },
              ]}
              aria-label={t("shell.language")}
              data-testid="language-switch"
            />
            <Text size="sm" visibleFrom="sm" data-testid="signed-in-as">
              {me.displayName || me.username}
            </Text>
            <Button size="xs" variant="default" onClick={signOut}>
              {t("shell.signOut")}
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs">
        {USER_NAV.map(item)}
        {admin.any && (
          <>
            <Text size="xs" c="dimmed" fw={700} mt="md" mb={4} px="sm" tt="uppercase" data-testid="admin-nav">
              {t("nav.admin")}
            </Text>
            {ADMIN_NAV.filter((n) => !n.show || n.show(admin)).map(item)}
          </>
        )}
      </AppShell.Navbar>
      <AppShell.Main>{children}</AppShell.Main>
    </AppShell>
  );
}

import { lazy, Suspense, useCallback, useMemo } from "react";
import { Center, Loader } from "@mantine/core";
import { useQuery } from "urql";
import { Route, Router, Switch } from "wouter";
import { useHashLocation } from "wouter/use-hash-location";
import { MeDocument, ViewerContext, adminScope } from "./viewer";
import { Shell } from "./Shell";
import { SignIn } from "../auth/SignIn";
import { useT } from "../i18n";

import Dashboard from "../dashboard/DashboardPage";
const Tokens = lazy(() => import("../tokens/TokensPage"));
const MyImages = lazy(() => import("../images/MyImagesPage"));
const Organizations = lazy(() => import("../admin/organizations/OrganizationsPage"));
const OrganizationDetail = lazy(() => import("../admin/organizations/OrganizationDetailPage"));
const Users = lazy(() => import("../admin/users/UsersPage"));
const UserDetail = lazy(() => import("../admin/users/UserDetailPage"));
const Catalog = lazy(() => import("../admin/catalog/CatalogPage"));
const Audit = lazy(() => import("../admin/audit/AuditPage"));
const Sessions = lazy(() => import("../sessions/SessionsPage"));
const NewSession = lazy(() => import("../sessions/NewSessionPage"));
const Session = lazy(() => import("../sessions/SessionPage"));
const Jobs = lazy(() => import("../jobs/JobsPage"));
const Volumes = lazy(() => import("../volumes/VolumesPage"));
const Templates = lazy(() => import("../templates/TemplatesPage"));
const Clusters = lazy(() => import("../admin/clusters/ClustersPage"));
const Queue = lazy(() => import("../admin/clusters/QueuePage"));
const AdminSessions = lazy(() => import("../admin/sessions/AdminSessionsPage"));
const Wallet = lazy(() => import("../credits/WalletPage"));
const Credits = lazy(() => import("../admin/credits/CreditsPage"));
const Policies = lazy(() => import("../admin/policies/PoliciesPage"));
const Usage = lazy(() => import("../admin/usage/UsagePage"));
const History = lazy(() => import("../admin/history/HistoryPage"));
const Operations = lazy(() => import("../admin/operations/OperationsPage"));

function Spinner() {
  const t = useT();
  return (
    <Center p="xl">
      <Loader aria-label={t("common.loading")} />
    </Center>
  );
}

export function App() {
  const [result, reexecute] = useQuery({ query: MeDocument });
  const refresh = useCallback(() => reexecute({ requestPolicy: "network-only" }), [reexecute]);
  const me = result.data?.me;
  const value = useMemo(() => (me ? { me, admin: adminScope(me), refresh } : null), [me, refresh]);

  if (!result.data && (result.fetching || !result.error)) return <Spinner />;
  // Without a viewer the sign-in form always shows: when asking who is signed in failed (the
  // server busy or restarting, the network down), the reason sits above the form instead of
  // replacing it, and signing in asks again.
  if (!me) return <SignIn onSignedIn={refresh} loadError={result.data ? undefined : result.error} />;

  return (
    <ViewerContext.Provider value={value}>
      <Router hook={useHashLocation}>
        <Shell>
          <Suspense fallback={<Spinner />}>
            <Switch>
              <Route path="/" component={Dashboard} />
              <Route path="/sessions" component={Sessions} />
              <Route path="/sessions/new" component={NewSession} />
              <Route path="/sessions/:id" component={Session} />
              <Route path="/jobs" component={Jobs} />
              <Route path="/wallet" component={Wallet} />
              <Route path="/admin/credits" component={Credits} />
              <Route path="/admin/policies" component={Policies} />
              <Route path="/admin/usage" component={Usage} />
              <Route path="/admin/history" component={History} />
              <Route path="/admin/operations" component={Operations} />
              <Route path="/volumes" component={Volumes} />
              <Route path="/templates" component={Templates} />
              <Route path="/admin/sessions" component={AdminSessions} />
              <Route path="/admin/clusters" component={Clusters} />
              <Route path="/admin/queue" component={Queue} />
              <Route path="/tokens" component={Tokens} />
              <Route path="/images" component={MyImages} />
              <Route path="/admin/organizations" component={Organizations} />
              <Route path="/admin/organizations/:id" component={OrganizationDetail} />
              <Route path="/admin/users" component={Users} />
              <Route path="/admin/users/:id" component={UserDetail} />
              <Route path="/admin/catalog/:tab?" component={Catalog} />
              <Route path="/admin/audit" component={Audit} />
              <Route component={Dashboard} />
            </Switch>
          </Suspense>
        </Shell>
      </Router>
    </ViewerContext.Provider>
  );
}

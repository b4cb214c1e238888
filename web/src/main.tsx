import { StrictMode, useMemo, type ReactNode } from "react";
import { createRoot } from "react-dom/client";
import { Badge, MantineProvider, PasswordInput, createTheme } from "@mantine/core";
import { Notifications } from "@mantine/notifications";
import { Provider as UrqlProvider } from "urql";
import "@mantine/core/styles.css";
import "@mantine/notifications/styles.css";
import { I18nProvider, useT } from "./i18n";
import { makeClient } from "./app/client";
import { App } from "./app/App";
import { hashRouteOf } from "./app/deepLink";

const route = hashRouteOf(location.pathname, location.search, location.hash);
if (route) history.replaceState(null, "", route);

// A badge never cuts its label ("ACT…", "INVALID_CREDE…"): it keeps its full width in a
// squeezed row or cell, which grows or wraps around it instead. The words Mantine writes itself
// (the password field's show/hide button) come in the viewer's language.
function Themed({ children }: { children: ReactNode }) {
  const t = useT();
  const theme = useMemo(
    () =>
      createTheme({
        primaryColor: "indigo",
        defaultRadius: "md",
        components: {
          Badge: Badge.extend({
            styles: {
              root: { flexShrink: 0, maxWidth: "none", overflow: "visible" },
              label: { overflow: "visible", textOverflow: "clip" },
            },
          }),
          PasswordInput: PasswordInput.extend({
            defaultProps: { visibilityToggleButtonProps: { "aria-label": t("common.togglePassword") } },
          }),
        },
      }),
    [t],
  );
  return <MantineProvider theme={theme}>{children}</MantineProvider>;
}
const client = makeClient();

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <I18nProvider>
      <Themed>
        <Notifications position="top-right" />
        <UrqlProvider value={client}>
          <App />
        </UrqlProvider>
      </Themed>
    </I18nProvider>
  </StrictMode>,
);

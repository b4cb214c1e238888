import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { Badge, MantineProvider, createTheme } from "@mantine/core";
import { Notifications } from "@mantine/notifications";
import { Provider as UrqlProvider } from "urql";
import "@mantine/core/styles.css";
import "@mantine/notifications/styles.css";
import { I18nProvider } from "./i18n";
import { makeClient } from "./app/client";
import { App } from "./app/App";
import { hashRouteOf } from "./app/deepLink";

const route = hashRouteOf(location.pathname, location.search, location.hash);
if (route) history.replaceState(null, "", route);

// A badge never cuts its label ("ACT…", "INVALID_CREDE…"): it keeps its full width in a
// squeezed row or cell, which grows or wraps around it instead.
const theme = createTheme({
  primaryColor: "indigo",
  defaultRadius: "md",
  components: {
    Badge: Badge.extend({
      styles: {
        root: { flexShrink: 0, maxWidth: "none", overflow: "visible" },
        label: { overflow: "visible", textOverflow: "clip" },
      },
    }),
  },
});
const client = makeClient();

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <MantineProvider theme={theme}>
      <Notifications position="top-right" />
      <I18nProvider>
        <UrqlProvider value={client}>
          <App />
        </UrqlProvider>
      </I18nProvider>
    </MantineProvider>
  </StrictMode>,
);

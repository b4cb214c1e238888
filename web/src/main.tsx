import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { MantineProvider, createTheme } from "@mantine/core";
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

const theme = createTheme({ primaryColor: "indigo", defaultRadius: "md" });
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

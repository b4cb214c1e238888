// GraphiQL served from the project's own build (web/dist/graphiql.html, answered by GET /graphql
// with Accept: text/html): no CDN, so it works on an air-gapped cluster. Queries and mutations
// go over HTTP POST with the browser's session cookie, subscriptions over graphql-ws.
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { GraphiQL } from "graphiql";
import { createGraphiQLFetcher } from "@graphiql/toolkit";
import { createClient } from "graphql-ws";
import "graphiql/style.css";

const url = new URL("/graphql", location.href);
const wsUrl = url.href.replace(/^http/, "ws");
const fetcher = createGraphiQLFetcher({
  url: url.href,
  wsClient: createClient({ url: wsUrl, lazy: true }),
  fetch: (input, init) => fetch(input, { ...init, credentials: "same-origin" }),
});

const root = document.getElementById("graphiql")!;
root.textContent = "";
createRoot(root).render(
  <StrictMode>
    <GraphiQL fetcher={fetcher} defaultQuery={"{\n  me {\n    username\n    displayName\n  }\n}\n"} />
  </StrictMode>,
);

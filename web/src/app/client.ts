import { Client, cacheExchange, fetchExchange, makeOperation, mapExchange, subscriptionExchange, type Operation } from "urql";
import { createClient as createWsClient } from "graphql-ws";

/** Whether the subscription socket is open now: live lists poll as a fallback while it is not. */
let socketOpen = false;
const socketListeners = new Set<() => void>();
function setSocketOpen(open: boolean) {
  if (open === socketOpen) return;
  socketOpen = open;
  socketListeners.forEach((l) => l());
}
export const socketStatus = {
  subscribe(listener: () => void): () => void {
    socketListeners.add(listener);
    return () => socketListeners.delete(listener);
  },
  isOpen: (): boolean => socketOpen,
};

/** The sha256 codegen gave a document (`__meta__.hash`, persisted documents), if any. */
export function documentHash(query: unknown): string | null {
  const meta = (query as { __meta__?: { hash?: unknown } } | null)?.__meta__;
  return typeof meta?.hash === "string" ? meta.hash : null;
}

/** A query or mutation whose document codegen persisted goes out as its hash
 * (`extensions.persistedQuery`, no query text: a short GET URL) and the server runs the
 * document it holds under that hash. Placed before the cache exchange, which copies the
 * operation (extensions included) but not the document's hash. */
export function withPersistedHash(operation: Operation): Operation {
  if (operation.kind !== "query" && operation.kind !== "mutation") return operation;
  const hash = documentHash(operation.query);
  if (!hash) return operation;
  return makeOperation(operation.kind, { ...operation, extensions: { ...operation.extensions, persistedQuery: { version: 1, sha256Hash: hash } } }, operation.context);
}

const persistedDocumentsExchange = mapExchange({ onOperation: withPersistedHash });

/** The console's one urql client: document cache, fetch for queries and mutations, and
 * graphql-ws (graphql-transport-ws) for subscriptions. The session cookie authenticates
 * both: same origin, so the browser sends it with the fetch and with the WebSocket handshake. */
export function makeClient(): Client {
  const wsUrl = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/graphql`;
  const ws = createWsClient({
    url: wsUrl,
    lazy: true,
    retryAttempts: Infinity,
    shouldRetry: () => true,
    retryWait: async (retries) => {
      await new Promise((r) => setTimeout(r, Math.min(1000 * 2 ** retries, 15000)));
    },
    on: {
      connected: () => setSocketOpen(true),
      closed: () => setSocketOpen(false),
    },
  });
  return new Client({
    url: "/graphql",
    fetchOptions: { credentials: "same-origin" },
    requestPolicy: "cache-and-network",
    exchanges: [
      persistedDocumentsExchange,
      cacheExchange,
      fetchExchange,
      subscriptionExchange({
        forwardSubscription(request) {
          const input = { ...request, query: request.query || "" };
          return {
            subscribe(sink) {
              const unsubscribe = ws.subscribe(input, sink);
              return { unsubscribe };
            },
          };
        },
      }),
    ],
  });
}

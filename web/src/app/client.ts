import { Client, cacheExchange, fetchExchange, subscriptionExchange } from "urql";
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

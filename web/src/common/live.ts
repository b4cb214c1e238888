import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { useSubscription } from "urql";
import { graphql } from "../gql";
import { socketStatus } from "../app/client";

type Refetch = (opts: { requestPolicy: "network-only" }) => void;
type Feed = { data?: unknown; error?: unknown };

const POLL_MS = 10_000;
// how long a feed may take to deliver its first event before the list polls instead
const GRACE_MS = 5_000;

const CapacityTick = graphql(`
  subscription CapacityTick {
    capacityChanged {
      models {
        model
      }
    }
  }
`);

const AdminSessionsTick = graphql(`
  subscription AdminSessionsTick {
    adminSessionsChanged {
      pendingApprovals
      sessionIds
    }
  }
`);

/** Refetch a list on every event of its live feed after the first (the first is the current
 * state, which the list's own query already has). While the feed is unavailable (the socket
 * is closed, the subscription failed, or nothing came within a few seconds) the list polls
 * every 10 s instead. Returns whether the list is live. */
export function useLiveRefetch(feed: Feed, refetch: Refetch, ms = POLL_MS): boolean {
  const open = useSyncExternalStore(socketStatus.subscribe, socketStatus.isOpen);
  const first = useRef(true);
  const [grace, setGrace] = useState(true);
  useEffect(() => {
    const id = setTimeout(() => setGrace(false), GRACE_MS);
    return () => clearTimeout(id);
  }, []);
  useEffect(() => {
    if (!feed.data) return;
    if (first.current) {
      first.current = false;
      return;
    }
    refetch({ requestPolicy: "network-only" });
  }, [feed.data, refetch]);
  const live = open && !feed.error && feed.data != null;
  usePolling(refetch, ms, !live && (!grace || !!feed.error));
  return live;
}

/** Refetch whenever placements, the queue or the inventory change (capacityChanged fires). */
export function useRefetchOnCapacityChange(refetch: Refetch): boolean {
  const [tick] = useSubscription({ query: CapacityTick });
  return useLiveRefetch(tick, refetch);
}

/** Refetch when sessions the viewer administers change (adminSessionsChanged fires); the feed
 * also says how many sessions wait for the viewer's approval. */
export function useAdminSessionsLive(refetch: Refetch): { live: boolean; pendingApprovals: number | null } {
  const [tick] = useSubscription({ query: AdminSessionsTick });
  const live = useLiveRefetch(tick, refetch);
  return { live, pendingApprovals: tick.data?.adminSessionsChanged.pendingApprovals ?? null };
}

/** For lists the API has no subscription for (and as the live lists' fallback): refetch every
 * `ms` while the tab is visible. */
export function usePolling(refetch: Refetch, ms = POLL_MS, enabled = true) {
  useEffect(() => {
    if (!enabled) return;
    const id = setInterval(() => {
      if (document.visibilityState === "visible") refetch({ requestPolicy: "network-only" });
    }, ms);
    return () => clearInterval(id);
  }, [refetch, ms, enabled]);
}

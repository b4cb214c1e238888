import { useEffect, useRef } from "react";
import { useSubscription } from "urql";
import { graphql } from "../gql";

type Refetch = (opts: { requestPolicy: "network-only" }) => void;

const CapacityTick = graphql(`
  subscription CapacityTick {
    capacityChanged {
      models {
        model
      }
    }
  }
`);

/** Refetch whenever placements, the queue or the inventory change (capacityChanged fires). */
export function useRefetchOnCapacityChange(refetch: Refetch) {
  const [tick] = useSubscription({ query: CapacityTick });
  const first = useRef(true);
  useEffect(() => {
    if (!tick.data) return;
    if (first.current) {
      first.current = false;
      return;
    }
    refetch({ requestPolicy: "network-only" });
  }, [tick.data, refetch]);
}

/** For lists the API has no subscription for: refetch every `ms` while the tab is visible. */
export function usePolling(refetch: Refetch, ms = 10_000) {
  useEffect(() => {
    const id = setInterval(() => {
      if (document.visibilityState === "visible") refetch({ requestPolicy: "network-only" });
    }, ms);
    return () => clearInterval(id);
  }, [refetch, ms]);
}

import type { SessionState } from "../gql/graphql";

export const STATE_COLOR: Record<SessionState, string> = {
  PENDING_APPROVAL: "yellow",
  QUEUED: "yellow",
  SCHEDULED: "blue",
  STARTING: "blue",
  RUNNING: "teal",
  PAUSING: "gray",
  PAUSED: "gray",
  RESUMING: "blue",
  STOPPING: "gray",
  STOPPED: "dark",
  REJECTED: "red",
  FAILED: "red",
  EXPIRED: "dark",
  PREEMPTED: "orange",
  SUCCEEDED: "green",
};

const ENDED: SessionState[] = ["STOPPED", "REJECTED", "FAILED", "EXPIRED", "SUCCEEDED"];

/** What the session page offers in each state (the server re-checks every transition). */
export function sessionActions(state: SessionState) {
  return {
    pause: state === "RUNNING",
    resume: state === "PAUSED" || state === "PREEMPTED",
    stop: !ENDED.includes(state) && state !== "STOPPING",
    extend: !ENDED.includes(state),
    ended: ENDED.includes(state),
  };
}

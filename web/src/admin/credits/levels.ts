import type { AccountKind } from "../../gql/graphql";

/** Where the credits page is in the account tree: the top, one organisation, one group. */
export type Level = { kind: "top"; name: string } | { kind: "organization"; id: string; name: string } | { kind: "group"; id: string; name: string };

/** Credits flow one level down: system → organisation → group → member wallet. */
export function childKind(level: Level["kind"]): AccountKind {
  return level === "top" ? "ORGANIZATION" : level === "organization" ? "GROUP" : "USER";
}

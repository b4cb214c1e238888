import type { Expiry } from "../gql/graphql";

export const EXPIRIES: Expiry[] = ["H1", "H4", "D1", "D7", "D30", "NONE"];

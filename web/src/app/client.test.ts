import { describe, expect, it } from "vitest";
import { createRequest, makeOperation } from "urql";
import { SessionChargedQuery } from "../sessions/documents";
import { documentHash, withPersistedHash } from "./client";
import persisted from "../gql/persisted-documents.json";

describe("persisted documents", () => {
  it("sends a codegen document as its hash, which the server's manifest holds", () => {
    const hash = documentHash(SessionChargedQuery);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect((persisted as Record<string, string>)[hash!]).toContain("query SessionCharged");
    const op = withPersistedHash(makeOperation("query", createRequest(SessionChargedQuery, { id: "x" }), { url: "/graphql", requestPolicy: "cache-first" }));
    expect(op.extensions).toEqual({ persistedQuery: { version: 1, sha256Hash: hash } });
  });
  it("leaves subscriptions and documents without a hash alone", () => {
    const sub = makeOperation("subscription", createRequest(SessionChargedQuery, { id: "x" }), { url: "/graphql", requestPolicy: "cache-first" });
    expect(withPersistedHash(sub)).toBe(sub);
    const plain = makeOperation("query", createRequest("{ __typename }", {}), { url: "/graphql", requestPolicy: "cache-first" });
    expect(withPersistedHash(plain)).toBe(plain);
  });
});

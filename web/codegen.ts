import type { CodegenConfig } from "@graphql-codegen/cli";
import { addTypenameSelectionDocumentTransform } from "@graphql-codegen/client-preset";

// Typed documents for every `graphql(...)` call in src/, from the exported server schema.
const config: CodegenConfig = {
  schema: "../schema.graphql",
  documents: ["src/**/*.{ts,tsx}", "!src/gql/**/*"],
  ignoreNoDocuments: true,
  generates: {
    "./src/gql/": {
      preset: "client",
      // persisted documents: each document's sha256 in `__meta__.hash` and every document by
      // its hash in persisted-documents.json (copied into dist/, where the server reads it), so
      // a query is sent as its hash, not its text; with __typename selected as urql's document
      // cache adds it, so the stored text asks for what the client expects
      presetConfig: { fragmentMasking: false, persistedDocuments: { hashAlgorithm: "sha256" } },
      documentTransforms: [addTypenameSelectionDocumentTransform],
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        scalars: { DateTime: "string", BigInt: "string | number" },
        skipTypename: false,
      },
    },
  },
};

export default config;

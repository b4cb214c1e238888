import type { CodegenConfig } from "@graphql-codegen/cli";

// Typed documents for every `graphql(...)` call in src/, from the exported server schema.
const config: CodegenConfig = {
  schema: "../schema.graphql",
  documents: ["src/**/*.{ts,tsx}", "!src/gql/**/*"],
  ignoreNoDocuments: true,
  generates: {
    "./src/gql/": {
      preset: "client",
      presetConfig: { fragmentMasking: false },
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

/// <reference types="vitest/config" />
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

const api = process.env.GSHARE_API ?? "http://127.0.0.1:8000";

export default defineConfig({
  plugins: [react()],
  server: {
    proxy: {
      "/graphql": { target: api, ws: true, changeOrigin: false },
      "/auth": { target: api },
      "/exports": { target: api },
    },
  },
  build: {
    target: "es2022",
    sourcemap: false,
    // GraphiQL's editor is one ~1 MB chunk that only /graphql loads; the console's first-load
    // budget (300 KB gz) is measured by `python -m tests.bench.console`
    chunkSizeWarningLimit: 1600,
    rolldownOptions: {
      // the console, and GraphiQL as its own page (its editor never loads with the console)
      input: { main: "index.html", graphiql: "graphiql.html" },
      onwarn(warning, warn) {
        // react-compiler-runtime (a GraphiQL dependency) starts with "use no memo", which
        // bundling drops harmlessly
        if (warning.code === "MODULE_LEVEL_DIRECTIVE") return;
        warn(warning);
      },
    },
  },
  test: {
    environment: "jsdom",
    include: ["src/**/*.test.{ts,tsx}"],
  },
});

import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));
const alias = { "@": root };

// Four suites: `unit` (pure logic), `integration` (the real provider SDKs against the engine
// simulator), `api` (route handlers in-process on a fresh PGlite per file) and `pg` (needs a
// PostgreSQL server: TEST_DATABASE_URL).
export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      // A hang guard, not a speed check: the CLI tests start the real binary (node + tsx), which
      // takes seconds on a loaded 2-core machine.
      { resolve: { alias }, test: { name: "unit", include: ["tests/unit/**/*.test.ts"], environment: "node", testTimeout: 30_000 } },
      {
        resolve: { alias },
        test: { name: "integration", include: ["tests/integration/**/*.test.ts"], environment: "node", testTimeout: 60_000 },
      },
      {
        resolve: { alias },
        test: {
          name: "api",
          include: ["tests/api/**/*.test.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 120_000,
          setupFiles: ["tests/helpers/setup-api.ts"],
        },
      },
      {
        resolve: { alias },
        test: {
          name: "pg",
          include: ["tests/pg/**/*.test.ts"],
          environment: "node",
          testTimeout: 120_000,
          hookTimeout: 120_000,
          setupFiles: ["tests/helpers/setup-app.ts"],
        },
      },
    ],
  },
});

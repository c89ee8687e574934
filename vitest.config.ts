import { defineConfig } from "vitest/config";

// Unit tests sit beside pure code; integration/fault/e2e tests under test/ need Postgres and Redis,
// which test/global-setup.ts checks first (failing, not skipping, when they are down).
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: "unit", include: ["src/**/*.test.ts", "jobs/**/*.test.ts"] } },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["test/**/*.test.ts"],
          globalSetup: ["test/global-setup.ts"],
          fileParallelism: false,
        },
      },
    ],
  },
});

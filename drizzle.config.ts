import { defineConfig } from "drizzle-kit";

// `npm run db:generate` diffs src/db/schema against migrations/ and writes the next SQL migration.
export default defineConfig({
  dialect: "postgresql",
  schema: "./src/db/schema/index.ts",
  out: "./migrations",
  strict: true,
  verbose: true,
});

import { bigint, integer, jsonb, pgTable, text, timestamp, unique } from "drizzle-orm/pg-core";
import { revisions } from "./revisions.ts";

/** One estimator run per (revisionId, estimatorVersion); `error` is set instead of `result` on failure. */
export const estimates = pgTable(
  "estimates",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    revisionId: integer("revision_id")
      .notNull()
      .references(() => revisions.id, { onDelete: "cascade" }),
    estimatorVersion: text("estimator_version").notNull(),
    paramsTotal: bigint("params_total", { mode: "number" }),
    result: jsonb("result").$type<unknown>(),
    error: text("error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique("estimates_revision_version_uq").on(t.revisionId, t.estimatorVersion)],
);

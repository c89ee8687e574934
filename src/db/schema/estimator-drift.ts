import { integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { revisions } from "./revisions.ts";

/** Differences caused by an estimator upgrade (not by upstream); recorded apart, never raising advisories. */
export const estimatorDrift = pgTable(
  "estimator_drift",
  {
    revisionId: integer("revision_id")
      .notNull()
      .references(() => revisions.id, { onDelete: "cascade" }),
    fromVersion: text("from_version").notNull(),
    toVersion: text("to_version").notNull(),
    differences: jsonb("differences").$type<unknown>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: "estimator_drift_pk", columns: [t.revisionId, t.fromVersion, t.toVersion] })],
);

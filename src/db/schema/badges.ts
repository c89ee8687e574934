import { integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { repos } from "./repos.ts";

/** Cached shields.io endpoint JSON per (repoId, metric), e.g. 'params', 'fit-lora-a100-80', 'advisories'. */
export const badges = pgTable(
  "badges",
  {
    repoId: integer("repo_id")
      .notNull()
      .references(() => repos.id, { onDelete: "cascade" }),
    metric: text("metric").notNull(),
    json: jsonb("json").$type<Record<string, unknown>>().notNull(),
    etag: text("etag").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: "badges_pk", columns: [t.repoId, t.metric] })],
);

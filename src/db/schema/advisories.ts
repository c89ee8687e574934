import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, text, timestamp, unique } from "drizzle-orm/pg-core";
import { repos } from "./repos.ts";

export const advisoryStatuses = ["open", "closed"] as const;
export type AdvisoryStatus = (typeof advisoryStatuses)[number];

/** OSV advisories ('x_HUBWATCH-YYYY-NNNN'); one per (repoId, introducedSha). `record` is the full OSV object. */
export const advisories = pgTable(
  "advisories",
  {
    id: text("id").primaryKey(),
    repoId: integer("repo_id")
      .notNull()
      .references(() => repos.id, { onDelete: "cascade" }),
    introducedSha: text("introduced_sha").notNull(),
    fixedSha: text("fixed_sha"),
    status: text("status", { enum: advisoryStatuses }).notNull().default("open"),
    published: timestamp("published", { withTimezone: true }).notNull(),
    modified: timestamp("modified", { withTimezone: true }).notNull(),
    record: jsonb("record").$type<Record<string, unknown>>().notNull(),
  },
  (t) => [
    unique("advisories_repo_introduced_uq").on(t.repoId, t.introducedSha),
    check("advisories_id_check", sql`${t.id} ~ '^x_HUBWATCH-[0-9]{4}-[0-9]{4,}$'`),
    check("advisories_status_check", sql`${t.status} in ('open', 'closed')`),
    // Ascending: a backward scan serves ORDER BY modified DESC, id DESC (the feed order).
    index("advisories_modified_idx").on(t.modified, t.id),
    index("advisories_open_idx").on(t.repoId).where(sql`${t.status} = 'open'`),
  ],
);

import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

export const repoStatuses = ["ok", "gated", "not_found", "error"] as const;
export type RepoStatus = (typeof repoStatuses)[number];

/** A watched Hub model repo; `name` ("owner/name") is the natural key. */
export const repos = pgTable(
  "repos",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    name: text("name").notNull().unique(),
    addedAt: timestamp("added_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenSha: text("last_seen_sha"),
    lastPolledAt: timestamp("last_polled_at", { withTimezone: true }),
    status: text("status", { enum: repoStatuses }).notNull().default("ok"),
    statusDetail: text("status_detail"),
    nextPollAt: timestamp("next_poll_at", { withTimezone: true }),
  },
  (t) => [
    check("repos_status_check", sql`${t.status} in ('ok', 'gated', 'not_found', 'error')`),
    index("repos_next_poll_at_idx").on(t.nextPollAt),
  ],
);

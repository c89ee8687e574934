import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, text, timestamp, unique } from "drizzle-orm/pg-core";
import { repos } from "./repos.ts";

export const revisionStatuses = ["pending", "done", "failed"] as const;
export type RevisionStatus = (typeof revisionStatuses)[number];

/** One upstream commit of a repo; (repoId, sha) is the natural key, `seq` orders oldest first. */
export const revisions = pgTable(
  "revisions",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    repoId: integer("repo_id")
      .notNull()
      .references(() => repos.id, { onDelete: "cascade" }),
    sha: text("sha").notNull(),
    parentSha: text("parent_sha"),
    seq: integer("seq").notNull(),
    committedAt: timestamp("committed_at", { withTimezone: true }),
    title: text("title"),
    author: text("author"),
    status: text("status", { enum: revisionStatuses }).notNull().default("pending"),
    error: text("error"),
    processedAt: timestamp("processed_at", { withTimezone: true }),
    forcePushedAway: boolean("force_pushed_away").notNull().default(false),
  },
  (t) => [
    unique("revisions_repo_sha_uq").on(t.repoId, t.sha),
    check("revisions_sha_check", sql`${t.sha} ~ '^[0-9a-f]{40}$'`),
    check("revisions_status_check", sql`${t.status} in ('pending', 'done', 'failed')`),
    index("revisions_repo_seq_idx").on(t.repoId, t.seq),
    index("revisions_status_idx").on(t.status, t.repoId, t.seq),
    // OSV queries by commit alone (`{commit}` with no package) look a sha up across every repo.
    index("revisions_sha_idx").on(t.sha),
  ],
);

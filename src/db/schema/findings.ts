import { index, integer, pgTable, text, timestamp, unique } from "drizzle-orm/pg-core";
import { repos } from "./repos.ts";

// Open-ended on purpose (no SQL check): adding a kind needs no migration.
export const findingKinds = [
  "bad_config",
  "bad_header",
  "gated",
  "not_found",
  "force_push",
  "too_large",
  "bad_tokenizer",
  "bad_template",
  "estimator_error",
  "history_skipped",
  "other",
] as const;
export type FindingKind = (typeof findingKinds)[number];

/** Problems with upstream data; one row per (repoId, sha, kind), a null sha counting as one value. */
export const findings = pgTable(
  "findings",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    repoId: integer("repo_id")
      .notNull()
      .references(() => repos.id, { onDelete: "cascade" }),
    sha: text("sha"),
    kind: text("kind", { enum: findingKinds }).notNull(),
    message: text("message").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique("findings_repo_sha_kind_uq").on(t.repoId, t.sha, t.kind).nullsNotDistinct(),
    index("findings_created_at_idx").on(t.createdAt),
  ],
);

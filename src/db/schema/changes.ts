import { sql } from "drizzle-orm";
import { boolean, check, integer, jsonb, pgTable, text, unique } from "drizzle-orm/pg-core";
import { revisions } from "./revisions.ts";

export const changeKinds = ["added", "removed", "modified"] as const;
export type ChangeKind = (typeof changeKinds)[number];
export const changeCategories = [
  "config",
  "generation_config",
  "tokenizer",
  "chat_template",
  "weights",
  "other",
] as const;
export type ChangeCategory = (typeof changeCategories)[number];

/** What changed in one file of a revision versus its parent; one row per (revisionId, path, category). */
export const changes = pgTable(
  "changes",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    revisionId: integer("revision_id")
      .notNull()
      .references(() => revisions.id, { onDelete: "cascade" }),
    path: text("path").notNull(),
    kind: text("kind", { enum: changeKinds }).notNull(),
    category: text("category", { enum: changeCategories }).notNull(),
    summary: text("summary").notNull(),
    // json-diff-ts changeset, template line diff + rendered-prompt diff, or tensor changes.
    detail: jsonb("detail").$type<unknown>(),
    promptChanged: boolean("prompt_changed"),
  },
  (t) => [
    unique("changes_revision_path_category_uq").on(t.revisionId, t.path, t.category),
    check("changes_kind_check", sql`${t.kind} in ('added', 'removed', 'modified')`),
    check(
      "changes_category_check",
      sql`${t.category} in ('config', 'generation_config', 'tokenizer', 'chat_template', 'weights', 'other')`,
    ),
  ],
);

import { integer, jsonb, pgTable, text, unique } from "drizzle-orm/pg-core";
import { BEHAVIOR_KINDS, type BehaviorDetail } from "../../core/diff/behavior.ts";
import { revisions } from "./revisions.ts";

/**
 * What a revision changes in how the model behaves (rendered prompt, EOS/BOS/PAD, added special
 * tokens, context length, generation defaults, torch_dtype), one row per (revisionId, kind).
 * Open-ended on purpose (no SQL check on kind): adding a kind needs no migration.
 */
export const behaviorChanges = pgTable(
  "behavior_changes",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    revisionId: integer("revision_id")
      .notNull()
      .references(() => revisions.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: BEHAVIOR_KINDS }).notNull(),
    summary: text("summary").notNull(),
    detail: jsonb("detail").$type<BehaviorDetail>().notNull(),
  },
  (t) => [unique("behavior_changes_revision_kind_uq").on(t.revisionId, t.kind)],
);

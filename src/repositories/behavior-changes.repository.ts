import { and, asc, desc, eq, notInArray, sql } from "drizzle-orm";
import type { BehaviorChange as NewBehaviorChange } from "../core/diff/behavior.ts";
import { behaviorChanges, repos, revisions } from "../db/schema/index.ts";
import type { Executor } from "../db/types.ts";
import { revisionRefColumns, revisionTime } from "./revisions-read.repository.ts";

type BehaviorChangeRow = typeof behaviorChanges.$inferSelect;

/**
 * Makes the revision's behaviour changes exactly `list` (a rerun may find fewer): other kinds are
 * deleted, the rest upserted on (revisionId, kind), so a rerun keeps the rows it finds again.
 */
export async function replaceBehaviorChanges(
  ex: Executor,
  revisionId: number,
  list: NewBehaviorChange[],
): Promise<void> {
  const kinds = list.map((c) => c.kind);
  await ex
    .delete(behaviorChanges)
    .where(
      and(
        eq(behaviorChanges.revisionId, revisionId),
        kinds.length > 0 ? notInArray(behaviorChanges.kind, kinds) : undefined,
      ),
    );
  if (list.length === 0) return;
  await ex
    .insert(behaviorChanges)
    .values(list.map((c) => ({ revisionId, ...c })))
    .onConflictDoUpdate({
      target: [behaviorChanges.revisionId, behaviorChanges.kind],
      set: { summary: sql`excluded.summary`, detail: sql`excluded.detail` },
    });
}

/** A revision's behaviour changes, ordered by kind. */
export function listBehaviorChangesByRevision(
  ex: Executor,
  revisionId: number,
): Promise<BehaviorChangeRow[]> {
  return ex
    .select()
    .from(behaviorChanges)
    .where(eq(behaviorChanges.revisionId, revisionId))
    .orderBy(asc(behaviorChanges.kind));
}

/** The newest behaviour changes (prompt, EOS, ...), with their repo and revision. */
export async function recentBehaviorChanges(db: Executor, limit: number) {
  return db
    .select({
      ...revisionRefColumns,
      kind: behaviorChanges.kind,
      summary: behaviorChanges.summary,
    })
    .from(behaviorChanges)
    .innerJoin(revisions, eq(revisions.id, behaviorChanges.revisionId))
    .innerJoin(repos, eq(repos.id, revisions.repoId))
    .orderBy(desc(revisionTime), desc(revisions.id))
    .limit(limit);
}

import { asc, eq, inArray } from "drizzle-orm";
import type { BehaviorChange as NewBehaviorChange } from "../core/diff/behavior.ts";
import { behaviorChanges } from "../db/schema/index.ts";
import type { Executor } from "../db/types.ts";

export type BehaviorChangeRow = typeof behaviorChanges.$inferSelect;
export type { NewBehaviorChange };

/** Makes the revision's behaviour changes exactly `list` (a rerun may find fewer), in one statement each. */
export async function replaceBehaviorChanges(
  ex: Executor,
  revisionId: number,
  list: NewBehaviorChange[],
): Promise<void> {
  await ex.delete(behaviorChanges).where(eq(behaviorChanges.revisionId, revisionId));
  if (list.length === 0) return;
  await ex.insert(behaviorChanges).values(list.map((c) => ({ revisionId, ...c })));
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

/** The behaviour changes of several revisions (pages and summaries), ordered by revision then kind. */
export function listBehaviorChangesByRevisions(
  ex: Executor,
  revisionIds: number[],
): Promise<BehaviorChangeRow[]> {
  if (revisionIds.length === 0) return Promise.resolve([]);
  return ex
    .select()
    .from(behaviorChanges)
    .where(inArray(behaviorChanges.revisionId, revisionIds))
    .orderBy(asc(behaviorChanges.revisionId), asc(behaviorChanges.kind));
}

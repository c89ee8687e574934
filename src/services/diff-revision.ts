import { replaceBehaviorChanges } from "../repositories/behavior-changes.repository.ts";
import { replaceChanges } from "../repositories/changes.repository.ts";
import type { Revision } from "../repositories/revisions.repository.ts";
import { withTransaction } from "../repositories/transaction.ts";
import { buildBehaviorChanges } from "./behavior-builders.ts";
import { buildChanges } from "./change-builders.ts";
import type { PipelineServices } from "./deps.ts";
import { loadRevisionsFiles } from "./revision-files.ts";

/**
 * Records what changed in a revision against its base (the last revision processed before it): JSON
 * changesets, chat-template line and rendered-prompt diffs, tensor changes, and the behaviour changes
 * they amount to (none for a first upload: nothing behaved otherwise before it). Replaces any
 * earlier result for the revision in one transaction, so a rerun leaves one row per (path, category)
 * and per behaviour kind.
 */
export async function diffRevision(
  s: PipelineServices,
  revision: Revision,
  base: Revision | null,
): Promise<number> {
  const files = await loadRevisionsFiles(s.db, base ? [base.id, revision.id] : [revision.id]);
  const before = (base && files.get(base.id)) || new Map();
  const after = files.get(revision.id) ?? new Map();
  const changes = buildChanges(before, after);
  const behavior = buildBehaviorChanges(before, after, changes);
  await withTransaction(s.db, async (tx) => {
    await replaceChanges(tx, revision.id, changes);
    await replaceBehaviorChanges(tx, revision.id, behavior);
  });
  return changes.length;
}

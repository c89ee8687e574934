import { replaceChanges } from "../repositories/changes.repository.ts";
import type { Revision } from "../repositories/revisions.repository.ts";
import { buildChanges } from "./change-builders.ts";
import type { PipelineServices } from "./deps.ts";
import { loadRevisionFiles } from "./revision-files.ts";

/**
 * Records what changed in a revision against its base (the last revision processed before it): JSON
 * changesets, chat-template line and rendered-prompt diffs, tensor changes. Replaces any earlier
 * result for the revision in one transaction, so a rerun leaves one row per (path, category).
 */
export async function diffRevision(
  s: PipelineServices,
  revision: Revision,
  base: Revision | null,
): Promise<number> {
  const before = await loadRevisionFiles(s.db, base?.id ?? null);
  const after = await loadRevisionFiles(s.db, revision.id);
  const changes = buildChanges(before, after);
  await replaceChanges(s.db, revision.id, changes);
  return changes.length;
}

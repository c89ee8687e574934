import { isPipelinePaths } from "../core/diff/diffusers.ts";
import { isTrackedPath } from "../core/diff/paths.ts";
import type { Executor } from "../db/types.ts";
import { getManifestContents } from "../repositories/revision-files.repository.ts";
import type { RevisionFiles } from "./change-builders.ts";

/** A revision's tracked files with their stored content (empty for a revision not snapshotted). */
export async function loadRevisionFiles(ex: Executor, revisionId: number | null): Promise<RevisionFiles> {
  if (revisionId === null) return new Map();
  return (await loadRevisionsFiles(ex, [revisionId])).get(revisionId) ?? new Map();
}

/** loadRevisionFiles for several revisions in one query. */
export async function loadRevisionsFiles(
  ex: Executor,
  revisionIds: number[],
): Promise<Map<number, RevisionFiles>> {
  const manifests = await getManifestContents(ex, revisionIds);
  const out = new Map<number, RevisionFiles>();
  for (const [id, entries] of manifests) {
    const pipeline = isPipelinePaths(entries.map((f) => f.path));
    const tracked = entries.filter((f) => isTrackedPath(f.path, pipeline));
    out.set(id, new Map(tracked.map((f) => [f.path, { oid: f.oid, content: f.content }])));
  }
  return out;
}

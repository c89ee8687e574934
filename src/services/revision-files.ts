import { isPipelinePaths } from "../core/diff/diffusers.ts";
import { isTrackedPath } from "../core/diff/paths.ts";
import type { Executor } from "../db/types.ts";
import { getArtifacts } from "../repositories/artifacts.repository.ts";
import { getManifest } from "../repositories/revision-files.repository.ts";
import type { RevisionFiles } from "./change-builders.ts";

/** A revision's tracked files with their stored content (empty for a revision not snapshotted). */
export async function loadRevisionFiles(ex: Executor, revisionId: number | null): Promise<RevisionFiles> {
  if (revisionId === null) return new Map();
  const all = await getManifest(ex, revisionId);
  const pipeline = isPipelinePaths(all.map((f) => f.path));
  const manifest = all.filter((f) => isTrackedPath(f.path, pipeline));
  const hashes = manifest.map((f) => f.artifactHash).filter((h): h is string => h !== null);
  const artifacts = await getArtifacts(ex, hashes);
  return new Map(
    manifest.map((f) => [
      f.path,
      { oid: f.oid, content: f.artifactHash ? (artifacts.get(f.artifactHash)?.content ?? null) : null },
    ]),
  );
}

import { and, asc, eq, inArray, notInArray, sql } from "drizzle-orm";
import { artifacts, revisionFiles } from "../db/schema/index.ts";
import type { Executor } from "../db/types.ts";
import { atomically } from "./transaction.ts";

export type RevisionFile = typeof revisionFiles.$inferSelect;
export type ManifestEntry = Omit<RevisionFile, "revisionId" | "lfsOid" | "artifactHash"> & {
  lfsOid?: string | null;
  artifactHash?: string | null;
};

// Keeps each INSERT well under Postgres's 65535 bind parameters (6 per row).
const CHUNK = 1000;

/**
 * Makes the stored manifest of a revision exactly `files`: paths not listed are deleted, the others
 * upserted. Safe to repeat and to run from two workers at once (no delete-then-insert race).
 */
export async function replaceManifest(
  ex: Executor,
  revisionId: number,
  files: ManifestEntry[],
): Promise<void> {
  await atomically(ex, async (tx) => {
    const paths = files.map((f) => f.path);
    await tx
      .delete(revisionFiles)
      .where(
        and(
          eq(revisionFiles.revisionId, revisionId),
          paths.length > 0 ? notInArray(revisionFiles.path, paths) : undefined,
        ),
      );
    for (let i = 0; i < files.length; i += CHUNK) {
      const rows = files.slice(i, i + CHUNK).map((f) => ({
        revisionId,
        path: f.path,
        oid: f.oid,
        size: f.size,
        lfsOid: f.lfsOid ?? null,
        artifactHash: f.artifactHash ?? null,
      }));
      await tx
        .insert(revisionFiles)
        .values(rows)
        .onConflictDoUpdate({
          target: [revisionFiles.revisionId, revisionFiles.path],
          set: {
            oid: sql`excluded.oid`,
            size: sql`excluded.size`,
            lfsOid: sql`excluded.lfs_oid`,
            artifactHash: sql`excluded.artifact_hash`,
          },
        });
    }
  });
}

/** The manifest of a revision ordered by path; empty if none was stored. */
export function getManifest(ex: Executor, revisionId: number): Promise<RevisionFile[]> {
  return ex
    .select()
    .from(revisionFiles)
    .where(eq(revisionFiles.revisionId, revisionId))
    .orderBy(asc(revisionFiles.path));
}

/** The manifests of several revisions in one query, each ordered by path (empty: none stored). */
export async function getManifests(
  ex: Executor,
  revisionIds: number[],
): Promise<Map<number, RevisionFile[]>> {
  const out = new Map(revisionIds.map((id): [number, RevisionFile[]] => [id, []]));
  if (revisionIds.length === 0) return out;
  const rows = await ex
    .select()
    .from(revisionFiles)
    .where(inArray(revisionFiles.revisionId, revisionIds))
    .orderBy(asc(revisionFiles.path));
  for (const row of rows) out.get(row.revisionId)?.push(row);
  return out;
}

/**
 * Manifest entries of several revisions with the content of their artifacts (null: none stored), in one
 * query (manifest joined with artifacts), each revision's ordered by path.
 */
export async function getManifestContents(
  ex: Executor,
  revisionIds: number[],
): Promise<Map<number, { path: string; oid: string; content: string | null }[]>> {
  const out = new Map(
    revisionIds.map((id): [number, { path: string; oid: string; content: string | null }[]] => [id, []]),
  );
  if (revisionIds.length === 0) return out;
  const rows = await ex
    .select({
      revisionId: revisionFiles.revisionId,
      path: revisionFiles.path,
      oid: revisionFiles.oid,
      content: artifacts.content,
    })
    .from(revisionFiles)
    .leftJoin(artifacts, eq(artifacts.hash, revisionFiles.artifactHash))
    .where(inArray(revisionFiles.revisionId, revisionIds))
    .orderBy(asc(revisionFiles.path));
  for (const { revisionId, ...entry } of rows) out.get(revisionId)?.push(entry);
  return out;
}

/** One manifest entry, or null. */
export async function getManifestEntry(
  ex: Executor,
  revisionId: number,
  path: string,
): Promise<RevisionFile | null> {
  const [row] = await ex
    .select()
    .from(revisionFiles)
    .where(and(eq(revisionFiles.revisionId, revisionId), eq(revisionFiles.path, path)));
  return row ?? null;
}

/**
 * The safetensors `__metadata__` of each weight shard of a revision, by shard path (null: none in the
 * header). Only the metadata leaves the database, not the tensor listing.
 */
export async function weightMetadata(db: Executor, revisionId: number) {
  return db
    .select({
      path: revisionFiles.path,
      metadata: sql<unknown>`(${artifacts.content}::jsonb)->'metadata'`,
    })
    .from(revisionFiles)
    .innerJoin(artifacts, eq(artifacts.hash, revisionFiles.artifactHash))
    .where(and(eq(revisionFiles.revisionId, revisionId), eq(artifacts.kind, "weights_header")))
    .orderBy(asc(revisionFiles.path));
}

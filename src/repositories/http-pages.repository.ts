import { and, asc, count, eq, inArray, max, sql } from "drizzle-orm";
import {
  advisories,
  artifacts,
  changes,
  estimates,
  repos,
  revisionFiles,
  revisions,
} from "../db/schema/index.ts";
import type { Executor } from "../db/types.ts";

// Queries behind the revision-history pages.

/** Watched repos with their revision count, newest revision date and open advisories. */
export async function listReposOverview(db: Executor) {
  const revs = db
    .select({
      repoId: revisions.repoId,
      n: count().as("n"),
      latest: max(revisions.committedAt).as("latest"),
    })
    .from(revisions)
    .groupBy(revisions.repoId)
    .as("revs");
  const open = db
    .select({ repoId: advisories.repoId, n: count().as("open_n") })
    .from(advisories)
    .where(eq(advisories.status, "open"))
    .groupBy(advisories.repoId)
    .as("open");
  return db
    .select({
      id: repos.id,
      name: repos.name,
      status: repos.status,
      lastPolledAt: repos.lastPolledAt,
      revisions: sql<number>`coalesce(${revs.n}, 0)`.mapWith(Number),
      latest: revs.latest,
      openAdvisories: sql<number>`coalesce(${open.n}, 0)`.mapWith(Number),
    })
    .from(repos)
    .leftJoin(revs, eq(revs.repoId, repos.id))
    .leftJoin(open, eq(open.repoId, repos.id))
    .orderBy(asc(repos.name));
}

export async function findRevision(db: Executor, repoId: number, sha: string) {
  const rows = await db
    .select()
    .from(revisions)
    .where(and(eq(revisions.repoId, repoId), eq(revisions.sha, sha)))
    .limit(1);
  return rows[0] ?? null;
}

/** Change summaries (no detail) for many revisions, for the timeline. */
export async function changeSummaries(db: Executor, revisionIds: number[]) {
  if (revisionIds.length === 0) return [];
  return db
    .select({
      revisionId: changes.revisionId,
      path: changes.path,
      kind: changes.kind,
      category: changes.category,
      summary: changes.summary,
      promptChanged: changes.promptChanged,
    })
    .from(changes)
    .where(inArray(changes.revisionId, revisionIds))
    .orderBy(asc(changes.category), asc(changes.path));
}

export async function changesWithDetail(db: Executor, revisionId: number) {
  return db
    .select()
    .from(changes)
    .where(eq(changes.revisionId, revisionId))
    .orderBy(asc(changes.category), asc(changes.path));
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

type EstimateView = {
  revisionId: number;
  estimatorVersion: string;
  error: string | null;
  /** Only what pages show (params, weights, memory, fit, reader); the structure listing stays in the database. */
  result: unknown;
};

/** The newest estimator run per revision (by creation), for many revisions. */
export async function latestEstimates(
  db: Executor,
  revisionIds: number[],
): Promise<Map<number, EstimateView>> {
  if (revisionIds.length === 0) return new Map();
  const rows = await db
    .select({
      revisionId: estimates.revisionId,
      estimatorVersion: estimates.estimatorVersion,
      error: estimates.error,
      result: sql<unknown>`case when ${estimates.result} is null then null else jsonb_strip_nulls(jsonb_build_object('params', ${estimates.result}->'params', 'memory', ${estimates.result}->'memory', 'fit', ${estimates.result}->'fit', 'weights', ${estimates.result}->'weights', 'quantization', ${estimates.result}->'quantization', 'reader', ${estimates.result}->'reader', 'gguf', ${estimates.result}->'gguf', 'diffusers', ${estimates.result}->'diffusers')) end`,
    })
    .from(estimates)
    .where(inArray(estimates.revisionId, revisionIds))
    .orderBy(asc(estimates.createdAt), asc(estimates.id));
  return new Map(rows.map((r) => [r.revisionId, r]));
}

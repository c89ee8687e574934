import { and, asc, count, desc, eq, inArray, lt, max, sql } from "drizzle-orm";
import { advisories, badges, changes, estimates, repos, revisions } from "../db/schema/index.ts";
import type { Executor } from "../db/types.ts";

// Read-side queries for the HTTP surfaces (OSV API, feed, badges, pages).

export type AdvisoryRow = { id: string; modified: Date; status: string; record: Record<string, unknown> };

export async function findRepoByName(db: Executor, name: string) {
  const rows = await db.select().from(repos).where(eq(repos.name, name)).limit(1);
  return rows[0] ?? null;
}

export async function listAdvisoriesForRepo(db: Executor, repoId: number): Promise<AdvisoryRow[]> {
  return db
    .select({
      id: advisories.id,
      modified: advisories.modified,
      status: advisories.status,
      record: advisories.record,
    })
    .from(advisories)
    .where(eq(advisories.repoId, repoId))
    .orderBy(asc(advisories.published), asc(advisories.id));
}

/** A repo's advisories by repo name, in one round trip (empty when not watched or none). */
export async function listAdvisoriesForRepoName(
  db: Executor,
  name: string,
): Promise<(AdvisoryRow & { repoId: number })[]> {
  return db
    .select({
      id: advisories.id,
      repoId: advisories.repoId,
      modified: advisories.modified,
      status: advisories.status,
      record: advisories.record,
    })
    .from(advisories)
    .innerJoin(repos, eq(repos.id, advisories.repoId))
    .where(eq(repos.name, name))
    .orderBy(asc(advisories.published), asc(advisories.id));
}

/** Sequence numbers of the given shas in a repo's history (unknown shas are absent). */
export async function revisionSeqs(
  db: Executor,
  repoId: number,
  shas: string[],
): Promise<Map<string, number>> {
  if (shas.length === 0) return new Map();
  const rows = await db
    .select({ sha: revisions.sha, seq: revisions.seq })
    .from(revisions)
    .where(and(eq(revisions.repoId, repoId), inArray(revisions.sha, shas)));
  return new Map(rows.map((r) => [r.sha, r.seq]));
}

export async function repoIdsWithCommit(db: Executor, sha: string): Promise<number[]> {
  const rows = await db.select({ repoId: revisions.repoId }).from(revisions).where(eq(revisions.sha, sha));
  return [...new Set(rows.map((r) => r.repoId))];
}

export async function getAdvisoryRecord(db: Executor, id: string) {
  const rows = await db
    .select({ record: advisories.record, modified: advisories.modified })
    .from(advisories)
    .where(eq(advisories.id, id))
    .limit(1);
  return rows[0] ?? null;
}

/** Every advisory, newest modification first (the order of modified_id.csv). */
export async function listAllAdvisories(db: Executor): Promise<AdvisoryRow[]> {
  return db
    .select({
      id: advisories.id,
      modified: advisories.modified,
      status: advisories.status,
      record: advisories.record,
    })
    .from(advisories)
    .orderBy(desc(advisories.modified), desc(advisories.id));
}

/** Cheap fingerprint of the advisory set: count and newest modification, for ETag/Last-Modified. */
export async function advisoriesFingerprint(db: Executor): Promise<{ n: number; latest: Date | null }> {
  const rows = await db.select({ n: count(), latest: max(advisories.modified) }).from(advisories);
  const r = rows[0];
  return { n: Number(r?.n ?? 0), latest: r?.latest ? new Date(r.latest) : null };
}

/** One round trip: whether the repo is watched, and its badge for `metric` if stored. */
export async function findBadgeByRepoName(db: Executor, name: string, metric: string) {
  const rows = await db
    .select({ repoId: repos.id, json: badges.json, etag: badges.etag, updatedAt: badges.updatedAt })
    .from(repos)
    .leftJoin(badges, and(eq(badges.repoId, repos.id), eq(badges.metric, metric)))
    .where(eq(repos.name, name))
    .limit(1);
  return rows[0] ?? null;
}

export async function listBadgeMetrics(db: Executor, repoId: number): Promise<string[]> {
  const rows = await db.select({ metric: badges.metric }).from(badges).where(eq(badges.repoId, repoId));
  return rows.map((r) => r.metric).sort();
}

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

export async function listRevisions(db: Executor, repoId: number) {
  return db.select().from(revisions).where(eq(revisions.repoId, repoId)).orderBy(desc(revisions.seq));
}

export async function findRevision(db: Executor, repoId: number, sha: string) {
  const rows = await db
    .select()
    .from(revisions)
    .where(and(eq(revisions.repoId, repoId), eq(revisions.sha, sha)))
    .limit(1);
  return rows[0] ?? null;
}

export async function previousRevision(db: Executor, repoId: number, seq: number) {
  const rows = await db
    .select()
    .from(revisions)
    .where(and(eq(revisions.repoId, repoId), lt(revisions.seq, seq)))
    .orderBy(desc(revisions.seq))
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

export type EstimateView = {
  revisionId: number;
  estimatorVersion: string;
  error: string | null;
  /** Only what pages show (params, memory, fit); the structure listing stays in the database. */
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
      result: sql<unknown>`case when ${estimates.result} is null then null else jsonb_build_object('params', ${estimates.result}->'params', 'memory', ${estimates.result}->'memory', 'fit', ${estimates.result}->'fit') end`,
    })
    .from(estimates)
    .where(inArray(estimates.revisionId, revisionIds))
    .orderBy(asc(estimates.createdAt), asc(estimates.id));
  return new Map(rows.map((r) => [r.revisionId, r]));
}

export async function repoNameById(db: Executor, repoId: number): Promise<string | null> {
  const rows = await db.select({ name: repos.name }).from(repos).where(eq(repos.id, repoId)).limit(1);
  return rows[0]?.name ?? null;
}

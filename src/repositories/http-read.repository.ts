import { and, asc, count, desc, eq, max, sql } from "drizzle-orm";
import { advisories, badges, repos } from "../db/schema/index.ts";
import type { Executor } from "../db/types.ts";

// Read-side queries for the HTTP surfaces (OSV API, feed, badges); page queries in http-pages.repository.ts.

export type AdvisoryRecordRow = {
  id: string;
  modified: Date;
  status: string;
  record: Record<string, unknown>;
};
/** A repo's advisory with the shas that opened and (when closed) fixed it, for the history charts. */
type RepoAdvisoryRow = AdvisoryRecordRow & { introducedSha: string; fixedSha: string | null };

export async function findRepoByName(db: Executor, name: string) {
  const rows = await db.select().from(repos).where(eq(repos.name, name)).limit(1);
  return rows[0] ?? null;
}

export async function listAdvisoriesForRepo(db: Executor, repoId: number): Promise<RepoAdvisoryRow[]> {
  return db
    .select({
      id: advisories.id,
      introducedSha: advisories.introducedSha,
      fixedSha: advisories.fixedSha,
      modified: advisories.modified,
      status: advisories.status,
      record: advisories.record,
    })
    .from(advisories)
    .where(eq(advisories.repoId, repoId))
    .orderBy(asc(advisories.published), asc(advisories.id));
}

/** A repo's advisories by repo name, case-insensitive as the Hub is, in one round trip (empty when not watched or none). */
export async function listAdvisoriesForRepoName(
  db: Executor,
  name: string,
): Promise<(AdvisoryRecordRow & { repoId: number })[]> {
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
    .where(sql`lower(${repos.name}) = ${name.toLowerCase()}`)
    .orderBy(asc(advisories.published), asc(advisories.id));
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
export async function listAllAdvisories(db: Executor): Promise<AdvisoryRecordRow[]> {
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

/**
 * One round trip: whether the repo is watched (and its status, whether any badge is stored), and its
 * badge for `metric` if stored.
 */
export async function findBadgeByRepoName(db: Executor, name: string, metric: string) {
  const rows = await db
    .select({
      repoId: repos.id,
      status: repos.status,
      hasBadges: sql<boolean>`exists (select 1 from ${badges} b where b.repo_id = ${repos.id})`,
      json: badges.json,
      etag: badges.etag,
      updatedAt: badges.updatedAt,
    })
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

export async function repoNameById(db: Executor, repoId: number): Promise<string | null> {
  const rows = await db.select({ name: repos.name }).from(repos).where(eq(repos.id, repoId)).limit(1);
  return rows[0]?.name ?? null;
}

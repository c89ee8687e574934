import { and, desc, eq, lte, sql } from "drizzle-orm";
import { adapterBases, repos, revisions } from "../db/schema/index.ts";
import type { Executor } from "../db/types.ts";
import type { LinkedAdapter } from "./changes.repository.ts";

type AdapterLink = { adapterRepoId: number; baseName: string; revisionId: number };

/**
 * Records the base an adapter revision names. A link written by a newer revision (higher id: revisions are
 * recorded oldest first) is not replaced by an older one, so reprocessing history leaves the newest link.
 */
export async function upsertAdapterBase(ex: Executor, link: AdapterLink, at: Date): Promise<void> {
  await ex
    .insert(adapterBases)
    .values({ ...link, updatedAt: at })
    .onConflictDoUpdate({
      target: adapterBases.adapterRepoId,
      set: { baseName: link.baseName, revisionId: link.revisionId, updatedAt: at },
      setWhere: sql`${adapterBases.revisionId} <= excluded.revision_id`,
    });
}

/** The base an adapter repo names, or null when it is not an adapter (or not processed yet). */
export async function getAdapterBase(ex: Executor, adapterRepoId: number): Promise<string | null> {
  const [row] = await ex.select().from(adapterBases).where(eq(adapterBases.adapterRepoId, adapterRepoId));
  return row?.baseName ?? null;
}

/** Every adapter -> base link, with whether the base is watched. */
export async function listAdapterBases(ex: Executor) {
  const rows = await ex
    .select({ adapterRepoId: adapterBases.adapterRepoId, baseName: adapterBases.baseName, baseId: repos.id })
    .from(adapterBases)
    .leftJoin(repos, sql`lower(${repos.name}) = lower(${adapterBases.baseName})`);
  return rows.map((r) => ({
    adapterRepoId: r.adapterRepoId,
    baseName: r.baseName,
    baseWatched: r.baseId !== null,
  }));
}

/** The adapter repos linked to a base (by name, case-insensitively), each with the revision that named it. */
export async function listAdaptersOfBase(ex: Executor, baseName: string): Promise<LinkedAdapter[]> {
  const rows = await ex
    .select({ id: repos.id, name: repos.name, sha: revisions.sha, committedAt: revisions.committedAt })
    .from(adapterBases)
    .innerJoin(repos, eq(repos.id, adapterBases.adapterRepoId))
    .innerJoin(revisions, eq(revisions.id, adapterBases.revisionId))
    .where(sql`lower(${adapterBases.baseName}) = lower(${baseName})`)
    .orderBy(repos.name);
  return rows.map((r) => ({ repo: { id: r.id, name: r.name }, sha: r.sha, committedAt: r.committedAt }));
}

/** A watched repo by name, compared case-insensitively as the Hub does. */
export async function findRepoByNameCi(ex: Executor, name: string) {
  const [row] = await ex.select().from(repos).where(sql`lower(${repos.name}) = lower(${name})`).limit(1);
  return row ?? null;
}

/**
 * The base revisions an adapter revision committed at `at` may have been trained against: the base's
 * revisions committed at or before it, newest first (any status; the caller picks the processed one).
 */
export function baseRevisionsAt(ex: Executor, baseRepoId: number, at: Date | null, limit = 20) {
  return ex
    .select()
    .from(revisions)
    .where(
      and(
        eq(revisions.repoId, baseRepoId),
        eq(revisions.forcePushedAway, false),
        at === null ? undefined : lte(revisions.committedAt, at),
      ),
    )
    .orderBy(desc(revisions.seq))
    .limit(limit);
}

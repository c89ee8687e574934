import { eq, type SQL, sql } from "drizzle-orm";
import { adapterBases, repos } from "../db/schema/index.ts";
import type { Executor } from "../db/types.ts";
import { queryRows } from "./raw.ts";

/** An adapter repo that names a repo as its base, with the revision that named it. */
export type LinkedAdapter = { repo: { id: number; name: string }; sha: string; committedAt: Date | null };

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

/**
 * The adapter links to a base, as a subquery to select from: the adapter repos that name `baseName` as
 * their base (by name, case-insensitively, as the Hub compares names), each with the revision that named
 * it. Columns: id and name of the adapter repo, sha and committed_at of that revision.
 */
export function adapterLinksOf(baseName: string): SQL {
  return sql`select r.id, r.name, v.sha, v.committed_at
    from adapter_bases a join repos r on r.id = a.adapter_repo_id join revisions v on v.id = a.revision_id
    where lower(a.base_name) = lower(${baseName})`;
}

/** The adapter repos linked to a base (by name, case-insensitively), each with the revision that named it. */
export async function listAdaptersOfBase(ex: Executor, baseName: string): Promise<LinkedAdapter[]> {
  const rows = await queryRows<{ id: number; name: string; sha: string; committed_at: Date | string | null }>(
    ex,
    sql`select l.* from (${adapterLinksOf(baseName)}) l order by l.name`,
  );
  return rows.map((r) => ({
    repo: { id: r.id, name: r.name },
    sha: r.sha,
    committedAt: r.committed_at === null ? null : new Date(r.committed_at),
  }));
}

import { and, asc, desc, eq, inArray, like, lt, lte, sql } from "drizzle-orm";
import { estimates, type RevisionStatus, repos, revisions } from "../db/schema/index.ts";
import type { Executor } from "../db/types.ts";
import type { Revision } from "./revisions.repository.ts";

// Reads of a repo's revision history: by sha, in order, and the revisions before a given one.

/** When a revision happened, for newest-first lists across repos: its commit date, else when it was processed. */
export const revisionTime = sql`coalesce(${revisions.committedAt}, ${revisions.processedAt})`;

/** The repo and revision a row of a newest-first list belongs to (selected over revisions ⋈ repos). */
export const revisionRefColumns = {
  repo: repos.name,
  sha: revisions.sha,
  title: revisions.title,
  at: revisions.committedAt,
};

export async function getRevisionBySha(ex: Executor, repoId: number, sha: string): Promise<Revision | null> {
  const [row] = await ex
    .select()
    .from(revisions)
    .where(and(eq(revisions.repoId, repoId), eq(revisions.sha, sha)));
  return row ?? null;
}

type ListRevisionsOptions = {
  status?: RevisionStatus;
  includeForcePushedAway?: boolean;
  /** Newest first instead of oldest first. */
  newestFirst?: boolean;
  limit?: number;
  /** Keyset page: only revisions before this seq (with newestFirst: the next page after it). */
  beforeSeq?: number;
};

export function listRevisionsByRepo(
  ex: Executor,
  repoId: number,
  opts: ListRevisionsOptions = {},
): Promise<Revision[]> {
  const order = opts.newestFirst
    ? [desc(revisions.seq), desc(revisions.id)]
    : [asc(revisions.seq), asc(revisions.id)];
  const query = ex
    .select()
    .from(revisions)
    .where(
      and(
        eq(revisions.repoId, repoId),
        opts.status ? eq(revisions.status, opts.status) : undefined,
        opts.includeForcePushedAway ? undefined : eq(revisions.forcePushedAway, false),
        opts.beforeSeq === undefined ? undefined : lt(revisions.seq, opts.beforeSeq),
      ),
    )
    .orderBy(...order);
  return opts.limit === undefined ? query : query.limit(opts.limit);
}

/**
 * The revision to diff against: the one whose sha is `parentSha`, else (parent unknown or never
 * recorded) the nearest earlier revision still in upstream history. Null for the first revision.
 */
export async function getParentRevision(ex: Executor, revision: Revision): Promise<Revision | null> {
  if (revision.parentSha) {
    const parent = await getRevisionBySha(ex, revision.repoId, revision.parentSha);
    if (parent) return parent;
  }
  const [row] = await ex
    .select()
    .from(revisions)
    .where(
      and(
        eq(revisions.repoId, revision.repoId),
        lt(revisions.seq, revision.seq),
        eq(revisions.forcePushedAway, false),
      ),
    )
    .orderBy(desc(revisions.seq), desc(revisions.id))
    .limit(1);
  return row ?? null;
}

/** The nearest revision before `seq`, whether or not still upstream. */
export async function previousRevision(db: Executor, repoId: number, seq: number) {
  const rows = await db
    .select()
    .from(revisions)
    .where(and(eq(revisions.repoId, repoId), lt(revisions.seq, seq)))
    .orderBy(desc(revisions.seq))
    .limit(1);
  return rows[0] ?? null;
}

/** The nearest revision before `seq` with an estimate (the one a revision's estimate is compared with). */
export async function previousEstimatedRevision(db: Executor, repoId: number, seq: number) {
  const rows = await db
    .select({ id: revisions.id, sha: revisions.sha })
    .from(revisions)
    .innerJoin(estimates, eq(estimates.revisionId, revisions.id))
    .where(and(eq(revisions.repoId, repoId), lt(revisions.seq, seq), sql`${estimates.result} is not null`))
    .orderBy(desc(revisions.seq))
    .limit(1);
  return rows[0] ?? null;
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

/** Ids of the repos whose recorded history has the commit `sha`. */
export async function repoIdsWithCommit(db: Executor, sha: string): Promise<number[]> {
  const rows = await db.select({ repoId: revisions.repoId }).from(revisions).where(eq(revisions.sha, sha));
  return [...new Set(rows.map((r) => r.repoId))];
}

/** Full shas of a repo's recorded revisions that start with `prefix` (lower-case hex). */
export async function shasWithPrefix(ex: Executor, name: string, prefix: string): Promise<string[]> {
  const rows = await ex
    .select({ sha: revisions.sha })
    .from(revisions)
    .innerJoin(repos, eq(repos.id, revisions.repoId))
    .where(and(eq(repos.name, name), like(revisions.sha, `${prefix.toLowerCase()}%`)));
  return rows.map((r) => r.sha);
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

import { and, asc, desc, eq, inArray, lt, max, sql } from "drizzle-orm";
import { type RevisionStatus, revisions } from "../db/schema/index.ts";
import type { Executor } from "../db/types.ts";

export type Revision = typeof revisions.$inferSelect;

export type NewRevision = {
  sha: string;
  parentSha?: string | null;
  /** Order within the repo; omitted: after the current last, in array order. */
  seq?: number;
  committedAt?: Date | null;
  title?: string | null;
  author?: string | null;
};

/**
 * Records commits (oldest first) as pending; commits already recorded are left untouched.
 * Returns only the rows this call inserted, so a retry or a second worker inserts nothing twice.
 */
export async function insertPendingRevisions(
  ex: Executor,
  repoId: number,
  commits: NewRevision[],
): Promise<Revision[]> {
  if (commits.length === 0) return [];
  const base = await lastSeq(ex, repoId);
  const rows = commits.map((c, i) => ({
    repoId,
    sha: c.sha,
    parentSha: c.parentSha ?? null,
    seq: c.seq ?? base + i + 1,
    committedAt: c.committedAt ?? null,
    title: c.title ?? null,
    author: c.author ?? null,
  }));
  return ex
    .insert(revisions)
    .values(rows)
    .onConflictDoNothing({ target: [revisions.repoId, revisions.sha] })
    .returning();
}

/** Highest seq recorded for the repo, 0 when none. */
async function lastSeq(ex: Executor, repoId: number): Promise<number> {
  const [row] = await ex
    .select({ seq: max(revisions.seq) })
    .from(revisions)
    .where(eq(revisions.repoId, repoId));
  return row?.seq ?? 0;
}

/** Oldest pending revision of the repo still in upstream history, or null. */
export async function nextPendingRevision(ex: Executor, repoId: number): Promise<Revision | null> {
  const [row] = await ex
    .select()
    .from(revisions)
    .where(
      and(
        eq(revisions.repoId, repoId),
        eq(revisions.status, "pending"),
        eq(revisions.forcePushedAway, false),
      ),
    )
    .orderBy(asc(revisions.seq), asc(revisions.id))
    .limit(1);
  return row ?? null;
}

/** Ids of repos with at least one pending revision still in upstream history. */
export async function repoIdsWithPending(ex: Executor): Promise<Set<number>> {
  const rows = await ex
    .selectDistinct({ repoId: revisions.repoId })
    .from(revisions)
    .where(and(eq(revisions.status, "pending"), eq(revisions.forcePushedAway, false)));
  return new Set(rows.map((r) => r.repoId));
}

export function markRevisionDone(ex: Executor, id: number, at: Date = new Date()): Promise<Revision | null> {
  return setStatus(ex, id, { status: "done", error: null, processedAt: at });
}

export function markRevisionFailed(
  ex: Executor,
  id: number,
  error: string,
  at: Date = new Date(),
): Promise<Revision | null> {
  return setStatus(ex, id, { status: "failed", error, processedAt: at });
}

/** Puts a revision back in the queue (retry after a failure, or reprocessing). */
export function markRevisionPending(ex: Executor, id: number): Promise<Revision | null> {
  return setStatus(ex, id, { status: "pending", error: null, processedAt: null });
}

async function setStatus(
  ex: Executor,
  id: number,
  patch: { status: RevisionStatus; error: string | null; processedAt: Date | null },
): Promise<Revision | null> {
  const [row] = await ex.update(revisions).set(patch).where(eq(revisions.id, id)).returning();
  return row ?? null;
}

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

/** Flags revisions no longer in upstream history (force push). Returns the rows newly flagged. */
export function markForcePushedAway(ex: Executor, repoId: number, shas: string[]): Promise<Revision[]> {
  if (shas.length === 0) return Promise.resolve([]);
  return ex
    .update(revisions)
    .set({ forcePushedAway: true })
    .where(
      and(eq(revisions.repoId, repoId), inArray(revisions.sha, shas), eq(revisions.forcePushedAway, false)),
    )
    .returning();
}

/** Revision counts per status for a repo, for the status page. */
export async function countRevisionsByStatus(
  ex: Executor,
  repoId: number,
): Promise<Record<RevisionStatus, number>> {
  const rows = await ex
    .select({ status: revisions.status, n: sql<number>`count(*)::int` })
    .from(revisions)
    .where(eq(revisions.repoId, repoId))
    .groupBy(revisions.status);
  const counts: Record<RevisionStatus, number> = { pending: 0, done: 0, failed: 0 };
  for (const r of rows) counts[r.status] = r.n;
  return counts;
}

import { and, eq, inArray, max, sql } from "drizzle-orm";
import { type RevisionStatus, revisions } from "../db/schema/index.ts";
import type { Executor } from "../db/types.ts";
import { queryRows } from "./raw.ts";

// Writes to revisions: recording commits, their processing status, and force-push flags.
// Reads are in revisions-read.repository.ts (history) and revisions-status.repository.ts (queue state).

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

/** Puts failed revisions (of one repo, or all) back to pending; returns the repos touched and how many. */
export async function requeueFailedRevisions(
  ex: Executor,
  repo?: string,
): Promise<{ repo: string; count: number }[]> {
  return queryRows<{ repo: string; count: number }>(
    ex,
    sql`with moved as (
          update revisions v set status = 'pending', error = null, processed_at = null
          from repos r
          where r.id = v.repo_id and v.status = 'failed' and not v.force_pushed_away
            and (${repo ?? null}::text is null or r.name = ${repo ?? null})
          returning r.name as repo)
        select repo, count(*)::int as count from moved group by repo order by repo`,
  );
}

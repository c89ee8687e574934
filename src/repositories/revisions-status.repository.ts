import { and, asc, eq, sql } from "drizzle-orm";
import { type RevisionStatus, revisions } from "../db/schema/index.ts";
import type { Executor } from "../db/types.ts";
import { asDate, queryRows, tally } from "./raw.ts";
import type { Revision } from "./revisions.repository.ts";

// Reads of the processing queue: what is pending, how many are in each status, which failed and why.

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

/** What /metrics reports of revisions still upstream: counts per status, failures by kind, oldest pending. */
export type RevisionFigures = {
  revisions: Record<"pending" | "done" | "failed", number>;
  /** Failed revisions by the finding kind their reason starts with (`bad_header: ...`). */
  failedByKind: Record<string, number>;
  /** Commit date of the oldest pending revision (null: none pending or undated). */
  oldestPendingCommittedAt: Date | null;
};

export async function revisionFigures(ex: Executor): Promise<RevisionFigures> {
  type Count = { key: string; n: number };
  const revisions = await queryRows<Count>(
    ex,
    sql`select status as key, count(*)::int as n from revisions where not force_pushed_away group by status`,
  );
  const failed = await queryRows<Count>(
    ex,
    sql`select split_part(coalesce(error, 'other'), ':', 1) as key, count(*)::int as n
        from revisions where status = 'failed' and not force_pushed_away group by 1`,
  );
  const [pending] = await queryRows<{ at: unknown }>(
    ex,
    sql`select min(committed_at) as at from revisions where status = 'pending' and not force_pushed_away`,
  );
  return {
    revisions: tally(revisions, ["pending", "done", "failed"] as const),
    failedByKind: Object.fromEntries(failed.map((r) => [r.key, r.n])),
    oldestPendingCommittedAt: asDate(pending?.at),
  };
}

export type FailedRevision = {
  repo: string;
  sha: string;
  seq: number;
  error: string;
  processedAt: Date | null;
};

/** Failed revisions still in upstream history, of one repo or all, oldest first per repo. */
export async function listFailedRevisions(ex: Executor, repo?: string): Promise<FailedRevision[]> {
  const rows = await queryRows<{ repo: string; sha: string; seq: number; error: string | null; at: unknown }>(
    ex,
    sql`select r.name as repo, v.sha, v.seq, v.error, v.processed_at as at
        from revisions v join repos r on r.id = v.repo_id
        where v.status = 'failed' and not v.force_pushed_away
          and (${repo ?? null}::text is null or r.name = ${repo ?? null})
        order by r.name, v.seq`,
  );
  return rows.map((r) => ({
    repo: r.repo,
    sha: r.sha,
    seq: r.seq,
    error: r.error ?? "",
    processedAt: asDate(r.at),
  }));
}

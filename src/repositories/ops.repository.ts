import { sql } from "drizzle-orm";
import type { Executor } from "../db/types.ts";
import { queryRows } from "./raw.ts";

/**
 * What an operator asks the store: how much is done, pending and failed (for /metrics), and which
 * revisions failed and why (for `hubwatch failed`). Read-only except `requeueFailedRevisions`.
 */
export type StoreFigures = {
  revisions: Record<"pending" | "done" | "failed", number>;
  /** Failed revisions by the finding kind their reason starts with (`bad_header: ...`). */
  failedByKind: Record<string, number>;
  /** Commit date of the oldest pending revision (null: none pending or undated). */
  oldestPendingCommittedAt: Date | null;
  advisories: Record<"open" | "closed", number>;
  deliveries: Record<"pending" | "delivered" | "failed" | "dead", number>;
  /** When the oldest event not yet delivered to some receiver was recorded (null: all delivered). */
  oldestUndeliveredAt: Date | null;
};

function tally<K extends string>(rows: { key: string; n: number }[], keys: readonly K[]): Record<K, number> {
  const out = Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
  for (const r of rows) if ((keys as readonly string[]).includes(r.key)) out[r.key as K] = r.n;
  return out;
}

const asDate = (v: unknown): Date | null => (v == null ? null : new Date(v as string));

export async function storeFigures(ex: Executor): Promise<StoreFigures> {
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
  const advisories = await queryRows<Count>(
    ex,
    sql`select status as key, count(*)::int as n from advisories group by status`,
  );
  const deliveries = await queryRows<Count>(
    ex,
    sql`select status as key, count(*)::int as n from webhook_deliveries group by status`,
  );
  const [lag] = await queryRows<{ at: unknown }>(
    ex,
    sql`select min(e.created_at) as at from webhook_deliveries d join webhook_events e on e.id = d.event_id
        where d.status in ('pending', 'failed')`,
  );
  return {
    revisions: tally(revisions, ["pending", "done", "failed"] as const),
    failedByKind: Object.fromEntries(failed.map((r) => [r.key, r.n])),
    oldestPendingCommittedAt: asDate(pending?.at),
    advisories: tally(advisories, ["open", "closed"] as const),
    deliveries: tally(deliveries, ["pending", "delivered", "failed", "dead"] as const),
    oldestUndeliveredAt: asDate(lag?.at),
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

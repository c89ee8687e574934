import { and, count, desc, eq, gte, max, sql } from "drizzle-orm";
import { advisories, repos } from "../db/schema/index.ts";
import type { Executor } from "../db/types.ts";
import type { Advisory, AdvisoryRecordRow } from "./advisories.repository.ts";
import { queryRows, tally } from "./raw.ts";

// Listings of advisories across every repo: the paged API list, the OSV feed, counts for /metrics.

export type AdvisoryCursor = { modified: Date; id: string };
export type AdvisoryPage = { items: Advisory[]; next: AdvisoryCursor | null };

/**
 * All advisories, most recently modified first, a page at a time: pass the previous page's `next` as
 * `after` (keyset pagination, stable while rows are added). `modifiedSince` keeps modified >= it.
 */
export async function listAdvisories(
  ex: Executor,
  opts: { limit?: number; after?: AdvisoryCursor | null; modifiedSince?: Date } = {},
): Promise<AdvisoryPage> {
  const limit = opts.limit ?? 100;
  const after = opts.after;
  const items = await ex
    .select()
    .from(advisories)
    .where(
      and(
        after
          ? sql`(${advisories.modified}, ${advisories.id}) < (${after.modified.toISOString()}::timestamptz, ${after.id})`
          : undefined,
        opts.modifiedSince ? gte(advisories.modified, opts.modifiedSince) : undefined,
      ),
    )
    .orderBy(desc(advisories.modified), desc(advisories.id))
    .limit(limit + 1);
  const page = items.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page,
    next: items.length > limit && last ? { modified: last.modified, id: last.id } : null,
  };
}

/** How many advisories are open and closed, across every repo. */
export async function countAdvisoriesByStatus(ex: Executor): Promise<Record<"open" | "closed", number>> {
  const rows = await queryRows<{ key: string; n: number }>(
    ex,
    sql`select status as key, count(*)::int as n from advisories group by status`,
  );
  return tally(rows, ["open", "closed"] as const);
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

/** The most recently modified advisories, with their repo; `status` says whether still open. */
export async function recentAdvisories(db: Executor, limit: number, status?: "open" | "closed") {
  return db
    .select({
      id: advisories.id,
      repo: repos.name,
      status: advisories.status,
      published: advisories.published,
      modified: advisories.modified,
      introducedSha: advisories.introducedSha,
      fixedSha: advisories.fixedSha,
      summary: sql<string>`${advisories.record}->>'summary'`,
    })
    .from(advisories)
    .innerJoin(repos, eq(repos.id, advisories.repoId))
    .where(status ? and(eq(advisories.status, status)) : undefined)
    .orderBy(desc(advisories.modified), desc(advisories.id))
    .limit(limit);
}

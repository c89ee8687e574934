import { and, desc, gte, sql } from "drizzle-orm";
import { advisories } from "../db/schema/index.ts";
import type { Executor } from "../db/types.ts";
import type { Advisory } from "./advisories.repository.ts";
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

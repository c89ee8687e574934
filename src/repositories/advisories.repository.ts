import { and, asc, count, desc, eq, gte, sql } from "drizzle-orm";
import { type AdvisoryStatus, advisories, advisoryCounters } from "../db/schema/index.ts";
import type { Executor } from "../db/types.ts";
import { queryRows } from "./raw.ts";

export type Advisory = typeof advisories.$inferSelect;
type OsvRecord = Record<string, unknown>;

function formatAdvisoryId(year: number, n: number): string {
  return `x_HUBWATCH-${year}-${String(n).padStart(4, "0")}`;
}

/**
 * Next advisory id for `year`. Call inside the transaction that inserts the advisory: the counter row
 * stays locked until it ends, so concurrent allocators get distinct, sequential numbers and a rollback
 * gives the number back.
 */
async function allocateAdvisoryId(tx: Executor, year: number): Promise<string> {
  const [row] = await tx
    .insert(advisoryCounters)
    .values({ year, last: 1 })
    .onConflictDoUpdate({ target: advisoryCounters.year, set: { last: sql`${advisoryCounters.last} + 1` } })
    .returning({ last: advisoryCounters.last });
  return formatAdvisoryId(year, row!.last);
}

type NewAdvisory = {
  repoId: number;
  introducedSha: string;
  fixedSha?: string | null;
  status?: AdvisoryStatus;
  published: Date;
  modified: Date;
};

/** Inserts an advisory with a known id; null if (repoId, introducedSha) already has one. */
export async function insertAdvisory(
  ex: Executor,
  a: NewAdvisory & { id: string; record: OsvRecord },
): Promise<Advisory | null> {
  const [row] = await ex
    .insert(advisories)
    .values({ ...a, fixedSha: a.fixedSha ?? null, status: a.status ?? "open" })
    .onConflictDoNothing({ target: [advisories.repoId, advisories.introducedSha] })
    .returning();
  return row ?? null;
}

class AlreadyOpened extends Error {}

/**
 * Opens the advisory for (repoId, introducedSha) unless one exists (then returns it, created: false).
 * `record` builds the OSV object from the allocated id; the id's year is the UTC year of `published`.
 * Safe under concurrency: the id is allocated and the row inserted in a savepoint, and a loser (the row
 * exists) rolls its allocation back, so ids have no gaps. The existing row is read only then.
 */
export async function openAdvisory(
  ex: Executor,
  a: NewAdvisory & { record: (id: string) => OsvRecord },
): Promise<{ advisory: Advisory; created: boolean }> {
  try {
    return await ex.transaction(async (sp) => {
      const id = await allocateAdvisoryId(sp, a.published.getUTCFullYear());
      const inserted = await insertAdvisory(sp, { ...a, id, record: a.record(id) });
      if (!inserted) throw new AlreadyOpened();
      return { advisory: inserted, created: true };
    });
  } catch (err) {
    if (!(err instanceof AlreadyOpened)) throw err;
    const existing = await getAdvisoryByIntroduced(ex, a.repoId, a.introducedSha);
    return { advisory: existing!, created: false };
  }
}

type AdvisoryPatch = {
  fixedSha?: string | null;
  status?: AdvisoryStatus;
  modified: Date;
  record: OsvRecord;
};

/** Updates an advisory; null if no advisory has this id. */
export async function updateAdvisory(
  ex: Executor,
  id: string,
  patch: AdvisoryPatch,
): Promise<Advisory | null> {
  const [row] = await ex.update(advisories).set(patch).where(eq(advisories.id, id)).returning();
  return row ?? null;
}

/** Closes an advisory as fixed at `fixedSha`. */
export function closeAdvisory(
  ex: Executor,
  id: string,
  patch: { fixedSha: string; modified: Date; record: OsvRecord },
): Promise<Advisory | null> {
  return updateAdvisory(ex, id, { ...patch, status: "closed" });
}

export async function getAdvisory(ex: Executor, id: string): Promise<Advisory | null> {
  const [row] = await ex.select().from(advisories).where(eq(advisories.id, id));
  return row ?? null;
}

async function getAdvisoryByIntroduced(
  ex: Executor,
  repoId: number,
  introducedSha: string,
): Promise<Advisory | null> {
  const [row] = await ex
    .select()
    .from(advisories)
    .where(and(eq(advisories.repoId, repoId), eq(advisories.introducedSha, introducedSha)));
  return row ?? null;
}

/** Every advisory of a repo, oldest published first. */
export function listAdvisoriesByRepo(ex: Executor, repoId: number): Promise<Advisory[]> {
  return ex
    .select()
    .from(advisories)
    .where(eq(advisories.repoId, repoId))
    .orderBy(asc(advisories.published), asc(advisories.id));
}

/** How many advisories of a repo are open. */
export async function countOpenAdvisories(ex: Executor, repoId: number): Promise<number> {
  const [row] = await ex
    .select({ n: count() })
    .from(advisories)
    .where(and(eq(advisories.repoId, repoId), eq(advisories.status, "open")));
  return row?.n ?? 0;
}

export type AdvisoryRow = Pick<Advisory, "id" | "introducedSha" | "status" | "published" | "record">;

/**
 * What advising the revision at `seq` needs of its repo's advisories, in one query: the advisories open
 * just before it (introduced by an earlier revision still upstream, and not fixed by an earlier one;
 * a fix by a revision no longer upstream does not count), oldest published first, and how many of the
 * repo's advisories are open now. Reprocessing an old revision so sees what its first run saw.
 */
export async function advisoriesOpenBefore(
  ex: Executor,
  repoId: number,
  seq: number,
): Promise<{ open: AdvisoryRow[]; openNow: number }> {
  const rows = await queryRows<{
    open_now: number;
    id: string | null;
    introduced_sha: string;
    status: AdvisoryStatus;
    published: Date | string;
    record: OsvRecord;
  }>(
    ex,
    sql`select c.open_now, a.id, a.introduced_sha, a.status, a.published, a.record
      from (select count(*)::int as open_now from advisories where repo_id = ${repoId} and status = 'open') c
      left join lateral (
        select a.* from advisories a
        join revisions ri on ri.repo_id = a.repo_id and ri.sha = a.introduced_sha and not ri.force_pushed_away
        left join revisions rf on rf.repo_id = a.repo_id and rf.sha = a.fixed_sha and not rf.force_pushed_away
        where a.repo_id = ${repoId} and ri.seq < ${seq} and (rf.seq is null or rf.seq >= ${seq})
      ) a on true
      order by a.published, a.id`,
  );
  const open = rows.flatMap((r) =>
    r.id === null
      ? []
      : [
          {
            id: r.id,
            introducedSha: r.introduced_sha,
            status: r.status,
            published: new Date(r.published),
            record: r.record,
          },
        ],
  );
  return { open, openNow: rows[0]?.open_now ?? 0 };
}

/** Open advisories, of one repo or all, oldest published first. */
export function listOpenAdvisories(ex: Executor, repoId?: number): Promise<Advisory[]> {
  return ex
    .select()
    .from(advisories)
    .where(
      and(eq(advisories.status, "open"), repoId === undefined ? undefined : eq(advisories.repoId, repoId)),
    )
    .orderBy(asc(advisories.published), asc(advisories.id));
}

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

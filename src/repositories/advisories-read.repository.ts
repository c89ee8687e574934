import { and, asc, count, eq, sql } from "drizzle-orm";
import { type AdvisoryStatus, advisories, repos } from "../db/schema/index.ts";
import type { Executor } from "../db/types.ts";
import type { Advisory, AdvisoryRecordRow } from "./advisories.repository.ts";
import { queryRows } from "./raw.ts";

// Reads of one advisory or of one repo's advisories.

type OsvRecord = Record<string, unknown>;

export async function getAdvisory(ex: Executor, id: string): Promise<Advisory | null> {
  const [row] = await ex.select().from(advisories).where(eq(advisories.id, id));
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

/** A repo's advisories by repo name, case-insensitive as the Hub is, in one round trip (empty when not watched or none). */
export async function listAdvisoriesForRepoName(
  db: Executor,
  name: string,
): Promise<(AdvisoryRecordRow & { repoId: number })[]> {
  return db
    .select({
      id: advisories.id,
      repoId: advisories.repoId,
      modified: advisories.modified,
      status: advisories.status,
      record: advisories.record,
    })
    .from(advisories)
    .innerJoin(repos, eq(repos.id, advisories.repoId))
    .where(sql`lower(${repos.name}) = ${name.toLowerCase()}`)
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

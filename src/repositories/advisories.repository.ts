import { and, eq, sql } from "drizzle-orm";
import { type AdvisoryStatus, advisories, advisoryCounters } from "../db/schema/index.ts";
import type { Executor } from "../db/types.ts";

// Writes to advisories: opening (with a gapless id), updating and closing. Reads of one repo's
// advisories are in advisories-read.repository.ts, listings across repos in advisories-feed.repository.ts.

export type Advisory = typeof advisories.$inferSelect;
/** An advisory as the OSV API and feed serve it: its OSV record, with what caching and filtering need. */
export type AdvisoryRecordRow = {
  id: string;
  modified: Date;
  status: string;
  record: Record<string, unknown>;
};
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

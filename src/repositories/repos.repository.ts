import { asc, count, eq, inArray, isNull, lte, max, or, sql } from "drizzle-orm";
import { advisories, type RepoStatus, repos, revisions } from "../db/schema/index.ts";
import type { Executor } from "../db/types.ts";

export type Repo = typeof repos.$inferSelect;

/** Watches `name` ("owner/name"); adding a repo already watched returns it with created: false. */
export async function addRepo(ex: Executor, name: string): Promise<{ repo: Repo; created: boolean }> {
  const [inserted] = await ex
    .insert(repos)
    .values({ name })
    .onConflictDoNothing({ target: repos.name })
    .returning();
  if (inserted) return { repo: inserted, created: true };
  const existing = await getRepoByName(ex, name);
  if (!existing) throw new Error(`repo ${name} conflicted on insert but is gone; retry`);
  return { repo: existing, created: false };
}

/** Stops watching `name` and deletes everything recorded for it (cascade). False if it was not watched. */
export async function removeRepo(ex: Executor, name: string): Promise<boolean> {
  const deleted = await ex.delete(repos).where(eq(repos.name, name)).returning({ id: repos.id });
  return deleted.length > 0;
}

export function listRepos(ex: Executor): Promise<Repo[]> {
  return ex.select().from(repos).orderBy(asc(repos.name));
}

/** Repos whose nextPollAt is unset or not after `now`. */
export function listReposDue(ex: Executor, now: Date = new Date()): Promise<Repo[]> {
  return ex
    .select()
    .from(repos)
    .where(or(isNull(repos.nextPollAt), lte(repos.nextPollAt, now)))
    .orderBy(asc(repos.name));
}

export async function getRepoByName(ex: Executor, name: string): Promise<Repo | null> {
  const [row] = await ex.select().from(repos).where(eq(repos.name, name));
  return row ?? null;
}

export async function getRepoById(ex: Executor, id: number): Promise<Repo | null> {
  const [row] = await ex.select().from(repos).where(eq(repos.id, id));
  return row ?? null;
}

type PollResult = {
  /** Head sha seen upstream; omitted leaves the stored one. */
  lastSeenSha?: string | null;
  at?: Date;
  nextPollAt?: Date | null;
};

/** Records a finished poll. Returns null if the repo is gone. */
export async function markRepoPolled(ex: Executor, id: number, poll: PollResult = {}): Promise<Repo | null> {
  const [row] = await ex
    .update(repos)
    .set({
      lastPolledAt: poll.at ?? new Date(),
      ...(poll.lastSeenSha !== undefined && { lastSeenSha: poll.lastSeenSha }),
      ...(poll.nextPollAt !== undefined && { nextPollAt: poll.nextPollAt }),
    })
    .where(eq(repos.id, id))
    .returning();
  return row ?? null;
}

/** Sets the repo's upstream status ('gated', 'not_found', ...); detail says why, null clears it. */
export async function setRepoStatus(
  ex: Executor,
  id: number,
  status: RepoStatus,
  detail: string | null = null,
): Promise<Repo | null> {
  const [row] = await ex
    .update(repos)
    .set({ status, statusDetail: detail })
    .where(eq(repos.id, id))
    .returning();
  return row ?? null;
}

/** A watched repo by name, compared case-insensitively as the Hub does. */
export async function findRepoByNameCi(ex: Executor, name: string) {
  const [row] = await ex.select().from(repos).where(sql`lower(${repos.name}) = lower(${name})`).limit(1);
  return row ?? null;
}

/** The head each watched repo was last seen at, by name; repos not watched are absent. */
export async function headsByRepoName(ex: Executor, names: string[]): Promise<Map<string, string | null>> {
  if (names.length === 0) return new Map();
  const rows = await ex
    .select({ name: repos.name, head: repos.lastSeenSha })
    .from(repos)
    .where(inArray(repos.name, names));
  return new Map(rows.map((r) => [r.name, r.head]));
}

/** Watched repos with their revision count, newest revision date and open advisories. */
export async function listReposOverview(db: Executor) {
  const revs = db
    .select({
      repoId: revisions.repoId,
      n: count().as("n"),
      latest: max(revisions.committedAt).as("latest"),
    })
    .from(revisions)
    .groupBy(revisions.repoId)
    .as("revs");
  const open = db
    .select({ repoId: advisories.repoId, n: count().as("open_n") })
    .from(advisories)
    .where(eq(advisories.status, "open"))
    .groupBy(advisories.repoId)
    .as("open");
  return db
    .select({
      id: repos.id,
      name: repos.name,
      status: repos.status,
      lastPolledAt: repos.lastPolledAt,
      revisions: sql<number>`coalesce(${revs.n}, 0)`.mapWith(Number),
      latest: revs.latest,
      openAdvisories: sql<number>`coalesce(${open.n}, 0)`.mapWith(Number),
    })
    .from(repos)
    .leftJoin(revs, eq(revs.repoId, repos.id))
    .leftJoin(open, eq(open.repoId, repos.id))
    .orderBy(asc(repos.name));
}

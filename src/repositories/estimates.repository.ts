import { and, asc, desc, eq, inArray, notExists, sql } from "drizzle-orm";
import { estimates, revisions } from "../db/schema/index.ts";
import type { Executor } from "../db/types.ts";
import { queryRows } from "./raw.ts";
import type { Revision } from "./revisions.repository.ts";

type Estimate = typeof estimates.$inferSelect;
type NewEstimate = {
  revisionId: number;
  estimatorVersion: string;
  paramsTotal?: number | null;
  result?: unknown;
  /** Set instead of result when the estimator could not run on this revision. */
  error?: string | null;
};

/** Stores the estimate for (revisionId, estimatorVersion), replacing a previous run of that version. */
export async function upsertEstimate(ex: Executor, e: NewEstimate): Promise<Estimate> {
  const values = {
    revisionId: e.revisionId,
    estimatorVersion: e.estimatorVersion,
    paramsTotal: e.paramsTotal ?? null,
    result: e.result ?? null,
    error: e.error ?? null,
  };
  const [row] = await ex
    .insert(estimates)
    .values(values)
    .onConflictDoUpdate({
      target: [estimates.revisionId, estimates.estimatorVersion],
      set: {
        paramsTotal: sql`excluded.params_total`,
        result: sql`excluded.result`,
        error: sql`excluded.error`,
        createdAt: sql`excluded.created_at`,
      },
    })
    .returning();
  return row!;
}

export async function getEstimate(
  ex: Executor,
  revisionId: number,
  estimatorVersion: string,
): Promise<Estimate | null> {
  const [row] = await ex
    .select()
    .from(estimates)
    .where(and(eq(estimates.revisionId, revisionId), eq(estimates.estimatorVersion, estimatorVersion)));
  return row ?? null;
}

type EstimateCandidate = { id: number; sha: string; stored: boolean; result: unknown };

/**
 * Where to find the estimate the revision at `seq` is compared with, in one query, newest first: among
 * the repo's `lookback` latest processed revisions before it (still upstream), the newest with a stored
 * `estimatorVersion` result, and the newer ones with no estimate of that version at all (stored: false,
 * to recompute from their files). Those whose stored estimate has no result (no config.json, estimator
 * error) are left out. Only the one result is loaded.
 */
export function previousEstimateCandidates(
  ex: Executor,
  repoId: number,
  seq: number,
  estimatorVersion: string,
  lookback: number,
): Promise<EstimateCandidate[]> {
  return queryRows<EstimateCandidate>(
    ex,
    sql`with candidates as (
        select r.id, r.sha, r.seq, e.id as estimate_id, e.result is not null as usable
        from revisions r
        left join estimates e on e.revision_id = r.id and e.estimator_version = ${estimatorVersion}
        where r.repo_id = ${repoId} and r.status = 'done' and not r.force_pushed_away and r.seq < ${seq}
        order by r.seq desc, r.id desc
        limit ${lookback}
      ), hit as (
        select seq, id from candidates where usable order by seq desc, id desc limit 1
      )
      select c.id, c.sha, c.estimate_id is not null as stored, e.result
      from candidates c
      left join estimates e on e.id = c.estimate_id and c.usable
      where (c.usable or c.estimate_id is null)
        and not exists (select 1 from hit where (hit.seq, hit.id) > (c.seq, c.id))
      order by c.seq desc, c.id desc`,
  );
}

/** The most recently computed estimate of a revision, whichever version, or null. */
export async function latestEstimateForRevision(ex: Executor, revisionId: number): Promise<Estimate | null> {
  const [row] = await ex
    .select()
    .from(estimates)
    .where(eq(estimates.revisionId, revisionId))
    .orderBy(desc(estimates.createdAt), desc(estimates.id))
    .limit(1);
  return row ?? null;
}

export function listEstimatesForRevision(ex: Executor, revisionId: number): Promise<Estimate[]> {
  return ex
    .select()
    .from(estimates)
    .where(eq(estimates.revisionId, revisionId))
    .orderBy(asc(estimates.createdAt), asc(estimates.id));
}

/**
 * Processed revisions (status 'done', still upstream) with no estimate from `estimatorVersion`: what a
 * re-estimation after an estimator upgrade must visit. Ordered by repo then seq.
 */
export function listRevisionsWithoutVersion(
  ex: Executor,
  estimatorVersion: string,
  limit = 1000,
): Promise<Revision[]> {
  const has = ex
    .select({ one: sql`1` })
    .from(estimates)
    .where(and(eq(estimates.revisionId, revisions.id), eq(estimates.estimatorVersion, estimatorVersion)));
  return ex
    .select()
    .from(revisions)
    .where(and(eq(revisions.status, "done"), eq(revisions.forcePushedAway, false), notExists(has)))
    .orderBy(asc(revisions.repoId), asc(revisions.seq))
    .limit(limit);
}

type EstimateView = {
  revisionId: number;
  estimatorVersion: string;
  error: string | null;
  /** Only what pages show (params, weights, memory, fit, reader); the structure listing stays in the database. */
  result: unknown;
};

/** The newest estimator run per revision (by creation), for many revisions. */
export async function latestEstimates(
  db: Executor,
  revisionIds: number[],
): Promise<Map<number, EstimateView>> {
  if (revisionIds.length === 0) return new Map();
  const rows = await db
    .select({
      revisionId: estimates.revisionId,
      estimatorVersion: estimates.estimatorVersion,
      error: estimates.error,
      result: sql<unknown>`case when ${estimates.result} is null then null else jsonb_strip_nulls(jsonb_build_object('params', ${estimates.result}->'params', 'memory', ${estimates.result}->'memory', 'fit', ${estimates.result}->'fit', 'weights', ${estimates.result}->'weights', 'quantization', ${estimates.result}->'quantization', 'reader', ${estimates.result}->'reader', 'gguf', ${estimates.result}->'gguf', 'diffusers', ${estimates.result}->'diffusers')) end`,
    })
    .from(estimates)
    .where(inArray(estimates.revisionId, revisionIds))
    .orderBy(asc(estimates.createdAt), asc(estimates.id));
  return new Map(rows.map((r) => [r.revisionId, r]));
}

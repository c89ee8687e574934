import { and, asc, desc, eq, notExists, sql } from "drizzle-orm";
import { estimates, revisions } from "../db/schema/index.ts";
import type { Executor } from "../db/types.ts";
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

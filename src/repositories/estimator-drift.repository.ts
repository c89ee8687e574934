import { and, asc, eq, sql } from "drizzle-orm";
import { estimatorDrift } from "../db/schema/index.ts";
import type { Executor } from "../db/types.ts";

type EstimatorDrift = typeof estimatorDrift.$inferSelect;
type NewEstimatorDrift = Omit<EstimatorDrift, "createdAt">;

/** Records what an estimator upgrade changed for a revision; a repeat replaces the differences. */
export async function recordDrift(ex: Executor, d: NewEstimatorDrift): Promise<EstimatorDrift> {
  const [row] = await ex
    .insert(estimatorDrift)
    .values(d)
    .onConflictDoUpdate({
      target: [estimatorDrift.revisionId, estimatorDrift.fromVersion, estimatorDrift.toVersion],
      set: { differences: sql`excluded.differences` },
    })
    .returning();
  return row!;
}

export function listDrift(
  ex: Executor,
  filter: { revisionId?: number; toVersion?: string } = {},
): Promise<EstimatorDrift[]> {
  return ex
    .select()
    .from(estimatorDrift)
    .where(
      and(
        filter.revisionId === undefined ? undefined : eq(estimatorDrift.revisionId, filter.revisionId),
        filter.toVersion === undefined ? undefined : eq(estimatorDrift.toVersion, filter.toVersion),
      ),
    )
    .orderBy(asc(estimatorDrift.revisionId), asc(estimatorDrift.createdAt));
}

import { and, desc, eq, isNull } from "drizzle-orm";
import { type FindingKind, findings } from "../db/schema/index.ts";
import type { Executor } from "../db/types.ts";

type Finding = typeof findings.$inferSelect;
type NewFinding = { repoId: number; sha?: string | null; kind: FindingKind; message: string };

/**
 * Records a problem with upstream data once per (repoId, sha, kind); a repeat keeps the first row and
 * returns it with created: false.
 */
export async function recordFinding(
  ex: Executor,
  f: NewFinding,
): Promise<{ finding: Finding; created: boolean }> {
  const sha = f.sha ?? null;
  const [row] = await ex
    .insert(findings)
    .values({ repoId: f.repoId, sha, kind: f.kind, message: f.message })
    .onConflictDoNothing({ target: [findings.repoId, findings.sha, findings.kind] })
    .returning();
  if (row) return { finding: row, created: true };
  const [existing] = await ex
    .select()
    .from(findings)
    .where(
      and(
        eq(findings.repoId, f.repoId),
        sha === null ? isNull(findings.sha) : eq(findings.sha, sha),
        eq(findings.kind, f.kind),
      ),
    );
  return { finding: existing!, created: false };
}

/** Findings, newest first, optionally for one repo / sha / kind. */
export function listFindings(
  ex: Executor,
  filter: { repoId?: number; sha?: string; kind?: FindingKind; limit?: number } = {},
): Promise<Finding[]> {
  return ex
    .select()
    .from(findings)
    .where(
      and(
        filter.repoId === undefined ? undefined : eq(findings.repoId, filter.repoId),
        filter.sha === undefined ? undefined : eq(findings.sha, filter.sha),
        filter.kind === undefined ? undefined : eq(findings.kind, filter.kind),
      ),
    )
    .orderBy(desc(findings.createdAt), desc(findings.id))
    .limit(filter.limit ?? 500);
}

import type { FindingKind } from "../db/schema/index.ts";
import type { Executor } from "../db/types.ts";
import { recordFinding as insertFinding } from "../repositories/findings.repository.ts";

type Finding = { repoId: number; sha: string | null; kind: FindingKind; message: string };

/** Records a problem with upstream data, once per (repo, sha, kind); true if it is new. */
export async function recordFinding(ex: Executor, finding: Finding): Promise<boolean> {
  const { created } = await insertFinding(ex, finding);
  return created;
}

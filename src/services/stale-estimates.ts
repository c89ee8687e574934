import { ESTIMATOR_VERSION } from "../core/estimator/estimate.ts";
import { listRevisionsWithoutVersion } from "../repositories/estimates.repository.ts";
import { listRepos } from "../repositories/repos.repository.ts";
import type { PipelineServices } from "./deps.ts";

/**
 * Repos with processed revisions not yet estimated by the current estimator version: what to
 * re-estimate after an upgrade. Cheap when nothing is stale (one indexed anti-join), so the scheduler's
 * fan-out runs it every tick.
 */
export async function reposWithStaleEstimates(s: Pick<PipelineServices, "db">): Promise<string[]> {
  const stale = await listRevisionsWithoutVersion(s.db, ESTIMATOR_VERSION, 1000);
  if (stale.length === 0) return [];
  const ids = new Set(stale.map((r) => r.repoId));
  return (await listRepos(s.db)).filter((r) => ids.has(r.id)).map((r) => r.name);
}

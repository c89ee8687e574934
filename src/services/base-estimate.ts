import { ESTIMATOR_VERSION, type Estimate } from "../core/estimator/estimate.ts";
import { getEstimate } from "../repositories/estimates.repository.ts";
import { listRevisionsByRepo, type Revision } from "../repositories/revisions.repository.ts";
import type { PipelineServices } from "./deps.ts";
import { computeEstimate, isEstimable } from "./estimate-revision.ts";
import { loadRevisionFiles } from "./revision-files.ts";

/** How far back to look for an estimate to compare with (revisions without config.json are skipped). */
const LOOKBACK = 50;

/**
 * The estimate a revision is compared with: that of the latest processed revision before it that has
 * one, under the CURRENT estimator version (stored, or recomputed from stored files without a Hub
 * request). Comparing across versions would turn an estimator upgrade into advisories; the
 * re-estimate job records such drift instead. Null when there is none (first upload).
 */
export async function previousEstimate(
  s: PipelineServices,
  revision: Revision,
): Promise<{ revision: Revision; estimate: Estimate } | null> {
  const done = await listRevisionsByRepo(s.db, revision.repoId, { status: "done", newestFirst: true });
  for (const candidate of done.filter((r) => r.seq < revision.seq).slice(0, LOOKBACK)) {
    const estimate = await estimateOf(s, candidate);
    if (estimate) return { revision: candidate, estimate };
  }
  return null;
}

async function estimateOf(s: PipelineServices, revision: Revision): Promise<Estimate | null> {
  const stored = await getEstimate(s.db, revision.id, ESTIMATOR_VERSION);
  if (stored) return (stored.result as Estimate | null) ?? null;
  const files = await loadRevisionFiles(s.db, revision.id);
  if (!isEstimable(files)) return null;
  try {
    return computeEstimate(files);
  } catch {
    return null;
  }
}

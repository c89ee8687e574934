import { ESTIMATOR_VERSION, type Estimate } from "../core/estimator/estimate.ts";
import { previousEstimateCandidates } from "../repositories/estimates.repository.ts";
import type { Revision } from "../repositories/revisions.repository.ts";
import type { PipelineServices } from "./deps.ts";
import { computeEstimate, isEstimable } from "./estimate-revision.ts";
import { isPeftRevision } from "./peft-files.ts";
import { loadRevisionFiles } from "./revision-files.ts";

/** How far back to look for an estimate to compare with (revisions without config.json are skipped). */
const LOOKBACK = 50;

/**
 * The estimate a revision is compared with: that of the latest processed revision before it that has
 * one, under the CURRENT estimator version (stored, or recomputed from stored files without a Hub
 * request). Comparing across versions would turn an estimator upgrade into advisories; the
 * re-estimate job records such drift instead. Null when there is none (first upload). One query when
 * the revisions before it are estimated by this version; a recompute reads the files of each one not.
 */
export async function previousEstimate(
  s: PipelineServices,
  revision: Revision,
): Promise<{ sha: string; estimate: Estimate } | null> {
  const candidates = await previousEstimateCandidates(
    s.db,
    revision.repoId,
    revision.seq,
    ESTIMATOR_VERSION,
    LOOKBACK,
  );
  for (const candidate of candidates) {
    const estimate = candidate.stored ? (candidate.result as Estimate) : await recompute(s, candidate.id);
    if (estimate) return { sha: candidate.sha, estimate };
  }
  return null;
}

async function recompute(s: PipelineServices, revisionId: number): Promise<Estimate | null> {
  const files = await loadRevisionFiles(s.db, revisionId);
  // A PEFT adapter's estimate needs its base loaded: only the stored one is compared with.
  if (!isEstimable(files) || isPeftRevision(files)) return null;
  try {
    return computeEstimate(files);
  } catch {
    return null;
  }
}

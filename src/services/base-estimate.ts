import { ESTIMATOR_VERSION, type Estimate } from "../core/estimator/estimate.ts";
import { getEstimate } from "../repositories/estimates.repository.ts";
import type { Revision } from "../repositories/revisions.repository.ts";
import type { PipelineServices } from "./deps.ts";
import { computeEstimate } from "./estimate-revision.ts";
import { loadRevisionFiles } from "./revision-files.ts";

/**
 * The base revision's estimate under the CURRENT estimator version: stored if the base was estimated
 * with it, else recomputed from the base's stored files (no Hub request). Comparing across versions
 * would turn an estimator upgrade into advisories; the re-estimate job records that drift instead.
 * Null when the base has no usable estimate.
 */
export async function baseEstimate(s: PipelineServices, base: Revision): Promise<Estimate | null> {
  const stored = await getEstimate(s.db, base.id, ESTIMATOR_VERSION);
  if (stored) return (stored.result as Estimate | null) ?? null;
  try {
    return computeEstimate(await loadRevisionFiles(s.db, base.id));
  } catch {
    return null;
  }
}

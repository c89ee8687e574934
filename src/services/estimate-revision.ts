import { EstimatorInputError } from "../core/estimator/config-view.ts";
import { ESTIMATOR_VERSION, type Estimate, estimate } from "../core/estimator/estimate.ts";
import { estimateGgufRepo } from "../core/estimator/gguf/repo-estimate.ts";
import { upsertEstimate } from "../repositories/estimates.repository.ts";
import type { Revision } from "../repositories/revisions.repository.ts";
import { type FileState, modelShards, tensors } from "./change-builders.ts";
import type { PipelineServices } from "./deps.ts";
import { computeDiffusersEstimate, isDiffusersRevision } from "./diffusers-files.ts";
import { ggufHeaders, isGgufPath } from "./gguf-changes.ts";
import { BadUpstreamDataError } from "./hub-errors.ts";
import { jsonProblem } from "./json-text.ts";
import { loadPeftBase } from "./peft-base.ts";
import { computePeftEstimate, isPeftRevision, type PeftBaseLoad } from "./peft-files.ts";
import { loadRevisionFiles } from "./revision-files.ts";
import { sentenceTransformersOf, withSentenceTransformers } from "./sentence-transformers-files.ts";

export const NO_CONFIG = "no config.json in this revision";

/**
 * Runs the pure estimator on a revision's config.json (+ the tensors of its safetensors headers) and
 * stores the result under the current estimator version. A revision without config.json (an initial
 * commit) has no estimate: null. A config that is not JSON, or that the estimator rejects, throws
 * BadUpstreamDataError (the revision fails with it); the error is stored as the estimate too. A PEFT
 * adapter's revision waits for its base's revision (`waitForBase`: throws until it is processed).
 */
export async function estimateRevision(
  s: PipelineServices,
  revision: Revision,
  opts: { waitForBase: boolean } = { waitForBase: true },
): Promise<Estimate | null> {
  const files = await loadRevisionFiles(s.db, revision.id);
  if (!isEstimable(files)) {
    // Recorded, so the revision counts as estimated by this version (not stale after an upgrade).
    await upsertEstimate(s.db, {
      revisionId: revision.id,
      estimatorVersion: ESTIMATOR_VERSION,
      error: NO_CONFIG,
    });
    return null;
  }
  try {
    const result = computeEstimate(files, await loadPeftBase(s, revision, files, { wait: opts.waitForBase }));
    await upsertEstimate(s.db, {
      revisionId: revision.id,
      estimatorVersion: ESTIMATOR_VERSION,
      paramsTotal: result.params.total,
      result,
    });
    return result;
  } catch (err) {
    if (!(err instanceof BadUpstreamDataError)) throw err;
    await upsertEstimate(s.db, {
      revisionId: revision.id,
      estimatorVersion: ESTIMATOR_VERSION,
      error: err.message,
    });
    throw err;
  }
}

/** A revision the estimator reads: a config.json, GGUF files, a PEFT adapter or a diffusers model_index.json. */
export function isEstimable(files: Map<string, FileState>): boolean {
  return (
    files.has("config.json") || isGgufRevision(files) || isPeftRevision(files) || isDiffusersRevision(files)
  );
}

/**
 * A revision estimated from its GGUF files: it has .gguf files and no safetensors weights (a GGUF repo may
 * carry the original config.json beside its quants; the quants are what it serves).
 */
function isGgufRevision(files: Map<string, FileState>): boolean {
  const paths = [...files.keys()];
  return paths.some(isGgufPath) && !paths.some((p) => p.endsWith(".safetensors"));
}

/** One estimate per GGUF file, folded into a repo estimate; throws BadUpstreamDataError when none was read. */
function computeGgufEstimate(files: Map<string, FileState>): Estimate {
  const headers = ggufHeaders(files);
  if (headers.length === 0) throw new BadUpstreamDataError("bad_header", "no GGUF header could be read");
  return estimateGgufRepo(headers, ESTIMATOR_VERSION);
}

/**
 * The estimate for stored files (`peft`: a PEFT adapter's base, src/services/peft-base.ts); throws
 * BadUpstreamDataError for a missing, unparseable or rejected config.
 */
export function computeEstimate(files: Map<string, FileState>, peft: PeftBaseLoad | null = null): Estimate {
  if (isPeftRevision(files)) return computePeftEstimate(files, peft, ESTIMATOR_VERSION);
  if (isGgufRevision(files)) return computeGgufEstimate(files);
  if (isDiffusersRevision(files)) return computeDiffusersEstimate(files, ESTIMATOR_VERSION);
  const config = files.get("config.json");
  if (!config || config.content === null)
    throw new BadUpstreamDataError("bad_config", "config.json: missing");
  const problem = jsonProblem(config.content);
  if (problem) throw new BadUpstreamDataError("bad_config", `config.json: ${problem}`);
  const parsed: unknown = JSON.parse(config.content);
  const list = tensors(modelShards(files));
  try {
    const e = estimate(parsed, list.length > 0 ? { checkpoint: { tensors: list } } : {});
    return withSentenceTransformers(e, sentenceTransformersOf(files));
  } catch (err) {
    if (err instanceof EstimatorInputError)
      throw new BadUpstreamDataError("bad_config", `config.json: ${err.message}`);
    // The estimator is pure: whatever else it throws would throw again on retry.
    throw new BadUpstreamDataError(
      "estimator_error",
      `estimator: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

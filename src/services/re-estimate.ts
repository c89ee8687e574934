import { compareForDrift } from "../core/advise/compare.ts";
import type { Estimate as AdviseEstimate } from "../core/advise/types.ts";
import { ESTIMATOR_VERSION } from "../core/estimator/estimate.ts";
import {
  getEstimate,
  listEstimatesForRevision,
  upsertEstimate,
} from "../repositories/estimates.repository.ts";
import { recordDrift } from "../repositories/estimator-drift.repository.ts";
import { getRepoByName } from "../repositories/repos.repository.ts";
import type { Revision } from "../repositories/revisions.repository.ts";
import { listRevisionsByRepo } from "../repositories/revisions-read.repository.ts";
import { withTransaction } from "../repositories/transaction.ts";
import type { PipelineServices } from "./deps.ts";
import { computeEstimate } from "./estimate-revision.ts";
import { BadUpstreamDataError } from "./hub-errors.ts";
import { loadPeftBase } from "./peft-base.ts";
import { loadRevisionFiles } from "./revision-files.ts";

type ReEstimateOutcome = { revisions: number; drifted: number };

/**
 * After an estimator upgrade: estimates each processed revision of a repo that has no estimate from the
 * current version, from its stored files (no Hub request), and records how the result differs from the
 * previous version's as estimator drift. Advisories are never touched: the model did not change.
 */
export async function reEstimateRepo(s: PipelineServices, name: string): Promise<ReEstimateOutcome> {
  const repo = await getRepoByName(s.db, name);
  if (!repo) return { revisions: 0, drifted: 0 };
  const done = await listRevisionsByRepo(s.db, repo.id, { status: "done" });
  let count = 0;
  let drifted = 0;
  for (const revision of done) {
    if (await getEstimate(s.db, revision.id, ESTIMATOR_VERSION)) continue;
    count += 1;
    if (await reEstimateRevision(s, revision)) drifted += 1;
  }
  return { revisions: count, drifted };
}

async function reEstimateRevision(s: PipelineServices, revision: Revision): Promise<boolean> {
  const previous = (await listEstimatesForRevision(s.db, revision.id)).filter((e) => e.result).at(-1);
  const files = await loadRevisionFiles(s.db, revision.id);
  let result: ReturnType<typeof computeEstimate> | null = null;
  let error: string | null = null;
  try {
    result = computeEstimate(files, await loadPeftBase(s, revision, files, { wait: false }));
  } catch (err) {
    if (!(err instanceof BadUpstreamDataError)) throw err;
    error = err.message;
  }
  return withTransaction(s.db, async (tx) => {
    await upsertEstimate(tx, {
      revisionId: revision.id,
      estimatorVersion: ESTIMATOR_VERSION,
      paramsTotal: result?.params.total ?? null,
      result,
      error,
    });
    if (!previous || !result) return false;
    const drift = compareForDrift(previous.result as AdviseEstimate, result as AdviseEstimate);
    if (drift.changes.length === 0) return false;
    await recordDrift(tx, {
      revisionId: revision.id,
      fromVersion: previous.estimatorVersion,
      toVersion: ESTIMATOR_VERSION,
      differences: drift,
    });
    return true;
  });
}

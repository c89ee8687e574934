/**
 * The base model of an adapter revision, from the store: the repo adapter_config.json names
 * (`base_model_name_or_path`) when hubwatch watches it, at the base revision the adapter was trained
 * against: the newest base revision committed at or before the adapter's commit. Its stored estimate and
 * safetensors headers give the memory figures and the cross-check. The adapter -> base link is recorded.
 */
import { ESTIMATOR_VERSION, type Estimate } from "../core/estimator/estimate.ts";
import { upsertAdapterBase } from "../repositories/adapter-bases.repository.ts";
import { getEstimate } from "../repositories/estimates.repository.ts";
import { findRepoByNameCi } from "../repositories/repos.repository.ts";
import type { Revision } from "../repositories/revisions.repository.ts";
import { baseRevisionsAt } from "../repositories/revisions-read.repository.ts";
import { type FileState, modelShards, tensors } from "./change-builders.ts";
import type { PipelineServices } from "./deps.ts";
import { adapterConfigOf, isPeftRevision, type PeftBaseLoad } from "./peft-files.ts";
import { loadRevisionFiles } from "./revision-files.ts";

/** The base's revision is known but not processed yet: the adapter's revision waits for it (advance-repo). */
class BaseNotReadyError extends Error {
  override name = "BaseNotReadyError";
  readonly retryable = true;
}

/** True for the error that says an adapter revision waits for its base to be processed. */
export function isBaseNotReady(err: unknown): boolean {
  return err instanceof BaseNotReadyError;
}

/** How long an adapter revision waits for its base before going on without it, and how often it looks. */
export const BASE_WAIT = { maxMs: 10 * 60_000, delayMs: 5_000 };

type Options = {
  /** Wait (throw BaseNotReadyError) while the base revision is pending; false: use what is processed. */
  wait: boolean;
};

/**
 * The base of a PEFT revision (null for any other revision), linking the adapter repo to it. Throws
 * BadUpstreamDataError for an unreadable adapter_config.json, BaseNotReadyError while waiting.
 */
export async function loadPeftBase(
  s: PipelineServices,
  revision: Revision,
  files: Map<string, FileState>,
  opts: Options,
): Promise<PeftBaseLoad | null> {
  if (!isPeftRevision(files)) return null;
  const name = adapterConfigOf(files).base_model_name_or_path ?? null;
  if (!name) return { noBase: "adapter_config.json names no base_model_name_or_path" };
  await upsertAdapterBase(
    s.db,
    { adapterRepoId: revision.repoId, baseName: name, revisionId: revision.id },
    s.now(),
  );
  const repo = await findRepoByNameCi(s.db, name);
  if (!repo) return { noBase: `${name} is not watched (hubwatch watch add ${name})` };
  if (repo.status !== "ok") return { noBase: `${name} is ${repo.status}` };
  if (repo.lastPolledAt === null && opts.wait) throw new BaseNotReadyError(`${name} not polled yet`);
  for (const r of await baseRevisionsAt(s.db, repo.id, revision.committedAt)) {
    if (r.status === "pending" && opts.wait)
      throw new BaseNotReadyError(`${name}@${r.sha} not processed yet`);
    if (r.status !== "done") continue;
    const stored = await getEstimate(s.db, r.id, ESTIMATOR_VERSION);
    if (!stored?.result) continue; // an initial commit: no config yet
    const baseFiles = await loadRevisionFiles(s.db, r.id);
    const estimate = stored.result as Estimate;
    return { base: { repo: repo.name, sha: r.sha, estimate, tensors: tensors(modelShards(baseFiles)) } };
  }
  return {
    noBase: `${name} has no processed revision with an estimate committed before this adapter revision`,
  };
}

/**
 * Throws BaseNotReadyError while a PEFT revision's base revision is not processed: advance-repo asks
 * before the diff, so a revision waiting for its base costs a few reads a look. Other errors (an
 * unreadable adapter_config.json) are left to the estimate step, which records them.
 */
export async function checkPeftBaseReady(
  s: PipelineServices,
  revision: Revision,
  wait: boolean,
): Promise<void> {
  if (!wait) return;
  const files = await loadRevisionFiles(s.db, revision.id);
  if (!isPeftRevision(files)) return;
  try {
    await loadPeftBase(s, revision, files, { wait });
  } catch (err) {
    if (isBaseNotReady(err)) throw err;
  }
}

/**
 * `hubwatch estimate OWNER/NAME[@REV]`: the files an estimate needs, read from a Hub repo as hf-mem does:
 * the tree, config.json, the safetensors index and, by Range requests, every shard's header (never a weight
 * body). Hub failures become one-line messages that say what to do.
 */

import type { TensorHeader } from "../core/estimator/types.ts";
import {
  downloadText,
  HubAccessError,
  HubError,
  HubNotFoundError,
  type HubOptions,
  HubRateLimitedError,
  listTree,
  readWeightHeaders,
} from "../hub/index.ts";

/** OWNER/NAME with an optional @REV (a branch, tag or commit sha). */
const REPO_REF = /^([A-Za-z0-9][\w.-]*\/[\w.-]+)(?:@([\w./-]+))?$/;

export type RepoRef = { repo: string; revision: string };

/** The repo and revision of an `OWNER/NAME[@REV]` argument, or null when it is not one. */
export function parseRepoRef(arg: string): RepoRef | null {
  const m = REPO_REF.exec(arg);
  if (!m || m[1]!.includes("..")) return null;
  return { repo: m[1]!, revision: m[2] ?? "main" };
}

/** A Hub failure the user can act on: exit 2 with this line. */
export class HubInputError extends Error {}

/** config.json is small; anything above this is not a model config. */
const MAX_CONFIG_BYTES = 5_000_000;

function explain(err: unknown, ref: RepoRef): never {
  const at = `${ref.repo}@${ref.revision}`;
  if (err instanceof HubNotFoundError)
    throw new HubInputError(
      `${at}: ${err.what === "revision" ? "no such revision" : "no such repo"} on the Hub`,
    );
  if (err instanceof HubAccessError)
    throw new HubInputError(`${at}: needs a token with access (set HF_TOKEN)`);
  if (err instanceof HubRateLimitedError)
    throw new HubInputError(`${at}: the Hub is rate-limiting requests; try again later`);
  if (err instanceof HubError) throw new HubInputError(`${at}: ${err.message}`);
  throw err;
}

type HubFiles = { configText: string; tensors: TensorHeader[] };

/** Reads config.json and the weight headers of `ref`; throws HubInputError with a one-line reason. */
export async function readHubFiles(ref: RepoRef, hub: HubOptions): Promise<HubFiles> {
  try {
    const args = { ...hub, repo: ref.repo, sha: ref.revision };
    const tree = await listTree(args);
    const config = tree.find((f) => f.path === "config.json");
    if (!config) throw new HubInputError(`${ref.repo}@${ref.revision}: no config.json in this revision`);
    const configText = await downloadText({
      ...args,
      path: "config.json",
      maxBytes: MAX_CONFIG_BYTES,
      size: config.size,
    });
    if (configText === null) throw new HubInputError(`${ref.repo}@${ref.revision}: config.json is missing`);
    const hasWeights = tree.some((f) => f.path.endsWith(".safetensors"));
    const tensors = hasWeights ? (await readWeightHeaders({ ...args, tree })).tensors : [];
    return { configText, tensors: tensors.map((t) => ({ name: t.name, dtype: t.dtype, shape: t.shape })) };
  } catch (err) {
    if (err instanceof HubInputError) throw err;
    return explain(err, ref);
  }
}

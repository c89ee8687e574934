import type { TensorInfo } from "../core/diff/weights.ts";
import type { GgufHeader } from "../core/estimator/gguf/types.ts";
import type { HubClient } from "../hub/client.ts";
import type { NewCommits } from "../hub/list-new-commits.ts";
import type { OwnerHeads } from "../hub/list-owner-heads.ts";
import type { HubFile } from "../hub/list-tree.ts";

/**
 * The part of the Hub client (src/hub/) the pipeline uses. Kept narrow so tests and the demo can point
 * it at the replay hub through the real client, and so a change in the client touches one adapter.
 * Errors are the client's classified errors (src/hub/errors.ts; read by name in hub-errors.ts).
 */
export type { HubFile, NewCommits, OwnerHeads };

export type WeightHeader = { tensors: TensorInfo[]; metadata: Record<string, string> | null };

export type HubPort = {
  /**
   * Commits after `sinceSha` oldest first; with `sinceSha` null (a first watch), the newest
   * `backfillDepth` only (`truncated` then says older history was left out). `expectNew`: the head is
   * known to have moved, so one large page is asked for at once. `wholeHistory`: up to the client's
   * cap even with `sinceSha` null (after a force-push, to know which recorded revisions are gone).
   */
  listNewCommits(args: {
    repo: string;
    sinceSha: string | null;
    expectNew?: boolean;
    wholeHistory?: boolean;
  }): Promise<NewCommits>;
  /** Heads of an owner's visible repos from the owner listing, at most `maxPages` pages. */
  listOwnerHeads(args: { owner: string; maxPages: number }): Promise<OwnerHeads>;
  listTree(args: { repo: string; sha: string }): Promise<HubFile[]>;
  /** A file's text at a revision; null when it does not exist. */
  downloadText(args: { repo: string; sha: string; path: string; size?: number }): Promise<string | null>;
  /** One safetensors file's header, by range reads (never the body). */
  readWeightHeader(args: { repo: string; sha: string; path: string }): Promise<WeightHeader>;
  /** One GGUF file's header (metadata and tensor infos), by range reads (never the tensor data). */
  readGgufHeader(args: { repo: string; sha: string; path: string }): Promise<GgufHeader>;
};

/** Largest text file fetched whole (tokenizer.json of big-vocabulary models is 10-35 MB). */
export const MAX_TEXT_BYTES = 64 * 1024 * 1024;

/** Newest commits read on a first watch (older history is recorded as skipped). */
const DEFAULT_BACKFILL_DEPTH = 100;
/** Most commits read when a caught-up repo's head moved (a burst larger than this is truncated). */
const MAX_BURST = 1000;

export function hubPortFrom(client: HubClient, opts: { backfillDepth?: number } = {}): HubPort {
  const depth = opts.backfillDepth ?? DEFAULT_BACKFILL_DEPTH;
  return {
    listNewCommits: (a) =>
      client.listNewCommits({
        repo: a.repo,
        sinceSha: a.sinceSha,
        expectNew: a.expectNew,
        maxCommits: a.sinceSha === null && !a.wholeHistory ? depth : MAX_BURST,
      }),
    listOwnerHeads: (a) => client.listOwnerHeads(a),
    listTree: (a) => client.listTree(a),
    downloadText: (a) => client.downloadText({ ...a, maxBytes: MAX_TEXT_BYTES }),
    async readWeightHeader(a) {
      const h = await client.readSafetensorsHeader(a);
      return { tensors: h.tensors, metadata: h.metadata };
    },
    readGgufHeader: (a) => client.readGgufHeader(a),
  };
}

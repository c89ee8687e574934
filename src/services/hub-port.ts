import type { TensorInfo } from "../core/diff/weights.ts";

/**
 * The part of the Hub client the pipeline uses, in the pipeline's words. `src/main/boot.ts` builds it
 * over the Hub client in src/hub/ (helper H); tests and the demo point that client at the replay hub.
 * Errors are the Hub client's classified errors (see `src/queue/errors.ts` for how runners read them).
 */
export type HubCommit = { sha: string; title: string; author: string | null; date: Date | null };

export type NewCommits = {
  /** Commits after `sinceSha` (all of them when it is null), oldest first. */
  commits: HubCommit[];
  /** True when `sinceSha` is no longer in the branch's history. */
  forcePushed: boolean;
  headSha: string | null;
};

export type HubFile = { path: string; oid: string; size: number; lfsOid: string | null };

export type WeightHeader = { tensors: TensorInfo[]; metadata: Record<string, string> | null };

export type HubPort = {
  listNewCommits(args: { repo: string; sinceSha: string | null }): Promise<NewCommits>;
  listTree(args: { repo: string; revision: string }): Promise<HubFile[]>;
  /** A file's text at a revision; null when it does not exist. */
  downloadText(args: { repo: string; revision: string; path: string }): Promise<string | null>;
  /** A safetensors file's header by range reads (never the body). */
  readWeightHeader(args: {
    repo: string;
    revision: string;
    path: string;
    size: number;
  }): Promise<WeightHeader>;
};

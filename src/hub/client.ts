import { type DownloadTextArgs, downloadText } from "./download-text.ts";
import { createRequestCounter, type HubOptions } from "./fetch.ts";
import { type ReadGgufArgs, readGgufHeader } from "./gguf.ts";
import { type ListNewCommitsArgs, listNewCommits } from "./list-new-commits.ts";
import { type ListOwnerHeadsArgs, listOwnerHeads } from "./list-owner-heads.ts";
import { type HubFile, listTree } from "./list-tree.ts";
import { type ReadHeaderArgs, readSafetensorsHeader } from "./safetensors.ts";
import { readWeightHeaders } from "./weight-headers.ts";

type Without<T> = Omit<T, keyof HubOptions>;

/**
 * The Hub client functions with options bound once (hubUrl, token, fetch, timeouts) and one shared
 * request counter, read by the demo as "requests and bytes fetched".
 */
export function createHubClient(options: HubOptions = {}) {
  const opts: HubOptions = { ...options, counter: options.counter ?? createRequestCounter() };
  return {
    counter: opts.counter!,
    options: opts,
    listNewCommits: (a: Without<ListNewCommitsArgs>) => listNewCommits({ ...opts, ...a }),
    listOwnerHeads: (a: Without<ListOwnerHeadsArgs>) => listOwnerHeads({ ...opts, ...a }),
    listTree: (a: { repo: string; sha: string }) => listTree({ ...opts, ...a }),
    downloadText: (a: Without<DownloadTextArgs>) => downloadText({ ...opts, ...a }),
    readSafetensorsHeader: (a: Without<ReadHeaderArgs>) => readSafetensorsHeader({ ...opts, ...a }),
    readGgufHeader: (a: Without<ReadGgufArgs>) => readGgufHeader({ ...opts, ...a }),
    readWeightHeaders: (a: {
      repo: string;
      sha: string;
      tree: HubFile[];
      maxHeaderBytes?: number;
      concurrency?: number;
    }) => readWeightHeaders({ ...opts, ...a }),
  };
}

export type HubClient = ReturnType<typeof createHubClient>;

export { createHubClient, type HubClient } from "./client.ts";
export { type DownloadTextArgs, downloadText } from "./download-text.ts";
export {
  HubAccessError,
  HubBadDataError,
  HubError,
  HubNotFoundError,
  HubRateLimitedError,
  HubUnavailableError,
  parseRetryAfterMs,
  toHubError,
} from "./errors.ts";
export {
  createRequestCounter,
  DEFAULT_HUB_URL,
  type HubOptions,
  hubFetch,
  type RequestCounter,
} from "./fetch.ts";
export { type ReadGgufArgs, readGgufHeader, summarizeGguf } from "./gguf.ts";
export {
  type HubCommit,
  type ListNewCommitsArgs,
  listNewCommits,
  type NewCommits,
} from "./list-new-commits.ts";
export { type ListOwnerHeadsArgs, listOwnerHeads, type OwnerHeads } from "./list-owner-heads.ts";
export { type HubFile, listTree } from "./list-tree.ts";
export {
  type ReadHeaderArgs,
  readSafetensorsHeader,
  type SafetensorsHeader,
  type TensorInfo,
} from "./safetensors.ts";
export { INDEX_PATH, readWeightHeaders, type WeightHeaders } from "./weight-headers.ts";

export { createHubClient } from "./client.ts";
export { downloadText } from "./download-text.ts";
export {
  HubAccessError,
  HubBadDataError,
  HubError,
  HubNotFoundError,
  HubRateLimitedError,
  HubUnavailableError,
  parseRetryAfterMs,
} from "./errors.ts";
export {
  createRequestCounter,
  type HubOptions,
} from "./fetch.ts";
export { readGgufHeader, summarizeGguf } from "./gguf.ts";
export { listNewCommits } from "./list-new-commits.ts";

export { listTree } from "./list-tree.ts";
export { readSafetensorsHeader } from "./safetensors.ts";
export { readWeightHeaders } from "./weight-headers.ts";

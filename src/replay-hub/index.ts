export { encodeSafetensorsHeader, gitBlobSha1 } from "./files.ts";
export {
  fixtureRepos,
  GATED_TOKEN,
  MISSING_REPO_ID,
  makeSyntheticRepos,
  makeTokenizer,
} from "./fixtures/index.ts";
export { decoderTensors, gpt2Tensors, weightLayout } from "./safetensors-gen.ts";
export { type ReplayHub, type ReplayHubOptions, startReplayHub } from "./server.ts";
export type { ReplayHubStats } from "./stats.ts";
export type { CommitSpec, Fault, FaultRule, FileSpec, RepoSpec, RequestLogEntry, Route } from "./types.ts";

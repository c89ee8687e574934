export {
  fixtureRepos,
  GATED_TOKEN,
  MISSING_REPO_ID,
  makeSyntheticRepos,
  makeTokenizer,
} from "./fixtures/index.ts";

export { type ReplayHub, startReplayHub } from "./server.ts";

export type { CommitSpec, FileSpec, RepoSpec } from "./types.ts";

import {
  addRepo,
  listRepos,
  type Repo,
  removeRepo,
  setRepoStatus,
} from "../repositories/repos.repository.ts";
import type { PipelineServices } from "./deps.ts";
import { RepoName } from "./repo-name.ts";

type WatchStore = Pick<PipelineServices, "db">;

/** Thrown for a user's mistake (bad repo name): the CLI prints the message without a stack. */
export class UserInputError extends Error {
  override name = "UserInputError";
}

function parseName(name: string): string {
  const parsed = RepoName.safeParse(name);
  if (!parsed.success)
    throw new UserInputError(`"${name}" is not a Hub model repo id (${parsed.error.issues[0]?.message})`);
  return parsed.data;
}

/**
 * Starts watching a repo; true if it was not watched before. Adding a repo recorded as gated or not
 * found again clears that status, so the next poll tries it afresh (e.g. after a token was granted).
 */
export async function watchRepo(s: WatchStore, name: string): Promise<boolean> {
  const { repo, created } = await addRepo(s.db, parseName(name));
  if (!created && repo.status !== "ok") await setRepoStatus(s.db, repo.id, "ok", null);
  return created;
}

/** Stops watching a repo and forgets what was recorded for it; false if it was not watched. */
export async function unwatchRepo(s: WatchStore, name: string): Promise<boolean> {
  return removeRepo(s.db, parseName(name));
}

export function listWatchedRepos(s: WatchStore): Promise<Repo[]> {
  return listRepos(s.db);
}

import type { FailedJobEntry, FailedJobs } from "../ops/failed-jobs.ts";
import { requeueFailedRevisions } from "../repositories/revisions.repository.ts";
import { type FailedRevision, listFailedRevisions } from "../repositories/revisions-status.repository.ts";
import type { PipelineServices } from "./deps.ts";
import { RepoName } from "./repo-name.ts";
import { UserInputError } from "./watch-repos.ts";

/**
 * What failed and how to try again: failed revisions (from the store, with the recorded reason) and
 * jobs that failed for good (from the bounded history in distributed mode). Retrying puts revisions back
 * to pending and queues their repo's advance job; failed jobs are queued again as they were.
 */
export type Failures = { revisions: FailedRevision[]; jobs: FailedJobEntry[] };

export type RetryReport = { revisions: { repo: string; count: number }[]; jobs: number };

type Deps = Pick<PipelineServices, "db">;

function checkedRepo(repo: string | undefined): string | undefined {
  if (repo === undefined) return undefined;
  if (!RepoName.safeParse(repo).success) throw new UserInputError(`"${repo}" is not a repo id (OWNER/NAME)`);
  return repo;
}

/** Whether a failed job concerns `repo` (its payload names it); every job when `repo` is undefined. */
function concerns(entry: FailedJobEntry, repo: string | undefined): boolean {
  return repo === undefined || (entry.payload as { repo?: unknown } | null)?.repo === repo;
}

export async function listFailures(s: Deps, jobs?: FailedJobs, repo?: string): Promise<Failures> {
  const name = checkedRepo(repo);
  const revisions = await listFailedRevisions(s.db, name);
  const history = jobs ? (await jobs.list()).filter((e) => concerns(e, name)) : [];
  return { revisions, jobs: history };
}

/**
 * Requeues by name: failed jobs come back from the history with the name and payload they were stored
 * with, so this is the registry's enqueue seen untyped; the runner still zod-parses every payload.
 */
export type Requeue = (name: string, payload: unknown) => Promise<void>;

export async function retryFailures(
  s: Deps,
  enqueue: Requeue,
  jobs: FailedJobs | undefined,
  repo?: string,
): Promise<RetryReport> {
  const name = checkedRepo(repo);
  const revisions = await requeueFailedRevisions(s.db, name);
  for (const r of revisions) await enqueue("advance-repo", { repo: r.repo });
  const taken = jobs ? await jobs.take((e) => concerns(e, name)) : [];
  for (const e of taken) await enqueue(e.name, e.payload);
  return { revisions, jobs: taken.length };
}

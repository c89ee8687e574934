import { z } from "zod";
import { defineJob, jobIdFor } from "../src/queue/define-job.ts";
import type { JobContext } from "../src/queue/types.ts";
import { advanceRepo } from "../src/services/advance-repo.ts";
import type { PipelineServices } from "../src/services/deps.ts";
import { RepoName, Sha } from "../src/services/repo-name.ts";
import { enqueueNotify } from "./notify.job.ts";

/**
 * Processes the repo's oldest pending revision (snapshot, diff, estimate, advise), then queues itself
 * for the next one. `sha` only names the job (so the follow-up job is not deduplicated against the
 * running one); the handler always takes the oldest pending revision from the store.
 */
export const advanceRepoJob = defineJob({
  name: "advance-repo",
  queue: "hub",
  /** backfill: the repo is catching up on a first watch; its jobs yield to caught-up repos' new revisions. */
  payload: z.object({ repo: RepoName, sha: Sha.optional(), backfill: z.boolean().optional() }),
  opts: { attempts: 5, backoff: { delayMs: 10_000, jitter: 0.3 } },
  jobId: (p) => (p.sha ? jobIdFor("advance", p.repo, p.sha) : jobIdFor("advance", p.repo)),
  group: (p) => p.repo,
  async handler(payload, ctx: JobContext<PipelineServices>) {
    const result = await advanceRepo(ctx.services, payload.repo);
    if (result.nextPendingSha) {
      const next = { repo: payload.repo, sha: result.nextPendingSha, backfill: payload.backfill };
      await ctx.enqueue("advance-repo", next, payload.backfill ? { priority: "backfill" } : {});
    }
    await enqueueNotify(ctx, result.eventIds);
  },
});

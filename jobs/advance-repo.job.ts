import { z } from "zod";
import { defineJob, followUp, jobIdFor } from "../src/queue/define-job.ts";
import type { FollowUp, JobContext } from "../src/queue/types.ts";
import { advanceRepo } from "../src/services/advance-repo.ts";
import type { PipelineServices } from "../src/services/deps.ts";
import { RepoName, Sha } from "../src/services/repo-name.ts";
import { lanesFor } from "./deliver-webhook.job.ts";

/**
 * Processes the repo's oldest pending revision (snapshot, diff, estimate, advise), then follows up with
 * itself for the next one, and with the delivery lanes of the webhook deliveries it recorded.
 * `sha` only names the job (so the follow-up job is not deduplicated against the running one); the
 * handler always takes the oldest pending revision from the store.
 */
/** backfill: the repo is catching up on a first watch; its jobs yield to caught-up repos' new revisions. */
const AdvancePayload = z.object({ repo: RepoName, sha: Sha.optional(), backfill: z.boolean().optional() });
type AdvancePayload = z.infer<typeof AdvancePayload>;

export const advanceRepoJob = defineJob({
  name: "advance-repo",
  queue: "hub",
  payload: AdvancePayload,
  opts: { attempts: 5, backoff: { delayMs: 10_000, jitter: 0.3 } },
  jobId: (p) => (p.sha ? jobIdFor("advance", p.repo, p.sha) : jobIdFor("advance", p.repo)),
  group: (p) => p.repo,
  async handler(payload: AdvancePayload, ctx: JobContext<PipelineServices>): Promise<FollowUp[]> {
    const result = await advanceRepo(ctx.services, payload.repo);
    const next: FollowUp[] = result.nextPendingSha
      ? [advanceFollowUp(payload.repo, result.nextPendingSha, payload.backfill === true)]
      : [];
    return [...next, ...lanesFor(result.deliverTo)];
  },
});

/** The next advance of a repo; a first watch's backfill keeps yielding to caught-up repos. */
export function advanceFollowUp(repo: string, sha: string, backfill: boolean): FollowUp {
  return backfill
    ? followUp(advanceRepoJob, { repo, sha, backfill }, { priority: "backfill" })
    : followUp(advanceRepoJob, { repo, sha });
}

import { z } from "zod";
import { defineJob, followUp, jobIdFor } from "../src/queue/define-job.ts";
import type { FollowUp, JobContext } from "../src/queue/types.ts";
import { advanceRepo } from "../src/services/advance-repo.ts";
import type { PipelineServices } from "../src/services/deps.ts";
import { BASE_WAIT } from "../src/services/peft-base.ts";
import { RepoName, Sha } from "../src/services/repo-name.ts";
import { lanesFor } from "./deliver-webhook.job.ts";

/**
 * Processes the repo's oldest pending revision (snapshot, diff, estimate, advise), then follows up with
 * itself for the next one, and with the delivery lanes of the webhook deliveries it recorded.
 * `sha` only names the job (so the follow-up job is not deduplicated against the running one); the
 * handler always takes the oldest pending revision from the store.
 */
/** backfill: the repo is catching up on a first watch; its jobs yield to caught-up repos' new revisions. */
/** waitingSince: when (epoch ms) this revision began waiting for its PEFT base (src/services/peft-base.ts). */
const AdvancePayload = z.object({
  repo: RepoName,
  sha: Sha.optional(),
  backfill: z.boolean().optional(),
  waitingSince: z.number().int().nonnegative().optional().catch(undefined),
});
type AdvancePayload = z.infer<typeof AdvancePayload>;

export const advanceRepoJob = defineJob({
  name: "advance-repo",
  queue: "hub",
  payload: AdvancePayload,
  opts: { attempts: 5, backoff: { delayMs: 10_000, jitter: 0.3 } },
  jobId: (p) => (p.sha ? jobIdFor("advance", p.repo, p.sha) : jobIdFor("advance", p.repo)),
  group: (p) => p.repo,
  async handler(payload: AdvancePayload, ctx: JobContext<PipelineServices>): Promise<FollowUp[]> {
    const now = ctx.services.now().getTime();
    const since = payload.waitingSince ?? now;
    const waitForBase = now - since < BASE_WAIT.maxMs;
    const result = await advanceRepo(ctx.services, payload.repo, { waitForBase });
    if (result.status === "waiting" && result.sha) {
      const again = { ...payload, sha: result.sha, waitingSince: since };
      const priority = payload.backfill ? ("backfill" as const) : undefined;
      return [
        followUp(advanceRepoJob, again, { delayMs: BASE_WAIT.delayMs, ...(priority ? { priority } : {}) }),
      ];
    }
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

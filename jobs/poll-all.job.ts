import { z } from "zod";
import { defineJob, followUp, jobIdFor } from "../src/queue/define-job.ts";
import type { JobContext } from "../src/queue/types.ts";
import type { PipelineServices } from "../src/services/deps.ts";
import { planPoll } from "../src/services/plan-poll.ts";
import { reposWithStaleEstimates } from "../src/services/stale-estimates.ts";
import { pollRepoJob } from "./poll-repo.job.ts";
import { reEstimateJob } from "./re-estimate.job.ts";

/** The scheduler tick's fan-out: heads learned per owner (src/services/plan-poll.ts), then one poll-repo
 * job per repo whose head moved or that needs a per-repo check (deduplicated per repo), and a
 * re-estimate job per repo whose stored estimates predate the current estimator version. */
export const pollAllJob = defineJob({
  name: "poll-all",
  queue: "hub",
  payload: z.object({}).passthrough(),
  opts: { attempts: 3, backoff: { delayMs: 5_000, jitter: 0.2 } },
  schedule: (config) => config.HUBWATCH_POLL_CRON,
  jobId: () => jobIdFor("poll-all"),
  async handler(_payload, ctx: JobContext<PipelineServices>) {
    const plan = await planPoll(ctx.services);
    const polls = plan.items.map((item) => followUp(pollRepoJob, item));
    // After an estimator upgrade: stored revisions are re-estimated (drift recorded, advisories untouched).
    const stale = await reposWithStaleEstimates(ctx.services);
    return [...polls, ...stale.map((repo) => followUp(reEstimateJob, { repo }))];
  },
});

import { z } from "zod";
import { defineJob, jobIdFor } from "../src/queue/define-job.ts";
import type { JobContext } from "../src/queue/types.ts";
import type { PipelineServices } from "../src/services/deps.ts";
import { planPoll } from "../src/services/plan-poll.ts";
import { reposWithStaleEstimates } from "../src/services/stale-estimates.ts";

/** The scheduler tick's fan-out: heads learned per owner (src/services/plan-poll.ts), then one poll-repo
 * job per repo whose head moved or that needs a per-repo check (deduplicated per repo), and a
 * re-estimate job per repo whose stored estimates predate the current estimator version. */
export const pollAllJob = defineJob({
  name: "poll-all",
  queue: "hub",
  payload: z.object({}).passthrough(),
  opts: { attempts: 3, backoff: { delayMs: 5_000, jitter: 0.2 } },
  schedule: "*/15 * * * *",
  jobId: () => jobIdFor("poll-all"),
  async handler(_payload, ctx: JobContext<PipelineServices>) {
    const plan = await planPoll(ctx.services);
    for (const item of plan.items) await ctx.enqueue("poll-repo", item);
    // After an estimator upgrade: stored revisions are re-estimated (drift recorded, advisories untouched).
    for (const repo of await reposWithStaleEstimates(ctx.services))
      await ctx.enqueue("re-estimate", { repo });
  },
});

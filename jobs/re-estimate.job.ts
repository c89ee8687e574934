import { z } from "zod";
import { defineJob, jobIdFor } from "../src/queue/define-job.ts";
import type { JobContext } from "../src/queue/types.ts";
import type { PipelineServices } from "../src/services/deps.ts";
import { reEstimateRepo } from "../src/services/re-estimate.ts";
import { RepoName } from "../src/services/repo-name.ts";

/**
 * After an estimator upgrade: re-estimates a repo's stored revisions with the current version and
 * records differences as drift. Never opens, updates or closes advisories (those follow upstream only).
 */
export const reEstimateJob = defineJob({
  name: "re-estimate",
  queue: "maintenance",
  payload: z.object({ repo: RepoName }),
  opts: { attempts: 3, backoff: { delayMs: 30_000, jitter: 0.3 } },
  jobId: (p) => jobIdFor("re-estimate", p.repo),
  group: (p) => p.repo,
  async handler(payload, ctx: JobContext<PipelineServices>) {
    await reEstimateRepo(ctx.services, payload.repo);
  },
});

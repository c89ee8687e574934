import { z } from "zod";
import { defineJob, jobIdFor } from "../src/queue/define-job.ts";
import type { JobContext } from "../src/queue/types.ts";
import type { PipelineServices } from "../src/services/deps.ts";
import { pollRepo } from "../src/services/poll-repo.ts";
import { RepoName } from "../src/services/repo-name.ts";
import { advanceFollowUp } from "./advance-repo.job.ts";
import { lanesFor } from "./deliver-webhook.job.ts";

/** Asks the Hub for commits newer than the last seen sha, records them as pending, starts advancing. */
export const pollRepoJob = defineJob({
  name: "poll-repo",
  queue: "hub",
  /** knownHead: the head an owner listing or a Hub webhook reported (unchanged: no Hub request). */
  payload: z.object({
    repo: RepoName,
    knownHead: z
      .string()
      .regex(/^[0-9a-f]{40}$/)
      .optional(),
  }),
  opts: { attempts: 5, backoff: { delayMs: 10_000, jitter: 0.3 } },
  jobId: (p) => jobIdFor("poll", p.repo),
  group: (p) => p.repo,
  async handler(payload, ctx: JobContext<PipelineServices>) {
    const result = await pollRepo(ctx.services, payload.repo, { knownHead: payload.knownHead });
    const next = result.nextPendingSha
      ? [advanceFollowUp(payload.repo, result.nextPendingSha, result.firstWatch === true)]
      : [];
    // Deliveries of advisories withdrawn or reopened by a force-push.
    return [...next, ...lanesFor(result.deliverTo)];
  },
});

import { z } from "zod";
import { defineJob } from "../src/queue/define-job.ts";
import type { JobContext } from "../src/queue/types.ts";
import { deliverWebhookAttempt } from "../src/services/webhooks/deliver-attempt.ts";
import { DELIVER_JOB, deliverJobId } from "../src/services/webhooks/types.ts";
import { type WebhookJobServices, webhookDeps } from "./webhook-deps.ts";

/**
 * One HTTP attempt of one webhook delivery. The service logs the attempt and, on failure, queues the
 * next attempt itself with the webhook backoff (5 s ... 24 h), so each attempt is its own job; the
 * runner's own retries only cover a crash before the attempt is logged.
 */
export const deliverWebhookJob = defineJob({
  name: DELIVER_JOB,
  queue: "webhooks",
  payload: z.object({ subscriptionId: z.number().int().positive(), eventId: z.string().min(1).max(100) }),
  opts: { attempts: 3, backoff: { delayMs: 5_000, jitter: 0.2 } },
  jobId: (p) => deliverJobId(p.subscriptionId, p.eventId, 1),
  async handler(payload, ctx: JobContext<WebhookJobServices>) {
    await deliverWebhookAttempt(webhookDeps(ctx), payload);
  },
});

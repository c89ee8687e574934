import { z } from "zod";
import { defineJob, jobIdFor } from "../src/queue/define-job.ts";
import type { JobContext } from "../src/queue/types.ts";
import { fanOutEvent } from "../src/services/webhooks/emit-event.ts";
import { type WebhookJobServices, webhookDeps } from "./webhook-deps.ts";

/** Fans a recorded webhook event (webhook_events.id) out to matching subscriptions, one delivery job each. */
export const notifyJob = defineJob({
  name: "notify",
  queue: "webhooks",
  payload: z.object({ eventId: z.string().min(1).max(100) }),
  opts: { attempts: 5, backoff: { delayMs: 2_000, jitter: 0.2 } },
  jobId: (p) => jobIdFor("notify", p.eventId),
  async handler(payload, ctx: JobContext<WebhookJobServices>) {
    await fanOutEvent(webhookDeps(ctx), payload.eventId);
  },
});

/** Queues the fan-out of events a pipeline step recorded (a registry without webhooks keeps them stored). */
export async function enqueueNotify(ctx: JobContext<unknown>, eventIds: readonly string[]): Promise<void> {
  if (!ctx.hasJob("notify")) return;
  for (const eventId of eventIds) await ctx.enqueue("notify", { eventId });
}

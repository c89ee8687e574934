import { z } from "zod";
import { defineJob, followUp, jobIdFor } from "../src/queue/define-job.ts";
import type { FollowUp, JobContext } from "../src/queue/types.ts";
import { runDeliveryLane } from "../src/services/webhooks/lane.ts";
import { type WebhookJobServices, webhookDeps } from "./webhook-deps.ts";

/**
 * One subscription's delivery lane: sends its due deliveries one at a time (the store holds what is
 * due and when). One job id per subscription, so each receiver has at most one worker slot: a hanging
 * one never delays the others. The lane continues itself when a retry is due within seconds; later
 * retries, and lanes lost with Redis or a dead worker, are queued by relay-webhooks.
 */
const LanePayload = z.object({ subscriptionId: z.number().int().positive() });
type LanePayload = z.infer<typeof LanePayload>;

export const deliverWebhookJob = defineJob({
  name: "deliver-webhook",
  queue: "webhooks",
  payload: LanePayload,
  opts: { attempts: 3, backoff: { delayMs: 5_000, jitter: 0.2 } },
  jobId: (p) => jobIdFor("deliver", String(p.subscriptionId)),
  group: (p) => `subscription-${p.subscriptionId}`,
  async handler(payload: LanePayload, ctx: JobContext<WebhookJobServices>): Promise<FollowUp[]> {
    const run = await runDeliveryLane(webhookDeps(ctx.services), payload.subscriptionId);
    if (run.againInMs === null) return [];
    return [followUp(deliverWebhookJob, payload, { delayMs: run.againInMs })];
  },
});

/** The lanes to start for deliveries just recorded (after the transaction that wrote them committed). */
export function lanesFor(subscriptionIds: Iterable<number>): FollowUp[] {
  return [...new Set(subscriptionIds)].map((subscriptionId) =>
    followUp(deliverWebhookJob, { subscriptionId }),
  );
}

import { z } from "zod";
import { defineJob, jobIdFor } from "../src/queue/define-job.ts";
import type { JobContext } from "../src/queue/types.ts";
import { lanesDue } from "../src/services/webhooks/lane.ts";
import { lanesFor } from "./deliver-webhook.job.ts";
import type { WebhookJobServices } from "./webhook-deps.ts";

/**
 * The outbox relay: queues the lane of every subscription with a delivery due (new, a retry whose time
 * has come, or stranded by a Redis loss or a killed worker), read from webhook_deliveries. So nothing
 * depends on Redis surviving. Ticked every few seconds by the one scheduler; a duplicate tick is
 * harmless (one job id per lane, and each delivery is claimed in the store before it is sent).
 */
export const relayWebhooksJob = defineJob({
  name: "relay-webhooks",
  queue: "maintenance",
  payload: z.object({}).passthrough(),
  opts: { attempts: 1, backoff: { delayMs: 1_000, jitter: 0.2 } },
  schedule: (config) => config.HUBWATCH_RELAY_CRON,
  jobId: () => jobIdFor("relay-webhooks"),
  async handler(_payload, ctx: JobContext<WebhookJobServices>) {
    return lanesFor(await lanesDue(ctx.services));
  },
});

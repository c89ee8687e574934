import type { JobContext } from "../src/queue/types.ts";
import type { PipelineServices } from "../src/services/deps.ts";
import type { WebhookDeps } from "../src/services/webhooks/types.ts";

/** The services webhook jobs read; the two optional fields let tests shorten the schedule and allow loopback. */
export type WebhookJobServices = Pick<PipelineServices, "db" | "config" | "log"> & {
  webhookRetryDelaysMs?: readonly number[];
  webhookAllowPrivateTargets?: boolean;
};

/** What the webhook services need, from a job's context. */
export function webhookDeps(ctx: JobContext<WebhookJobServices>): WebhookDeps {
  const s = ctx.services;
  return {
    db: s.db,
    enqueue: ctx.enqueue,
    allowPrivateTargets: s.webhookAllowPrivateTargets ?? s.config.HUBWATCH_ALLOW_PRIVATE_WEBHOOKS,
    retryDelaysMs: s.webhookRetryDelaysMs,
    log: s.log,
  };
}

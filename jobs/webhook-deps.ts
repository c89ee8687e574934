import type { PipelineServices } from "../src/services/deps.ts";
import type { WebhookDeps } from "../src/services/webhooks/types.ts";

/** The services webhook jobs read; the optional fields let tests shorten the schedule and allow loopback. */
export type WebhookJobServices = Pick<PipelineServices, "db" | "config" | "log"> & {
  webhookRetryDelaysMs?: readonly number[];
  webhookAllowPrivateTargets?: boolean;
  webhookTimeoutMs?: number;
  webhookLeaseMarginMs?: number;
};

/** What the webhook services need, from a job's services bag. */
export function webhookDeps(s: WebhookJobServices): WebhookDeps {
  return {
    db: s.db,
    allowPrivateTargets: s.webhookAllowPrivateTargets ?? s.config.HUBWATCH_ALLOW_PRIVATE_WEBHOOKS,
    retryDelaysMs: s.webhookRetryDelaysMs,
    ...(s.webhookTimeoutMs ? { timeoutMs: s.webhookTimeoutMs } : {}),
    ...(s.webhookLeaseMarginMs ? { leaseMarginMs: s.webhookLeaseMarginMs } : {}),
    log: s.log,
  };
}

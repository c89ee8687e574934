import { advanceRepoJob } from "./advance-repo.job.ts";
import { deliverWebhookJob } from "./deliver-webhook.job.ts";
import { pollAllJob } from "./poll-all.job.ts";
import { pollRepoJob } from "./poll-repo.job.ts";
import { reEstimateJob } from "./re-estimate.job.ts";
import { relayWebhooksJob } from "./relay-webhooks.job.ts";

/**
 * Every job hubwatch runs, checked at boot by `checkRegistry` (src/queue/check-registry.ts): unique
 * names, a handler and a payload schema each, known queues. Both runners (BullMQ and in-process) take
 * this array and call the same handlers; handlers return their follow-up work, the runner queues it.
 *
 * Pipeline (queue "hub"): poll-all -> poll-repo -> advance-repo (follows up with itself per pending
 * revision, and with the delivery lanes of the webhook deliveries it recorded).
 * Webhooks: deliver-webhook (one lane per subscription, queue "webhooks"); relay-webhooks (the outbox
 * relay, queue "maintenance"). Maintenance: re-estimate (estimator upgrades; drift only, never advisories).
 * Scheduled (by `hubwatch scheduler` or `hubwatch run`): poll-all and relay-webhooks.
 */
export const jobs = [
  pollAllJob,
  pollRepoJob,
  advanceRepoJob,
  reEstimateJob,
  deliverWebhookJob,
  relayWebhooksJob,
] as const;

/** Any job of the registry: what `Enqueue<JobRegistry>` checks names and payloads against. */
export type JobRegistry = (typeof jobs)[number];

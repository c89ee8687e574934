import { advanceRepoJob } from "./advance-repo.job.ts";
import { deliverWebhookJob } from "./deliver-webhook.job.ts";
import { notifyJob } from "./notify.job.ts";
import { pollAllJob } from "./poll-all.job.ts";
import { pollRepoJob } from "./poll-repo.job.ts";
import { reEstimateJob } from "./re-estimate.job.ts";

/**
 * Every job hubwatch runs, checked at boot by `checkRegistry` (src/queue/check-registry.ts): unique
 * names, a handler and a payload schema each, known queues, schedules that node-cron accepts.
 * Both runners (BullMQ and in-process) take this array and call the same handlers.
 *
 * Pipeline (queue "hub"): poll-all -> poll-repo -> advance-repo (re-queues itself per pending revision).
 * Maintenance: re-estimate (estimator upgrades; drift only, never advisories).
 */
export const jobs = [
  pollAllJob,
  pollRepoJob,
  advanceRepoJob,
  reEstimateJob,
  // --- Webhook slot (helper W): add `notifyJob` and `deliverWebhookJob` here, on queue "webhooks". ---
  notifyJob,
  deliverWebhookJob,
  // advance-repo enqueues "notify" with { eventId } (webhook_events.id) for every event it records,
  // once a job of that name is registered; notify fans out one deliver-webhook job per subscription.
] as const;

import { z } from "zod";
import { webhookEventTypes } from "../../db/schema/index.ts";
import type { Db } from "../../db/types.ts";
import { assertPublicHost } from "../../lib/ssrf.ts";
import { getDelivery, reopenDelivery } from "../../repositories/webhook-deliveries.repository.ts";
import {
  deleteSubscription,
  listSubscriptions,
  createSubscription as storeSubscription,
  type WebhookSubscription,
} from "../../repositories/webhooks.repository.ts";
import { newWebhookSecret } from "./secret.ts";
import { DELIVER_JOB, deliverJobId, type WebhookDeps } from "./types.ts";

const REPO_FILTER = /^(\*|[A-Za-z0-9][A-Za-z0-9._-]*\/(\*|[A-Za-z0-9][A-Za-z0-9._-]*))$/;

export const SubscriptionInput = z.object({
  url: z.url({ protocol: /^https?$/ }),
  repoFilter: z.string().regex(REPO_FILTER).nullable().optional(),
  events: z
    .array(z.enum(webhookEventTypes))
    .min(1)
    .default([...webhookEventTypes]),
});
export type SubscriptionInput = z.input<typeof SubscriptionInput>;

/** Subscription as shown to its owner; the secret only at creation. */
export function publicSubscription(s: WebhookSubscription, withSecret = false) {
  const { secret, ...rest } = s;
  return withSecret ? { ...rest, secret } : rest;
}

/** Validates and stores a subscription with a fresh secret; refuses private targets unless allowed. */
export async function createSubscription(
  deps: { db: Db; allowPrivateTargets: boolean },
  input: SubscriptionInput,
): Promise<WebhookSubscription> {
  const parsed = SubscriptionInput.parse(input);
  if (!deps.allowPrivateTargets) await assertPublicHost(new URL(parsed.url).hostname);
  return storeSubscription(deps.db, {
    url: parsed.url,
    secret: newWebhookSecret(),
    repoFilter: parsed.repoFilter ?? null,
    events: parsed.events,
  });
}

export { deleteSubscription, listSubscriptions };

/** Manual redelivery of one event to one subscription: back to pending, attempt queued now. */
export async function redeliver(
  deps: WebhookDeps,
  subscriptionId: number,
  eventId: string,
): Promise<boolean> {
  const d = await getDelivery(deps.db, subscriptionId, eventId);
  if (!d) return false;
  await reopenDelivery(deps.db, subscriptionId, eventId);
  const ref = { subscriptionId, eventId };
  await deps.enqueue(DELIVER_JOB, ref, {
    jobId: `${deliverJobId(subscriptionId, eventId, d.attempts + 1)}__manual`,
  });
  return true;
}

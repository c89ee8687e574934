import { z } from "zod";
import { webhookEventTypes } from "../../db/schema/index.ts";
import type { Db } from "../../db/types.ts";
import { assertPublicHost, BlockedAddressError } from "../../lib/ssrf.ts";
import { reopenDelivery } from "../../repositories/webhook-deliveries.repository.ts";
import {
  getDelivery,
  listAttempts,
  listDeliveries,
} from "../../repositories/webhook-deliveries-read.repository.ts";
import {
  deleteSubscription,
  enableSubscription,
  getSubscription,
  listSubscriptions,
  createSubscription as storeSubscription,
  updateSubscription,
  type WebhookSubscription,
} from "../../repositories/webhook-subscriptions.repository.ts";
import { UserInputError } from "../watch-repos.ts";
import { newWebhookSecret } from "./secret.ts";

/** An exact repo name, or one with `*` wildcards ("*", "owner/*", "owner/Qwen3-*"). */
const REPO_FILTER = /^(\*|[A-Za-z0-9*][A-Za-z0-9._*-]*\/[A-Za-z0-9.*_-]+)$/;

/** A subscription as the write API and `hubwatch hook add` take it. */
export const SubscriptionInput = z.object({
  url: z.url({ protocol: /^https?$/ }),
  repoFilter: z.string().max(200).regex(REPO_FILTER).nullable().optional(),
  events: z
    .array(z.enum(webhookEventTypes))
    .min(1)
    .default([...webhookEventTypes]),
  /** Change kinds to receive events about (e.g. prompt, eos_token, params_total); omitted: all. */
  kinds: z
    .array(z.string().regex(/^[a-z][a-z0-9_.]{0,63}$/))
    .max(50)
    .nullable()
    .optional(),
});
type SubscriptionInput = z.input<typeof SubscriptionInput>;

/** How long the previous secret still signs after a rotation, so receivers can switch over. */
const ROTATION_OVERLAP_MS = 24 * 3_600_000;

/** Subscription as shown to its owner; secrets only at creation or rotation. */
export function publicSubscription(s: WebhookSubscription, withSecret = false) {
  const { secret, previousSecret, ...rest } = s;
  return withSecret ? { ...rest, secret } : rest;
}

/** Validates and stores a subscription with a fresh secret; refuses private targets unless allowed. */
export async function createSubscription(
  deps: { db: Db; allowPrivateTargets: boolean },
  input: SubscriptionInput,
): Promise<WebhookSubscription> {
  const parsed = SubscriptionInput.parse(input);
  if (!deps.allowPrivateTargets) await checkTarget(new URL(parsed.url).hostname);
  return storeSubscription(deps.db, {
    url: parsed.url,
    secret: newWebhookSecret(),
    repoFilter: parsed.repoFilter ?? null,
    events: parsed.events,
    kinds: parsed.kinds ?? null,
  });
}

/** A target that resolves to a private address, or to nothing, is the caller's mistake. */
async function checkTarget(host: string): Promise<void> {
  try {
    await assertPublicHost(host);
  } catch (err) {
    if (err instanceof BlockedAddressError) throw new UserInputError(err.message);
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOTFOUND" || code === "ENODATA") throw new UserInputError(`cannot resolve ${host}`);
    throw err;
  }
}

export { deleteSubscription, listAttempts, listDeliveries, listSubscriptions };

type Redelivery =
  | { ok: true }
  | { ok: false; reason: "not_found" }
  | { ok: false; reason: "disabled"; detail: string };

/**
 * Manual redelivery of one event to one subscription: the delivery goes back to pending, due now,
 * keeping its webhook-id; the caller queues the subscription's lane. A disabled subscription sends
 * nothing, so it is refused with the reason it was disabled.
 */
export async function redeliver(db: Db, subscriptionId: number, eventId: string): Promise<Redelivery> {
  const sub = await getSubscription(db, subscriptionId);
  const d = sub ? await getDelivery(db, subscriptionId, eventId) : null;
  if (!sub || !d) return { ok: false, reason: "not_found" };
  if (!sub.enabled)
    return { ok: false, reason: "disabled", detail: sub.disabledReason ?? "subscription disabled" };
  await reopenDelivery(db, subscriptionId, eventId);
  return { ok: true };
}

/** Re-enables a subscription; its deliveries still pending are sent again (the relay finds them). */
export function enableHook(db: Db, id: number): Promise<WebhookSubscription | null> {
  return enableSubscription(db, id);
}

/**
 * A new signing secret; the old one keeps signing beside it (two `webhook-signature` entries) for
 * `overlapMs`, so a receiver can switch secrets without rejecting a delivery.
 */
export async function rotateSecret(
  db: Db,
  id: number,
  now: Date = new Date(),
  overlapMs = ROTATION_OVERLAP_MS,
): Promise<WebhookSubscription | null> {
  const sub = await getSubscription(db, id);
  if (!sub) return null;
  return updateSubscription(db, id, {
    secret: newWebhookSecret(),
    previousSecret: sub.secret,
    previousSecretExpiresAt: new Date(now.getTime() + overlapMs),
  });
}

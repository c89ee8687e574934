import { recordAttempt } from "../../repositories/webhook-deliveries.repository.ts";
import { getEvent } from "../../repositories/webhook-events.repository.ts";
import {
  disableSubscription,
  type WebhookSubscription,
} from "../../repositories/webhook-subscriptions.repository.ts";
import { maxAttempts, nextRetryDelay } from "./backoff.ts";
import { signedHeaders, signingSecrets } from "./secret.ts";
import { sendWebhook } from "./send.ts";
import type { WebhookDeps } from "./types.ts";

export type AttemptOutcome = "delivered" | "retry" | "dead" | "disabled" | "skipped";

/**
 * Makes attempt number `attempt` of one claimed delivery, logs it, and sets the delivery's next state:
 * 2xx = delivered; 410 disables the subscription; a refused (SSRF) target is dead at once; anything
 * else is retried at the time the backoff (or a longer Retry-After) sets, stored on the delivery row.
 */
export async function deliverAttempt(
  deps: WebhookDeps,
  sub: WebhookSubscription,
  eventId: string,
  attempt: number,
): Promise<AttemptOutcome> {
  const event = await getEvent(deps.db, eventId);
  if (!event) return "skipped";
  const body = JSON.stringify(envelope(event));
  const res = await sendWebhook({
    url: sub.url,
    body,
    headers: signedHeaders(signingSecrets(sub, new Date()), event.id, body, new Date()),
    allowPrivateTargets: deps.allowPrivateTargets,
    timeoutMs: deps.timeoutMs ?? 10_000,
    maxResponseBytes: 4096,
  });
  const ok = res.status !== null && res.status >= 200 && res.status < 300;
  const delays = deps.retryDelaysMs;
  const backoff = ok || res.blocked || res.status === 410 ? null : nextRetryDelay(attempt, delays);
  // A throttling receiver's Retry-After lengthens (never shortens) the wait, up to a day.
  const delay = backoff === null ? null : Math.max(backoff, Math.min(res.retryAfterS ?? 0, 86_400) * 1000);
  const status = ok ? "delivered" : delay === null ? "dead" : "failed";
  const logged = await recordAttempt(deps.db, {
    subscriptionId: sub.id,
    eventId,
    attempt,
    responseStatus: res.status,
    responseBody: res.responseBody,
    error: res.blocked ? `ssrf: ${res.error}` : res.error,
    durationMs: res.durationMs,
    status,
    nextAttemptAt: delay === null ? null : new Date(Date.now() + delay),
  });
  if (!logged) return "skipped"; // subscription deleted meanwhile, or another run recorded this attempt
  if (res.blocked)
    deps.log?.warn({ url: sub.url, error: res.error, subscriptionId: sub.id }, "webhook target refused");
  if (res.status === 410) {
    await disableSubscription(deps.db, sub.id, `receiver answered 410 Gone at ${new Date().toISOString()}`);
    return "disabled";
  }
  if (ok) return "delivered";
  if (delay !== null) return "retry";
  deps.log?.warn(
    { subscriptionId: sub.id, eventId, attempts: attempt, max: maxAttempts(delays) },
    "webhook delivery dead",
  );
  return "dead";
}

/** Standard Webhooks' recommended body `{type, timestamp, data}`, from `{type, data}` payloads or bare data. */
function envelope(event: { type: string; payload: Record<string, unknown>; createdAt: Date }) {
  const p = event.payload;
  const timestamp = typeof p.timestamp === "string" ? p.timestamp : event.createdAt.toISOString();
  if (p.type === event.type && "data" in p) return { type: event.type, timestamp, data: p.data };
  return { type: event.type, timestamp, data: p };
}

import { getDelivery, recordAttempt } from "../../repositories/webhook-deliveries.repository.ts";
import { disableSubscription, getEvent, getSubscription } from "../../repositories/webhooks.repository.ts";
import { maxAttempts, nextRetryDelay } from "./backoff.ts";
import { signedHeaders } from "./secret.ts";
import { sendWebhook } from "./send.ts";
import { DELIVER_JOB, deliverJobId, type WebhookDeps } from "./types.ts";

export type AttemptOutcome = "delivered" | "retry" | "dead" | "disabled" | "skipped";

/**
 * Makes one delivery attempt, logs it, and either finishes the delivery or queues the next attempt
 * with backoff. 2xx = delivered; 410 disables the subscription; a refused (SSRF) target is dead at once.
 */
export async function deliverWebhookAttempt(
  deps: WebhookDeps,
  ref: { subscriptionId: number; eventId: string },
): Promise<AttemptOutcome> {
  const [delivery, sub, event] = await Promise.all([
    getDelivery(deps.db, ref.subscriptionId, ref.eventId),
    getSubscription(deps.db, ref.subscriptionId),
    getEvent(deps.db, ref.eventId),
  ]);
  if (!delivery || !sub || !event || delivery.status === "delivered" || delivery.status === "dead")
    return "skipped";
  if (!sub.enabled) return "skipped";
  const attempt = delivery.attempts + 1;
  const body = JSON.stringify(envelope(event));
  const res = await sendWebhook({
    url: sub.url,
    body,
    headers: signedHeaders(sub.secret, event.id, body, new Date()),
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
    ...ref,
    attempt,
    responseStatus: res.status,
    responseBody: res.responseBody,
    error: res.blocked ? `ssrf: ${res.error}` : res.error,
    durationMs: res.durationMs,
    status,
    nextAttemptAt: delay === null ? null : new Date(Date.now() + delay),
  });
  if (!logged) return "skipped"; // another run claimed this attempt number
  if (res.blocked)
    deps.log?.warn({ url: sub.url, error: res.error, subscriptionId: sub.id }, "webhook target refused");
  if (res.status === 410) {
    await disableSubscription(deps.db, sub.id, `receiver answered 410 Gone at ${new Date().toISOString()}`);
    return "disabled";
  }
  if (ok) return "delivered";
  if (delay === null) {
    deps.log?.warn(
      { subscriptionId: sub.id, eventId: event.id, attempts: attempt, max: maxAttempts(delays) },
      "webhook delivery dead",
    );
    return "dead";
  }
  await deps.enqueue(DELIVER_JOB, ref, {
    jobId: deliverJobId(sub.id, event.id, attempt + 1),
    delayMs: delay,
  });
  return "retry";
}

/** Standard Webhooks' recommended body `{type, timestamp, data}`, from `{type, data}` payloads or bare data. */
function envelope(event: { type: string; payload: Record<string, unknown>; createdAt: Date }) {
  const p = event.payload;
  const timestamp = typeof p.timestamp === "string" ? p.timestamp : event.createdAt.toISOString();
  if (p.type === event.type && "data" in p) return { type: event.type, timestamp, data: p.data };
  return { type: event.type, timestamp, data: p };
}

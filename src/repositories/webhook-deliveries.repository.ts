import { and, asc, desc, eq, exists, inArray, lte, sql } from "drizzle-orm";
import { webhookAttempts, webhookDeliveries, webhookSubscriptions } from "../db/schema/index.ts";
import type { Executor } from "../db/types.ts";

export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;
export type WebhookAttempt = typeof webhookAttempts.$inferSelect;

/** Response bodies are kept for debugging only; this many characters at most. */
export const RESPONSE_BODY_LIMIT = 4096;

/** Creates a pending delivery of `eventId` per subscription; existing ones are untouched. Returns new ones. */
export function enqueueDeliveries(
  ex: Executor,
  eventId: string,
  subscriptionIds: number[],
  at: Date = new Date(),
): Promise<WebhookDelivery[]> {
  if (subscriptionIds.length === 0) return Promise.resolve([]);
  return ex
    .insert(webhookDeliveries)
    .values(subscriptionIds.map((subscriptionId) => ({ subscriptionId, eventId, nextAttemptAt: at })))
    .onConflictDoNothing({ target: [webhookDeliveries.subscriptionId, webhookDeliveries.eventId] })
    .returning();
}

/**
 * Claims up to `limit` due deliveries (pending or failed, nextAttemptAt <= now, subscription enabled):
 * bumps `attempts` (the returned value is this attempt's number) and leases them until now + leaseMs,
 * after which an unfinished claim is due again. Concurrent claimers never get the same row.
 */
export function claimDueDeliveries(
  ex: Executor,
  opts: { limit?: number; leaseMs?: number; now?: Date } = {},
): Promise<WebhookDelivery[]> {
  const d = webhookDeliveries;
  const now = opts.now ?? new Date();
  const enabled = ex
    .select({ one: sql`1` })
    .from(webhookSubscriptions)
    .where(and(eq(webhookSubscriptions.id, d.subscriptionId), eq(webhookSubscriptions.enabled, true)));
  const due = ex
    .select({ s: d.subscriptionId, e: d.eventId })
    .from(d)
    .where(and(inArray(d.status, ["pending", "failed"]), lte(d.nextAttemptAt, now), exists(enabled)))
    .orderBy(asc(d.nextAttemptAt))
    .limit(opts.limit ?? 10)
    .for("update", { skipLocked: true });
  return ex
    .update(d)
    .set({
      attempts: sql`${d.attempts} + 1`,
      lastAttemptAt: now,
      nextAttemptAt: new Date(now.getTime() + (opts.leaseMs ?? 60_000)),
    })
    .where(sql`(${d.subscriptionId}, ${d.eventId}) in (${due})`)
    .returning();
}

function setDelivery(
  ex: Executor,
  subscriptionId: number,
  eventId: string,
  patch: Partial<Omit<WebhookDelivery, "subscriptionId" | "eventId">>,
): Promise<WebhookDelivery | null> {
  return ex
    .update(webhookDeliveries)
    .set(patch)
    .where(and(eq(webhookDeliveries.subscriptionId, subscriptionId), eq(webhookDeliveries.eventId, eventId)))
    .returning()
    .then((rows) => rows[0] ?? null);
}

export function markDelivered(
  ex: Executor,
  subscriptionId: number,
  eventId: string,
  at: Date = new Date(),
): Promise<WebhookDelivery | null> {
  return setDelivery(ex, subscriptionId, eventId, { status: "delivered", deliveredAt: at });
}

/** A failed attempt that will be retried at `nextAttemptAt`. */
export function markDeliveryFailed(
  ex: Executor,
  subscriptionId: number,
  eventId: string,
  nextAttemptAt: Date,
): Promise<WebhookDelivery | null> {
  return setDelivery(ex, subscriptionId, eventId, { status: "failed", nextAttemptAt });
}

/** Gives up on a delivery (retries exhausted or target refused for good). */
export function markDeliveryDead(
  ex: Executor,
  subscriptionId: number,
  eventId: string,
): Promise<WebhookDelivery | null> {
  return setDelivery(ex, subscriptionId, eventId, { status: "dead" });
}

/** Makes a delivery due again now, whatever its state (manual redelivery). */
export function requeueDelivery(
  ex: Executor,
  subscriptionId: number,
  eventId: string,
  at: Date = new Date(),
): Promise<WebhookDelivery | null> {
  return setDelivery(ex, subscriptionId, eventId, {
    status: "pending",
    nextAttemptAt: at,
    deliveredAt: null,
  });
}

export async function getDelivery(
  ex: Executor,
  subscriptionId: number,
  eventId: string,
): Promise<WebhookDelivery | null> {
  const [row] = await ex
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.subscriptionId, subscriptionId), eq(webhookDeliveries.eventId, eventId)));
  return row ?? null;
}

export function listDeliveries(
  ex: Executor,
  filter: { subscriptionId?: number; eventId?: string; limit?: number } = {},
): Promise<WebhookDelivery[]> {
  const d = webhookDeliveries;
  return ex
    .select()
    .from(d)
    .where(
      and(
        filter.subscriptionId === undefined ? undefined : eq(d.subscriptionId, filter.subscriptionId),
        filter.eventId === undefined ? undefined : eq(d.eventId, filter.eventId),
      ),
    )
    .orderBy(desc(d.nextAttemptAt))
    .limit(filter.limit ?? 100);
}

export type NewAttempt = Omit<
  WebhookAttempt,
  "id" | "requestedAt" | "responseStatus" | "responseBody" | "error" | "durationMs"
> & {
  requestedAt?: Date;
  responseStatus?: number | null;
  responseBody?: string | null;
  error?: string | null;
  durationMs?: number | null;
};

/** Logs one HTTP attempt (body truncated); recording the same attempt number twice is a no-op. */
export async function recordAttempt(ex: Executor, a: NewAttempt): Promise<WebhookAttempt | null> {
  const [row] = await ex
    .insert(webhookAttempts)
    .values({
      ...a,
      requestedAt: a.requestedAt ?? new Date(),
      responseBody: a.responseBody?.slice(0, RESPONSE_BODY_LIMIT) ?? null,
    })
    .onConflictDoNothing({
      target: [webhookAttempts.subscriptionId, webhookAttempts.eventId, webhookAttempts.attempt],
    })
    .returning();
  return row ?? null;
}

export function listAttempts(
  ex: Executor,
  subscriptionId: number,
  eventId?: string,
): Promise<WebhookAttempt[]> {
  const t = webhookAttempts;
  return ex
    .select()
    .from(t)
    .where(
      and(eq(t.subscriptionId, subscriptionId), eventId === undefined ? undefined : eq(t.eventId, eventId)),
    )
    .orderBy(asc(t.requestedAt), asc(t.attempt));
}

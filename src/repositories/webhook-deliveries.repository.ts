import { and, asc, desc, eq, sql } from "drizzle-orm";
import { type DeliveryStatus, webhookAttempts, webhookDeliveries } from "../db/schema/index.ts";
import type { Executor } from "../db/types.ts";

// Deliveries and their per-attempt log: one BullMQ job per attempt records one attempt row.

export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;
export type WebhookAttempt = typeof webhookAttempts.$inferSelect;

/** Response bodies are kept for debugging only; this many characters at most. */
export const RESPONSE_BODY_LIMIT = 4096;

/** Creates the delivery row; false when it already existed (re-emitted event). */
export async function insertDelivery(
  ex: Executor,
  subscriptionId: number,
  eventId: string,
): Promise<boolean> {
  const rows = await ex
    .insert(webhookDeliveries)
    .values({ subscriptionId, eventId })
    .onConflictDoNothing()
    .returning({ s: webhookDeliveries.subscriptionId });
  return rows.length > 0;
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

export type AttemptResult = {
  subscriptionId: number;
  eventId: string;
  attempt: number;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
  durationMs: number;
  status: DeliveryStatus;
  nextAttemptAt: Date | null;
};

/**
 * Records one attempt (body truncated) and the delivery's new state in one transaction. The attempt
 * number is claimed with the unique (sub, event, attempt) key, so a duplicate job run records nothing twice.
 */
export async function recordAttempt(ex: Executor, a: AttemptResult): Promise<boolean> {
  return ex.transaction(async (tx) => {
    const inserted = await tx
      .insert(webhookAttempts)
      .values({
        subscriptionId: a.subscriptionId,
        eventId: a.eventId,
        attempt: a.attempt,
        responseStatus: a.responseStatus,
        responseBody: a.responseBody?.slice(0, RESPONSE_BODY_LIMIT) ?? null,
        error: a.error,
        durationMs: a.durationMs,
      })
      .onConflictDoNothing()
      .returning({ id: webhookAttempts.id });
    if (inserted.length === 0) return false;
    const now = new Date();
    await tx
      .update(webhookDeliveries)
      .set({
        status: a.status,
        attempts: a.attempt,
        lastAttemptAt: now,
        nextAttemptAt: a.nextAttemptAt ?? now,
        deliveredAt: a.status === "delivered" ? now : null,
      })
      .where(
        and(eq(webhookDeliveries.subscriptionId, a.subscriptionId), eq(webhookDeliveries.eventId, a.eventId)),
      );
    return true;
  });
}

/** Puts a delivery back to pending for a manual redelivery; attempts keep counting up. */
export async function reopenDelivery(ex: Executor, subscriptionId: number, eventId: string) {
  await ex
    .update(webhookDeliveries)
    .set({ status: "pending", nextAttemptAt: sql`now()` })
    .where(and(eq(webhookDeliveries.subscriptionId, subscriptionId), eq(webhookDeliveries.eventId, eventId)));
}

/** A delivery's attempts (or a subscription's, without eventId), in the order they were recorded. */
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
    .orderBy(asc(t.id));
}

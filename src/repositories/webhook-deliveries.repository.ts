import { and, eq, sql } from "drizzle-orm";
import { type DeliveryStatus, webhookAttempts, webhookDeliveries } from "../db/schema/index.ts";
import type { Executor } from "../db/types.ts";
import { queryRows } from "./raw.ts";

// Writes to deliveries (the outbox: state and retry schedule) and their per-attempt log; reads are in
// webhook-deliveries-read.repository.ts.

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

type AttemptResult = {
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
 * Takes the subscription's next due delivery for one attempt: its `next_attempt_at` moves to `leaseUntil`,
 * so no other lane takes it meanwhile and, if this worker dies mid-attempt, it is due again then.
 * `for update skip locked` lets two lanes of one subscription (after a Redis loss) never take the same row.
 */
export async function claimNextDue(
  ex: Executor,
  subscriptionId: number,
  now: Date,
  leaseUntil: Date,
): Promise<{ eventId: string; attempts: number } | null> {
  const rows = await queryRows<{ event_id: string; attempts: number }>(
    ex,
    sql`update webhook_deliveries d set next_attempt_at = ${leaseUntil.toISOString()}
        where d.subscription_id = ${subscriptionId} and d.event_id = (
          select event_id from webhook_deliveries
          where subscription_id = ${subscriptionId} and status in ('pending', 'failed')
            and next_attempt_at <= ${now.toISOString()}
          order by next_attempt_at, event_id limit 1 for update skip locked)
        returning d.event_id, d.attempts`,
  );
  const row = rows[0];
  return row ? { eventId: row.event_id, attempts: Number(row.attempts) } : null;
}

/**
 * Records one attempt (body truncated) and the delivery's new state in one transaction. The delivery
 * row is updated first, only if it still expects this attempt number: a deleted subscription (rows
 * gone) or a duplicate run records nothing, and false is returned.
 */
export async function recordAttempt(ex: Executor, a: AttemptResult): Promise<boolean> {
  return ex.transaction(async (tx) => {
    const now = new Date();
    const updated = await tx
      .update(webhookDeliveries)
      .set({
        status: a.status,
        attempts: a.attempt,
        lastAttemptAt: now,
        nextAttemptAt: a.nextAttemptAt ?? now,
        deliveredAt: a.status === "delivered" ? now : null,
      })
      .where(
        and(
          eq(webhookDeliveries.subscriptionId, a.subscriptionId),
          eq(webhookDeliveries.eventId, a.eventId),
          eq(webhookDeliveries.attempts, a.attempt - 1),
        ),
      )
      .returning({ s: webhookDeliveries.subscriptionId });
    if (updated.length === 0) return false;
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
    return inserted.length > 0;
  });
}

/** Puts a delivery back to pending for a manual redelivery; attempts keep counting up. */
export async function reopenDelivery(ex: Executor, subscriptionId: number, eventId: string) {
  await ex
    .update(webhookDeliveries)
    .set({ status: "pending", nextAttemptAt: sql`now()` })
    .where(and(eq(webhookDeliveries.subscriptionId, subscriptionId), eq(webhookDeliveries.eventId, eventId)));
}

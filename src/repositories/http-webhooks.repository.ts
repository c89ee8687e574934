import { and, asc, desc, eq, sql } from "drizzle-orm";
import {
  type WebhookEventType,
  webhookAttempts,
  webhookDeliveries,
  webhookEvents,
  webhookSubscriptions,
} from "../db/schema/index.ts";
import type { Executor } from "../db/types.ts";

// Webhook subscriptions, events, deliveries and the per-attempt log.

export type Subscription = typeof webhookSubscriptions.$inferSelect;
export type DeliveryStatus = "pending" | "delivered" | "failed" | "dead";

export async function insertSubscription(
  db: Executor,
  s: { url: string; secret: string; repoFilter: string | null; events: WebhookEventType[] },
): Promise<Subscription> {
  const rows = await db.insert(webhookSubscriptions).values(s).returning();
  return rows[0]!;
}

export async function listSubscriptions(db: Executor): Promise<Subscription[]> {
  return db.select().from(webhookSubscriptions).orderBy(asc(webhookSubscriptions.id));
}

export async function getSubscription(db: Executor, id: number): Promise<Subscription | null> {
  const rows = await db.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.id, id)).limit(1);
  return rows[0] ?? null;
}

export async function deleteSubscription(db: Executor, id: number): Promise<boolean> {
  const rows = await db.delete(webhookSubscriptions).where(eq(webhookSubscriptions.id, id)).returning();
  return rows.length > 0;
}

export async function setSubscriptionEnabled(
  db: Executor,
  id: number,
  enabled: boolean,
  reason: string | null,
) {
  await db
    .update(webhookSubscriptions)
    .set({ enabled, disabledReason: enabled ? null : reason })
    .where(eq(webhookSubscriptions.id, id));
}

/** Inserts the event unless its deterministic id exists; true when it was new. */
export async function insertEvent(
  db: Executor,
  e: { id: string; type: WebhookEventType; repoId: number | null; payload: Record<string, unknown> },
): Promise<boolean> {
  const rows = await db
    .insert(webhookEvents)
    .values(e)
    .onConflictDoNothing()
    .returning({ id: webhookEvents.id });
  return rows.length > 0;
}

export async function getEvent(db: Executor, id: string) {
  const rows = await db.select().from(webhookEvents).where(eq(webhookEvents.id, id)).limit(1);
  return rows[0] ?? null;
}

/** Creates the delivery row; false when it already existed (re-emitted event). */
export async function insertDelivery(
  db: Executor,
  subscriptionId: number,
  eventId: string,
): Promise<boolean> {
  const rows = await db
    .insert(webhookDeliveries)
    .values({ subscriptionId, eventId })
    .onConflictDoNothing()
    .returning({ s: webhookDeliveries.subscriptionId });
  return rows.length > 0;
}

export async function getDelivery(db: Executor, subscriptionId: number, eventId: string) {
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.subscriptionId, subscriptionId), eq(webhookDeliveries.eventId, eventId)))
    .limit(1);
  return rows[0] ?? null;
}

export async function listDeliveries(db: Executor, subscriptionId: number, limit = 100) {
  return db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.subscriptionId, subscriptionId))
    .orderBy(desc(webhookDeliveries.nextAttemptAt))
    .limit(limit);
}

/**
 * Records one attempt and the delivery's new state in one statement pair. The attempt number is
 * claimed with the unique (sub, event, attempt) key, so a duplicate job run records nothing twice.
 */
export async function recordAttempt(
  db: Executor,
  a: {
    subscriptionId: number;
    eventId: string;
    attempt: number;
    responseStatus: number | null;
    responseBody: string | null;
    error: string | null;
    durationMs: number;
    status: DeliveryStatus;
    nextAttemptAt: Date | null;
  },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const inserted = await tx
      .insert(webhookAttempts)
      .values({
        subscriptionId: a.subscriptionId,
        eventId: a.eventId,
        attempt: a.attempt,
        responseStatus: a.responseStatus,
        responseBody: a.responseBody?.slice(0, 4096) ?? null,
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
export async function reopenDelivery(db: Executor, subscriptionId: number, eventId: string) {
  await db
    .update(webhookDeliveries)
    .set({ status: "pending", nextAttemptAt: sql`now()` })
    .where(and(eq(webhookDeliveries.subscriptionId, subscriptionId), eq(webhookDeliveries.eventId, eventId)));
}

export async function listAttempts(db: Executor, subscriptionId: number, eventId?: string) {
  const where = eventId
    ? and(eq(webhookAttempts.subscriptionId, subscriptionId), eq(webhookAttempts.eventId, eventId))
    : eq(webhookAttempts.subscriptionId, subscriptionId);
  return db.select().from(webhookAttempts).where(where).orderBy(asc(webhookAttempts.id));
}

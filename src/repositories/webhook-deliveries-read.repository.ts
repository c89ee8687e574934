import { and, asc, desc, eq, inArray, lte, min, sql } from "drizzle-orm";
import { webhookAttempts, webhookDeliveries, webhookSubscriptions } from "../db/schema/index.ts";
import type { Executor } from "../db/types.ts";
import { asDate, queryRows, tally } from "./raw.ts";

// Reads of deliveries and their attempts: lookups, what is due, and the outbox figures for /metrics.

const OPEN = ["pending", "failed"] as const;

type WebhookDelivery = typeof webhookDeliveries.$inferSelect;
type WebhookAttempt = typeof webhookAttempts.$inferSelect;

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

/** When the subscription's next open delivery is due (null: none open). */
export async function nextDueAt(ex: Executor, subscriptionId: number): Promise<Date | null> {
  const d = webhookDeliveries;
  const [row] = await ex
    .select({ at: min(d.nextAttemptAt) })
    .from(d)
    .where(and(eq(d.subscriptionId, subscriptionId), inArray(d.status, OPEN)));
  return row?.at ? new Date(row.at) : null;
}

/** Enabled subscriptions with a delivery due at `now` (webhook_deliveries_due_idx): the relay's read. */
export async function subscriptionsWithDueDeliveries(
  ex: Executor,
  now: Date,
  limit = 1000,
): Promise<number[]> {
  const d = webhookDeliveries;
  const s = webhookSubscriptions;
  const rows = await ex
    .selectDistinct({ id: d.subscriptionId })
    .from(d)
    .innerJoin(s, and(eq(s.id, d.subscriptionId), eq(s.enabled, true)))
    .where(and(inArray(d.status, OPEN), lte(d.nextAttemptAt, now)))
    .limit(limit);
  return rows.map((r) => r.id);
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

/** What /metrics reports of the outbox: deliveries per status, and how long the oldest undelivered waits. */
export type DeliveryFigures = {
  deliveries: Record<"pending" | "delivered" | "failed" | "dead", number>;
  /** When the oldest event not yet delivered to some receiver was recorded (null: all delivered). */
  oldestUndeliveredAt: Date | null;
};

export async function deliveryFigures(ex: Executor): Promise<DeliveryFigures> {
  const deliveries = await queryRows<{ key: string; n: number }>(
    ex,
    sql`select status as key, count(*)::int as n from webhook_deliveries group by status`,
  );
  const [lag] = await queryRows<{ at: unknown }>(
    ex,
    sql`select min(e.created_at) as at from webhook_deliveries d join webhook_events e on e.id = d.event_id
        where d.status in ('pending', 'failed')`,
  );
  return {
    deliveries: tally(deliveries, ["pending", "delivered", "failed", "dead"] as const),
    oldestUndeliveredAt: asDate(lag?.at),
  };
}

import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { webhookEvents } from "./webhook-events.ts";
import { webhookSubscriptions } from "./webhook-subscriptions.ts";

export const deliveryStatuses = ["pending", "delivered", "failed", "dead"] as const;
export type DeliveryStatus = (typeof deliveryStatuses)[number];

/**
 * Delivery state of one event to one subscription; one row per (subscriptionId, eventId), written in
 * the transaction that records the event (the outbox). `nextAttemptAt` is the retry schedule, and while
 * an attempt is in flight its lease: a worker that dies mid-attempt leaves it due again when that passes.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    subscriptionId: integer("subscription_id")
      .notNull()
      .references(() => webhookSubscriptions.id, { onDelete: "cascade" }),
    eventId: text("event_id")
      .notNull()
      .references(() => webhookEvents.id, { onDelete: "cascade" }),
    status: text("status", { enum: deliveryStatuses }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true }),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ name: "webhook_deliveries_pk", columns: [t.subscriptionId, t.eventId] }),
    check("webhook_deliveries_status_check", sql`${t.status} in ('pending', 'delivered', 'failed', 'dead')`),
    index("webhook_deliveries_due_idx").on(t.nextAttemptAt).where(sql`${t.status} in ('pending', 'failed')`),
    index("webhook_deliveries_event_idx").on(t.eventId),
    // A subscription's lane takes its next due delivery from here.
    index("webhook_deliveries_lane_idx")
      .on(t.subscriptionId, t.nextAttemptAt)
      .where(sql`${t.status} in ('pending', 'failed')`),
  ],
);

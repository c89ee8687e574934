import { integer, pgTable, text, timestamp, unique } from "drizzle-orm/pg-core";
import { webhookEvents } from "./webhook-events.ts";
import { webhookSubscriptions } from "./webhook-subscriptions.ts";

/** One HTTP attempt of a delivery; one row per (subscriptionId, eventId, attempt). */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    subscriptionId: integer("subscription_id")
      .notNull()
      .references(() => webhookSubscriptions.id, { onDelete: "cascade" }),
    eventId: text("event_id")
      .notNull()
      .references(() => webhookEvents.id, { onDelete: "cascade" }),
    attempt: integer("attempt").notNull(),
    requestedAt: timestamp("requested_at", { withTimezone: true }).notNull().defaultNow(),
    responseStatus: integer("response_status"),
    // First few KiB only; the repository truncates.
    responseBody: text("response_body"),
    error: text("error"),
    durationMs: integer("duration_ms"),
  },
  (t) => [unique("webhook_attempts_sub_event_attempt_uq").on(t.subscriptionId, t.eventId, t.attempt)],
);

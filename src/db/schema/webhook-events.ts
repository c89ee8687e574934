import { index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { repos } from "./repos.ts";
import type { WebhookEventType } from "./webhook-subscriptions.ts";

/** An event to deliver; `id` is deterministic ('evt_' + hash of kind and subject) so re-emitting is a no-op. */
export const webhookEvents = pgTable(
  "webhook_events",
  {
    id: text("id").primaryKey(),
    type: text("type").$type<WebhookEventType>().notNull(),
    repoId: integer("repo_id").references(() => repos.id, { onDelete: "set null" }),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("webhook_events_created_at_idx").on(t.createdAt)],
);

import { boolean, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

export const webhookEventTypes = [
  "advisory.opened",
  "advisory.updated",
  "advisory.closed",
  "revision.processed",
] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];

/** A webhook target; `repoFilter` is an exact repo name, 'owner/*', or null for every repo. */
export const webhookSubscriptions = pgTable("webhook_subscriptions", {
  id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
  url: text("url").notNull(),
  // Standard Webhooks secret, 'whsec_' + base64.
  secret: text("secret").notNull(),
  repoFilter: text("repo_filter"),
  events: text("events", { enum: webhookEventTypes }).array().notNull(),
  enabled: boolean("enabled").notNull().default(true),
  disabledReason: text("disabled_reason"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

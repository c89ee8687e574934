import { boolean, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

export const webhookEventTypes = [
  "advisory.opened",
  "advisory.updated",
  "advisory.closed",
  "revision.processed",
  "revision.changed",
  // A PEFT adapter's base repo changed (a new revision processed, an advisory opened or closed).
  "base.changed",
] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];

/**
 * A webhook target; `repoFilter` is an exact repo name or a pattern with `*` ('owner/*', 'owner/Qwen3-*'),
 * or null for every repo; `kinds` keeps only events about those change kinds (null: all). During a
 * secret rotation `previousSecret` still signs (Standard Webhooks' multiple signatures) until it expires.
 */
export const webhookSubscriptions = pgTable("webhook_subscriptions", {
  id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
  url: text("url").notNull(),
  // Standard Webhooks secret, 'whsec_' + base64.
  secret: text("secret").notNull(),
  repoFilter: text("repo_filter"),
  events: text("events", { enum: webhookEventTypes }).array().notNull(),
  kinds: text("kinds").array(),
  previousSecret: text("previous_secret"),
  previousSecretExpiresAt: timestamp("previous_secret_expires_at", { withTimezone: true }),
  enabled: boolean("enabled").notNull().default(true),
  disabledReason: text("disabled_reason"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

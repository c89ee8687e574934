import { integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** Admin API tokens; only the sha256 hex of the token is stored. */
export const apiTokens = pgTable("api_tokens", {
  id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
  name: text("name").notNull(),
  tokenHash: text("token_hash").notNull().unique(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  revokedAt: timestamp("revoked_at", { withTimezone: true }),
});

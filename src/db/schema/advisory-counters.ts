import { integer, pgTable } from "drizzle-orm/pg-core";

/**
 * Last advisory number used per year. Bumped with an upsert ... RETURNING inside the transaction that
 * inserts the advisory, so concurrent allocators queue on the row lock and a rollback leaves no gap.
 */
export const advisoryCounters = pgTable("advisory_counters", {
  year: integer("year").primaryKey(),
  last: integer("last").notNull(),
});

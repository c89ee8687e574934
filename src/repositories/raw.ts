import type { SQL } from "drizzle-orm";
import type { Executor } from "../db/types.ts";

/**
 * Runs a raw `sql` query and returns its rows, whichever driver (both results carry `rows`). For
 * queries the query builder cannot express; keep them in repositories.
 */
export async function queryRows<T extends Record<string, unknown>>(ex: Executor, query: SQL): Promise<T[]> {
  const result = (await ex.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** Counts by key (`select key, count(*)`) as a record over `keys`: keys with no row count 0, others are dropped. */
export function tally<K extends string>(
  rows: { key: string; n: number }[],
  keys: readonly K[],
): Record<K, number> {
  const out = Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
  for (const r of rows) if ((keys as readonly string[]).includes(r.key)) out[r.key as K] = r.n;
  return out;
}

/** A timestamp from a raw row (a Date or its text, by driver) as a Date; null stays null. */
export const asDate = (v: unknown): Date | null => (v == null ? null : new Date(v as string));

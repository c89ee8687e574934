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

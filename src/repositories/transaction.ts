import type { Executor, Tx } from "../db/types.ts";

/**
 * Runs `fn` in a transaction (a savepoint when `ex` already is one); commits on return, rolls back on throw.
 * Inside `fn` use only `tx`: on PGlite, a query on the outer db waits for the transaction and deadlocks.
 */
export function withTransaction<T>(ex: Executor, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return ex.transaction(fn);
}

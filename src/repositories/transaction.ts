import { PgTransaction } from "drizzle-orm/pg-core";
import type { Executor, Tx } from "../db/types.ts";

/**
 * Runs `fn` in a transaction (a savepoint when `ex` already is one); commits on return, rolls back on throw.
 * Inside `fn` use only `tx`: on PGlite, a query on the outer db waits for the transaction and deadlocks.
 */
export function withTransaction<T>(ex: Executor, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return ex.transaction(fn);
}

/**
 * Runs `fn` atomically: in `ex` itself when it already is a transaction (no savepoint: a failure rolls
 * the whole caller back, as it should for a step written in one piece), else in a transaction of its own.
 * For repository writes of several statements that callers use both alone and inside their own step.
 */
export function atomically<T>(ex: Executor, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return ex instanceof PgTransaction ? fn(ex as Tx) : ex.transaction(fn);
}

import type { ExtractTablesWithRelations } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import type { Listen } from "./listen.ts";
import type * as schema from "./schema/index.ts";

export type Schema = typeof schema;
export type DbKind = "pg" | "pglite";

/** A database handle, whichever driver (node-postgres or PGlite) is behind it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;

/** An open transaction; usable anywhere a Db is (PgTransaction extends PgDatabase). */
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;

/** What every repository function takes first: the database or a transaction on it. */
export type Executor = Db | Tx;

export type DatabaseHandle = {
  db: Db;
  kind: DbKind;
  /** LISTEN on a channel (see listen.ts); resolves to a function that stops listening. */
  listen: Listen;
  close(): Promise<void>;
};

import { mkdirSync } from "node:fs";
import { PGlite, type PGliteOptions } from "@electric-sql/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import pg from "pg";
import { pgListen, pgliteListen } from "./listen.ts";
import * as schema from "./schema/index.ts";
import type { DatabaseHandle, Db } from "./types.ts";

export type DatabaseOptions = {
  /** postgres:// URL: distributed mode on node-postgres. Wins over dataDir. */
  databaseUrl?: string;
  /** Folder for embedded PGlite data; omitted means in-memory (tests). */
  dataDir?: string;
  /** node-postgres pool size; default 10. */
  poolSize?: number;
  /** Extra PGlite options (tests restore a migrated snapshot with loadDataDir). */
  pglite?: Omit<PGliteOptions, "dataDir">;
};

/**
 * Opens the store: node-postgres against `databaseUrl` if given, else PGlite in `dataDir` (or in memory).
 * Does not migrate; call migrateDatabase(handle.db, handle.kind) next.
 */
export async function createDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
    // An idle client losing its connection must not crash the process; the next query reconnects.
    pool.on("error", () => {});
    // Nor one checked out (pg-pool drops its idle listener on checkout): the error reaches the caller
    // through the failed query, and a client that saw it is discarded when released.
    pool.on("connect", (client) => client.on("error", () => {}));
    const db: Db = drizzlePg({ client: pool, schema });
    await pool.query("select 1");
    return { db, kind: "pg", listen: pgListen(options.databaseUrl), close: () => pool.end() };
  }
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const client = new PGlite({ ...options.pglite, ...(options.dataDir && { dataDir: options.dataDir }) });
  await client.waitReady;
  const db: Db = drizzlePglite({ client, schema });
  return { db, kind: "pglite", listen: pgliteListen(client), close: () => client.close() };
}

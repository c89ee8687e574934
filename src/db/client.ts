import { mkdirSync } from "node:fs";
import { PGlite, type PGliteOptions } from "@electric-sql/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import pg from "pg";
import { lockDataDir } from "./data-dir-lock.ts";
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
  /** Told of each lost connection (a restart, a failover); default: ignored. Never throws. */
  onConnectionError?: (err: Error) => void;
};

/**
 * Opens the store: node-postgres against `databaseUrl` if given, else PGlite in `dataDir` (or in memory).
 * Does not migrate; call migrateDatabase(handle.db, handle.kind) next.
 */
export async function createDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
    guardConnections(pool, options.onConnectionError ?? (() => {}));
    const db: Db = drizzlePg({ client: pool, schema });
    try {
      await pool.query("select 1");
    } catch (err) {
      await pool.end().catch(() => {});
      throw err;
    }
    return { db, kind: "pg", listen: pgListen(options.databaseUrl), close: () => pool.end() };
  }
  let unlock = () => {};
  if (options.dataDir) {
    mkdirSync(options.dataDir, { recursive: true });
    unlock = lockDataDir(options.dataDir);
  }
  try {
    const client = new PGlite({ ...options.pglite, ...(options.dataDir && { dataDir: options.dataDir }) });
    await client.waitReady;
    const db: Db = drizzlePglite({ client, schema });
    return { db, kind: "pglite", listen: pgliteListen(client), close: () => client.close().finally(unlock) };
  } catch (err) {
    unlock();
    throw err;
  }
}

/**
 * A client losing its connection emits "error"; unheard, that kills the process. The pool listens only
 * while a client is idle and drops its listener on checkout (node-postgres issues 2439, 3202), so a
 * restart during a transaction would crash a worker. Every client gets its own listener for its whole
 * life: the query in flight still rejects (the job fails and retries), the pool discards the dead client
 * on release, and the next checkout opens a new connection.
 */
function guardConnections(pool: pg.Pool, onError: (err: Error) => void): void {
  pool.on("error", () => {}); // an idle client's error, already told by its own listener
  pool.on("connect", (client) => client.on("error", onError));
}

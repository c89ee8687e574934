import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePg, type NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import type pg from "pg";
import type { Db, DbKind } from "./types.ts";

/** migrations/ at the package root, wherever the process was started from. */
export const migrationsFolder = fileURLToPath(new URL("../../migrations", import.meta.url));

// Arbitrary constant key for pg_advisory_lock, so that workers starting together migrate one at a time.
const MIGRATION_LOCK_KEY = 72_851_003;

const pgliteQueue = new WeakMap<Db, Promise<void>>();

/** What a migration run did: migrations applied now, and migrations the store holds afterwards. */
export type MigrationReport = { applied: number; total: number };

/** Migrations recorded in drizzle's journal table (0 before the first run, when it does not exist yet). */
async function countApplied(db: Db): Promise<number> {
  const table = "drizzle.__drizzle_migrations";
  const found = (await db.execute(sql`select to_regclass(${table}) is not null as present`)) as unknown as {
    rows: { present: boolean }[];
  };
  if (!found.rows[0]?.present) return 0;
  const counted = (await db.execute(
    sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
  )) as unknown as {
    rows: { n: number }[];
  };
  return counted.rows[0]?.n ?? 0;
}

/** Applies every pending migration in migrations/ and says how many it applied. */
export async function migrateDatabase(db: Db, kind: DbKind): Promise<MigrationReport> {
  const before = await countApplied(db);
  await applyMigrations(db, kind);
  const total = await countApplied(db);
  return { applied: total - before, total };
}

async function applyMigrations(db: Db, kind: DbKind): Promise<void> {
  if (kind === "pglite") {
    // PGlite lives in this process only, so an in-process queue is enough to keep two callers apart.
    const previous = pgliteQueue.get(db) ?? Promise.resolve();
    const run = previous.then(() => migratePglite(db as unknown as PgliteDatabase, { migrationsFolder }));
    pgliteQueue.set(
      db,
      run.catch(() => {}),
    );
    return run;
  }
  const pool = (db as unknown as NodePgDatabase & { $client: pg.Pool }).$client;
  // The session-level lock must be held by the connection that migrates, so pin one client.
  const client = await pool.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    try {
      await migratePg(drizzlePg({ client }), { migrationsFolder });
    } finally {
      await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}

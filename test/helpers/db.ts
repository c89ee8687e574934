import { randomBytes } from "node:crypto";
import { readFile, rename, writeFile } from "node:fs/promises";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { inject } from "vitest";
import { createDatabase } from "../../src/db/client.ts";
import { migrateDatabase } from "../../src/db/migrate.ts";
import type { DatabaseHandle } from "../../src/db/types.ts";
import { adminUrlFor, dbUrl, migrationsKey, templateDbName, withAdmin } from "./pg-admin.ts";

export type TestDatabase = DatabaseHandle & {
  /** postgres:// URL of the database (pg only), e.g. to open a second pool or hand to a subprocess. */
  url?: string;
  name?: string;
};
export type PgTestDatabase = TestDatabase & { url: string; name: string };

function adminUrl(): string {
  // Provided by test/global-setup.ts; the fallback serves a helper used outside that project.
  return inject("pgAdminUrl") ?? adminUrlFor(userInfo().username);
}

/**
 * Another test run starting on the same server swaps in a rebuilt template (test/global-setup.ts):
 * for a moment it is missing (3D000) or busy (55006). Wait it out rather than fail.
 */
async function retryWhileTemplateSwaps<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (attempt >= 20 || (code !== "3D000" && code !== "55006")) throw err;
      await new Promise((r) => setTimeout(r, 250 * attempt));
    }
  }
}

async function createPgDatabase(template: string | null, poolSize?: number): Promise<PgTestDatabase> {
  const admin = adminUrl();
  const name = `t_${randomBytes(8).toString("hex")}`;
  await withAdmin(admin, (c) =>
    retryWhileTemplateSwaps(() =>
      c.query(template ? `CREATE DATABASE "${name}" TEMPLATE "${template}"` : `CREATE DATABASE "${name}"`),
    ),
  );
  const url = dbUrl(admin, name);
  const handle = await createDatabase({ databaseUrl: url, ...(poolSize !== undefined && { poolSize }) });
  let closed = false;
  return {
    ...handle,
    url,
    name,
    async close() {
      if (closed) return;
      closed = true;
      await handle.close();
      await withAdmin(admin, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

/** A new, migrated PostgreSQL database (copied from the migrated template); close() drops it. */
export async function freshPgDatabase(opts: { poolSize?: number } = {}): Promise<PgTestDatabase> {
  return createPgDatabase(inject("pgTemplate") ?? (await templateDbName()), opts.poolSize);
}

/** A new, empty (unmigrated) PostgreSQL database; close() drops it. */
export function emptyPgDatabase(): Promise<PgTestDatabase> {
  return createPgDatabase(null);
}

let snapshot: Promise<Blob> | undefined;

/**
 * A dump of a freshly migrated PGlite, built once per migrations/ content and cached in the OS temp
 * folder: initdb costs seconds per instance, restoring a dump a fraction of that.
 */
function migratedSnapshot(): Promise<Blob> {
  snapshot ??= (async () => {
    const file = join(tmpdir(), `hubwatch-pglite-${await migrationsKey()}.tar`);
    const cached = await readFile(file).catch(() => null);
    if (cached) return new Blob([cached]);
    const client = new PGlite();
    await migrateDatabase(drizzle({ client }), "pglite");
    const dump = await client.dumpDataDir("none");
    await client.close();
    const partial = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
    await writeFile(partial, new Uint8Array(await dump.arrayBuffer()));
    await rename(partial, file);
    return dump;
  })();
  return snapshot;
}

/** A new in-memory PGlite database, migrated. */
export async function freshPgliteDatabase(): Promise<TestDatabase> {
  const handle = await createDatabase({ pglite: { loadDataDir: await migratedSnapshot() } });
  await migrateDatabase(handle.db, handle.kind);
  return handle;
}

/** Both drivers, for tests that must hold on each: `describe.each(drivers)`. */
export const drivers = [
  { name: "pg", open: () => freshPgDatabase() },
  { name: "pglite", open: () => freshPgliteDatabase() },
] as const;

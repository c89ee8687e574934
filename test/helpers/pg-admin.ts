import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import pg from "pg";
import { migrationsFolder } from "../../src/db/migrate.ts";

/** Hash of every file under migrations/: names the migrated template database and PGlite snapshot. */
export async function migrationsKey(): Promise<string> {
  const h = createHash("sha256");
  const files = (await readdir(migrationsFolder, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
  for (const f of files) h.update(f.slice(migrationsFolder.length)).update(await readFile(f));
  return h.digest("hex").slice(0, 16);
}

/** The migrated database that test databases are copied from (test/global-setup.ts builds it once). */
export async function templateDbName(): Promise<string> {
  return `hubwatch_tmpl_${await migrationsKey()}`;
}

export function adminUrlFor(user: string): string {
  return `postgres://${encodeURIComponent(user)}@127.0.0.1:5432/postgres`;
}

/** `url` pointing at database `name` instead. */
export function dbUrl(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Runs `fn` on a short-lived connection to the admin database. */
export async function withAdmin<T>(adminUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

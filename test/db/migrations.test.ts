import { readFileSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { createDatabase } from "../../src/db/client.ts";
import { migrateDatabase, migrationsFolder } from "../../src/db/migrate.ts";
import type { DatabaseHandle, Db } from "../../src/db/types.ts";
import { queryRows } from "../../src/repositories/raw.ts";
import { emptyPgDatabase } from "../helpers/db.ts";

const EXPECTED_TABLES = [
  "adapter_bases",
  "advisories",
  "advisory_counters",
  "api_tokens",
  "artifacts",
  "badges",
  "behavior_changes",
  "changes",
  "estimates",
  "estimator_drift",
  "findings",
  "repos",
  "revision_files",
  "revisions",
  "webhook_attempts",
  "webhook_deliveries",
  "webhook_events",
  "webhook_subscriptions",
];

async function tables(db: Db): Promise<string[]> {
  const rows = await queryRows<{ name: string }>(
    db,
    sql`select table_name as name from information_schema.tables where table_schema = 'public' order by 1`,
  );
  return rows.map((r) => r.name);
}

async function appliedCount(db: Db): Promise<number> {
  const rows = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
  );
  return rows[0]!.n;
}

function journalEntries(): number {
  const journal = JSON.parse(readFileSync(join(migrationsFolder, "meta", "_journal.json"), "utf8"));
  return (journal as { entries: unknown[] }).entries.length;
}

const open: DatabaseHandle[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((h) => h.close()));
});

const empties = [
  { name: "pg", open: () => emptyPgDatabase() },
  { name: "pglite", open: () => createDatabase({}) },
];

describe.each(empties)("migrations on $name", ({ open: openEmpty }) => {
  it("apply cleanly to an empty database, and a second run changes nothing", async () => {
    const h = await openEmpty();
    open.push(h);
    expect(await tables(h.db)).toEqual([]);

    await migrateDatabase(h.db, h.kind);
    expect(await tables(h.db)).toEqual(EXPECTED_TABLES);
    const applied = await appliedCount(h.db);
    expect(applied).toBe(journalEntries());

    await migrateDatabase(h.db, h.kind);
    expect(await tables(h.db)).toEqual(EXPECTED_TABLES);
    expect(await appliedCount(h.db)).toBe(applied);
  });

  it("apply once when two callers migrate at the same time", async () => {
    const h = await openEmpty();
    open.push(h);
    const other = h.kind === "pg" && "url" in h ? await createDatabase({ databaseUrl: h.url as string }) : h;
    if (other !== h) open.push(other);

    await Promise.all([migrateDatabase(h.db, h.kind), migrateDatabase(other.db, other.kind)]);
    expect(await tables(h.db)).toEqual(EXPECTED_TABLES);
    expect(await appliedCount(h.db)).toBe(journalEntries());
  });
});

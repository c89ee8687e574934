import { userInfo } from "node:os";
import { Redis } from "ioredis";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { createDatabase } from "../src/db/client.ts";
import { migrateDatabase } from "../src/db/migrate.ts";
import { adminUrlFor, dbUrl, templateDbName } from "./helpers/pg-admin.ts";

// Integration tests fail, never skip, when their services are down (docs/dev/CONVENTIONS.md).
const REDIS_URL = process.env.HUBWATCH_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
// Serialises template builds when several test runs start at once on one server.
const SETUP_LOCK_KEY = 72_851_004;

declare module "vitest" {
  export interface ProvidedContext {
    pgAdminUrl: string;
    pgTemplate: string;
    redisUrl: string;
  }
}

async function connectAdmin(): Promise<{ client: pg.Client; url: string }> {
  const users = [...new Set([userInfo().username, "postgres"])];
  const override = process.env.HUBWATCH_TEST_PG_URL;
  const urls = override ? [override] : users.map(adminUrlFor);
  const errors: string[] = [];
  for (const url of urls) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
    try {
      await client.connect();
      return { client, url };
    } catch (err) {
      errors.push(`${url}: ${(err as Error).message}`);
      await client.end().catch(() => {});
    }
  }
  throw new Error(
    `Integration tests need PostgreSQL (${override ?? `127.0.0.1:5432, trust auth, user ${users.join(" or ")}`}); ` +
      `could not connect:\n  ${errors.join("\n  ")}\nStart it (e.g. docker compose up -d postgres) and rerun.`,
  );
}

async function checkRedis(): Promise<void> {
  const redis = new Redis(REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 5000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  let lastError: Error | undefined;
  redis.on("error", (err: Error) => {
    lastError = err;
  });
  try {
    await redis.connect();
    const pong = await redis.ping();
    if (pong !== "PONG") throw new Error(`PING answered ${pong}`);
  } catch (err) {
    throw new Error(
      `Integration tests need Redis at ${REDIS_URL}: ${(lastError ?? (err as Error)).message}. ` +
        "Start it (e.g. docker compose up -d redis) and rerun.",
    );
  } finally {
    redis.disconnect();
  }
}

/**
 * Builds the migrated template under a temporary name, then renames it into place. The template is named
 * after the migrations' content, so test runs from checkouts with different migrations never share one,
 * and a template that already exists for this content is reused as it is.
 */
async function ensureTemplate(admin: pg.Client, adminUrl: string, template: string): Promise<void> {
  const found = await admin.query("select 1 from pg_database where datname = $1", [template]);
  if (found.rowCount) return;
  const building = `${template}_b${process.pid}`;
  await admin.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${building}"`);
  const handle = await createDatabase({ databaseUrl: dbUrl(adminUrl, building), poolSize: 1 });
  try {
    await migrateDatabase(handle.db, handle.kind);
  } finally {
    await handle.close();
  }
  await admin.query(`ALTER DATABASE "${building}" RENAME TO "${template}"`);
}

export default async function setup(project: TestProject): Promise<void> {
  const template = await templateDbName();
  const { client: admin, url } = await connectAdmin();
  try {
    await checkRedis();
    await admin.query("select pg_advisory_lock($1)", [SETUP_LOCK_KEY]);
    try {
      await ensureTemplate(admin, url, template);
    } finally {
      await admin.query("select pg_advisory_unlock($1)", [SETUP_LOCK_KEY]);
    }
  } finally {
    await admin.end();
  }
  project.provide("pgAdminUrl", url);
  project.provide("pgTemplate", template);
  project.provide("redisUrl", REDIS_URL);
}

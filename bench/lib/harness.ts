/**
 * Shared plumbing for the pipeline benchmarks: a throwaway PostgreSQL database, pipeline services
 * pointed at a replay hub, and a description of the machine. Benchmarks talk to 127.0.0.1 only.
 */
import { randomBytes } from "node:crypto";
import { cpus, totalmem, userInfo } from "node:os";
import pg from "pg";
import { pino } from "pino";
import { loadConfig } from "../../src/config/env.ts";
import { createDatabase } from "../../src/db/client.ts";
import { migrateDatabase } from "../../src/db/migrate.ts";
import type { DatabaseHandle } from "../../src/db/types.ts";
import { createHubClient, type HubClient } from "../../src/hub/client.ts";
import type { PipelineServices } from "../../src/services/deps.ts";
import { hubPortFrom } from "../../src/services/hub-port.ts";

export type BenchDatabase = DatabaseHandle & { url: string; drop(): Promise<void> };

function adminUrl(): string {
  return (
    process.env.BENCH_PG_ADMIN_URL ??
    `postgres://${encodeURIComponent(userInfo().username)}@127.0.0.1:5432/postgres`
  );
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: adminUrl() });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** A new migrated database `bench_<hex>` on the local server; `drop()` closes and removes it. */
export async function benchDatabase(poolSize = 10): Promise<BenchDatabase> {
  const name = `bench_${randomBytes(6).toString("hex")}`;
  await admin((c) => c.query(`CREATE DATABASE "${name}"`));
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  const handle = await createDatabase({ databaseUrl: url.toString(), poolSize });
  await migrateDatabase(handle.db, handle.kind);
  return {
    ...handle,
    url: url.toString(),
    async drop() {
      await handle.close().catch(() => {});
      await admin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

/** Pipeline services on `db` with a Hub client pointed at `hubUrl` (its counter is returned too). */
export function benchServices(
  db: DatabaseHandle,
  hubUrl: string,
  env: Record<string, string> = {},
): { services: PipelineServices; hub: HubClient } {
  const config = loadConfig({ HF_ENDPOINT: hubUrl, LOG_LEVEL: "silent", ...env });
  const hub = createHubClient({ hubUrl, timeoutMs: 30_000 });
  const services: PipelineServices = {
    config,
    db: db.db,
    hub: hubPortFrom(hub),
    log: pino({ level: "silent" }),
    now: () => new Date(),
    fetch: globalThis.fetch,
  };
  return { services, hub };
}

/** The machine a figure was measured on, for docs/BENCHMARKS.md. */
export function machine() {
  return {
    node: process.version,
    cpus: cpus().length,
    cpu: cpus()[0]?.model ?? "unknown",
    memGiB: Math.round(totalmem() / 2 ** 30),
  };
}

export const round = (n: number, digits = 2) => Number(n.toFixed(digits));

/** Median and p95 of samples (ms). */
export function summarize(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
  return { n: s.length, medianMs: round(at(0.5)), p95Ms: round(at(0.95)), minMs: round(s[0] ?? 0) };
}

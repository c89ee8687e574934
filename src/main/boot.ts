import { type Logger, pino } from "pino";
import type { Config } from "../config/env.ts";
import { createDatabase, type DatabaseOptions } from "../db/client.ts";
import type { Listen } from "../db/listen.ts";
import { type MigrationReport, migrateDatabase } from "../db/migrate.ts";
import type { Db, DbKind } from "../db/types.ts";
import { createHubBudget, parseBudget } from "../hub/budget.ts";
import { createHubClient, type HubClient } from "../hub/client.ts";
import type { PipelineServices } from "../services/deps.ts";
import { hubPortFrom } from "../services/hub-port.ts";

export type Booted = {
  services: PipelineServices;
  kind: DbKind;
  /** What opening the store migrated. */
  migrations: MigrationReport;
  /** The Hub client, for its request counter. */
  hub: HubClient;
  /** LISTEN on the store (the HTTP response cache follows the store generation). */
  listen: Listen;
  close(): Promise<void>;
};

export type BootOptions = {
  /** Overrides HF_ENDPOINT (the demo and tests point it at the replay hub). */
  hubUrl?: string;
  log?: Logger;
  /** Overrides the store: a fresh PGlite folder (the demo), `{}` for in-memory PGlite (tests), a URL. */
  database?: DatabaseOptions;
};

/** A pino logger on stderr, so stdout stays for command output. */
export function createLogger(config: Config): Logger {
  return pino({ level: config.LOG_LEVEL, base: { pid: process.pid } }, pino.destination(2));
}

/**
 * Opens everything a process needs: the store (PostgreSQL when DATABASE_URL is set, else PGlite in
 * HUBWATCH_DATA_DIR), migrated; the Hub client; a logger. `close` releases the store.
 */
export async function bootServices(config: Config, opts: BootOptions = {}): Promise<Booted> {
  const handle = await createDatabase(
    opts.database ??
      (config.DATABASE_URL ? { databaseUrl: config.DATABASE_URL } : { dataDir: config.HUBWATCH_DATA_DIR }),
  );
  let migrations: MigrationReport;
  try {
    migrations = await migrateDatabase(handle.db, handle.kind);
  } catch (err) {
    await handle.close();
    throw err;
  }
  const { services, hub } = servicesFor(config, handle.db, opts);
  return { services, kind: handle.kind, migrations, hub, listen: handle.listen, close: () => handle.close() };
}

/** The services bag over an open store (tests pass their own database handle). */
export function servicesFor(
  config: Config,
  db: Db,
  opts: Pick<BootOptions, "hubUrl" | "log"> = {},
): { services: PipelineServices; hub: HubClient } {
  const hub = createHubClient({
    hubUrl: opts.hubUrl ?? config.HF_ENDPOINT,
    accessToken: config.HF_TOKEN,
    maxHeaderBytes: config.HUBWATCH_MAX_HEADER_BYTES,
    budget: createHubBudget({
      api: parseBudget(config.HUBWATCH_HUB_BUDGET),
      resolvers: parseBudget(config.HUBWATCH_RESOLVER_BUDGET),
    }),
  });
  const services: PipelineServices = {
    config,
    db,
    hub: hubPortFrom(hub, { backfillDepth: config.HUBWATCH_BACKFILL_DEPTH }),
    log: opts.log ?? createLogger(config),
    now: () => new Date(),
    fetch: globalThis.fetch,
  };
  return { services, hub };
}

/** Distributed mode needs both a shared store and a shared queue. */
export function isDistributed(config: Config): boolean {
  return Boolean(config.DATABASE_URL && config.REDIS_URL);
}

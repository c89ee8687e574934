import { type Logger, pino } from "pino";
import type { Config } from "../config/env.ts";
import { createDatabase, type DatabaseOptions } from "../db/client.ts";
import type { Listen } from "../db/listen.ts";
import { type MigrationReport, migrateDatabase } from "../db/migrate.ts";
import type { Db, DbKind } from "../db/types.ts";
import { createHubBudget, parseBudget } from "../hub/budget.ts";
import { createHubClient, type HubClient } from "../hub/client.ts";
import { createMetrics, type Metrics } from "../ops/metrics.ts";
import type { PipelineServices } from "../services/deps.ts";
import { hubPortFrom } from "../services/hub-port.ts";
import { storeFigures } from "../services/store-figures.ts";
import { describeUrl, pingRedis, reachWithin } from "./dependencies.ts";

export type Booted = {
  services: PipelineServices;
  kind: DbKind;
  /** What opening the store migrated. */
  migrations: MigrationReport;
  /** The Hub client, for its request counter. */
  hub: HubClient;
  /** LISTEN on the store (the HTTP response cache follows the store generation). */
  listen: Listen;
  /** This process's /metrics: Hub requests, job timings, and the store's figures at scrape time. */
  metrics: Metrics;
  close(): Promise<void>;
};

type BootOptions = {
  /** Overrides HF_ENDPOINT (the demo and tests point it at the replay hub). */
  hubUrl?: string;
  log?: Logger;
  /** Overrides the store: a fresh PGlite folder (the demo), `{}` for in-memory PGlite (tests), a URL. */
  database?: DatabaseOptions;
};

/** A pino logger on stderr, so stdout stays for command output. */
function createLogger(config: Config): Logger {
  return pino({ level: config.LOG_LEVEL, base: { pid: process.pid } }, pino.destination(2));
}

/**
 * Opens everything a process needs: the store (PostgreSQL when DATABASE_URL is set, else PGlite in
 * HUBWATCH_DATA_DIR), migrated; the Hub client; a logger. `close` releases the store.
 */
export async function bootServices(config: Config, opts: BootOptions = {}): Promise<Booted> {
  const log = opts.log ?? createLogger(config);
  const handle = await openStore(config, opts.database, log);
  let migrations: MigrationReport;
  try {
    migrations = await migrateDatabase(handle.db, handle.kind);
  } catch (err) {
    await handle.close();
    throw err;
  }
  const metrics = createMetrics({ store: () => storeFigures(handle.db) });
  const { services, hub } = servicesFor(config, handle.db, { ...opts, log, metrics });
  return {
    services,
    kind: handle.kind,
    migrations,
    hub,
    metrics,
    listen: handle.listen,
    close: () => handle.close(),
  };
}

/**
 * The store, retried for HUBWATCH_START_TIMEOUT_S when it is PostgreSQL (it may start after us), each
 * lost connection later logged as one warning line.
 */
async function openStore(config: Config, database: DatabaseOptions | undefined, log: Logger) {
  const options: DatabaseOptions =
    database ??
    (config.DATABASE_URL ? { databaseUrl: config.DATABASE_URL } : { dataDir: config.HUBWATCH_DATA_DIR });
  if (!options.databaseUrl) return createDatabase(options);
  const url = options.databaseUrl;
  return reachWithin(
    `PostgreSQL at ${describeUrl(url)}`,
    config.HUBWATCH_START_TIMEOUT_S * 1000,
    () =>
      createDatabase({
        ...options,
        onConnectionError: (err) =>
          log.warn({ dependency: "postgresql", err: err.message }, "connection lost"),
      }),
    (message) => log.warn({ dependency: "postgresql" }, message),
  );
}

/** The services bag over an open store (tests pass their own database handle). */
export function servicesFor(
  config: Config,
  db: Db,
  opts: Pick<BootOptions, "hubUrl" | "log"> & { metrics?: Metrics } = {},
): { services: PipelineServices; hub: HubClient } {
  const hub = createHubClient({
    hubUrl: opts.hubUrl ?? config.HF_ENDPOINT,
    accessToken: config.HF_TOKEN,
    maxHeaderBytes: config.HUBWATCH_MAX_HEADER_BYTES,
    budget: createHubBudget({
      api: parseBudget(config.HUBWATCH_HUB_BUDGET),
      resolvers: parseBudget(config.HUBWATCH_RESOLVER_BUDGET),
    }),
    ...(opts.metrics && { onResponse: opts.metrics.hubResponse }),
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

/** Redis reached within HUBWATCH_START_TIMEOUT_S (distributed mode), or an UnreachableError. */
export async function reachRedis(config: Config, log: Logger): Promise<void> {
  const url = config.REDIS_URL;
  if (!url) return;
  await reachWithin(
    `Redis at ${describeUrl(url)}`,
    config.HUBWATCH_START_TIMEOUT_S * 1000,
    () => pingRedis(url),
    (message) => log.warn({ dependency: "redis" }, message),
  );
}

/** Distributed mode needs both a shared store and a shared queue. */
export function isDistributed(config: Config): boolean {
  return Boolean(config.DATABASE_URL && config.REDIS_URL);
}

import { type AddressInfo, createServer } from "node:net";
import type { Logger } from "pino";
import type { JobRegistry } from "../../jobs/index.ts";
import type { Config } from "../config/env.ts";
import type { Listen } from "../db/listen.ts";
import { watchStoreChanges } from "../db/store-changes.ts";
import type { Db } from "../db/types.ts";
import { createApp } from "../http/app.ts";
import type { AppDeps } from "../http/deps.ts";
import { type Booted, bootServices, isDistributed, reachRedis } from "../main/boot.ts";
import { localUrl, newLocalToken, publishLocalApi } from "../main/local-api.ts";
import { readiness } from "../main/ops-server.ts";
import { distributedRunner, embeddedRunner } from "../main/runners.ts";
import { onShutdown } from "../main/shutdown.ts";
import type { JobRunner } from "../queue/types.ts";
import { UsageError } from "./errors.ts";

type StartServerOptions = {
  config: Config;
  db: Db;
  /** LISTEN on the store: responses are then cached per store generation (see src/db/store-changes.ts). */
  listen?: Listen;
  /** Producer for Hub-webhook polls and webhook deliveries; the caller owns (starts, closes) it. */
  runner?: Pick<JobRunner<JobRegistry>, "enqueue">;
  /** `/readyz` checks and `/metrics` (the serve command passes both; the demo neither). */
  ready?: AppDeps["ready"];
  metrics?: AppDeps["metrics"];
  failedJobs?: AppDeps["failedJobs"];
  /** Override config.HOST / config.PORT (the demo passes port 0 for any free port). */
  host?: string;
  port?: number;
  log?: Logger;
  /** The PGlite folder this process holds: publish the write API there for the CLI (src/main/local-api.ts). */
  localApi?: { dataDir: string };
};

/** Starts the HTTP server on the given store and runner; returns its URL and a close function. */
export async function startServer(
  opts: StartServerOptions,
): Promise<{ url: string; close(): Promise<void> }> {
  const { config } = opts;
  const generation = opts.listen ? await watchStoreChanges(opts.listen) : null;
  const localToken = opts.localApi ? newLocalToken() : undefined;
  const app = await createApp({
    localAdminToken: localToken,
    db: opts.db,
    storeGeneration: generation?.current,
    enqueue: opts.runner?.enqueue,
    publicUrl: config.PUBLIC_URL,
    hubWebhookSecret: config.HUB_WEBHOOK_SECRET,
    allowPrivateTargets: config.HUBWATCH_ALLOW_PRIVATE_WEBHOOKS,
    log: opts.log,
    ready: opts.ready,
    metrics: opts.metrics,
    failedJobs: opts.failedJobs,
  });
  const host = opts.host ?? config.HOST;
  const port = opts.port ?? config.PORT;
  let address: string;
  try {
    address = await app.listen({ host, port });
  } catch (err) {
    await app.close();
    await generation?.stop();
    throw listenError(err, host, port);
  }
  let unpublish = () => {};
  if (opts.localApi && localToken) {
    const api = { pid: process.pid, url: localUrl(app.server.address() as AddressInfo), token: localToken };
    try {
      unpublish = publishLocalApi(opts.localApi.dataDir, api);
    } catch (err) {
      // The daemon still serves; CLI writes are then refused instead of going through it.
      opts.log?.warn({ err: String(err) }, "local API file not written");
    }
  }
  const close = async () => {
    unpublish();
    await app.close();
    await generation?.stop();
  };
  return { url: config.PUBLIC_URL ?? address, close };
}

/** Binds and releases the address, so a busy port is reported before anything else starts. */
export async function assertCanListen(host: string, port: number): Promise<void> {
  const probe = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once("error", reject);
      probe.listen({ host, port, exclusive: true }, resolve);
    });
  } catch (err) {
    throw listenError(err, host, port);
  } finally {
    if (probe.listening) await new Promise((r) => probe.close(r));
  }
}

/** A bind failure as one line the operator can act on. */
function listenError(err: unknown, host: string, port: number): Error {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === "EADDRINUSE")
    return new UsageError(`${host}:${port} is already in use; stop the other server or pick --port`);
  if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND")
    return new UsageError(`cannot listen on ${host}: no such local address; check --host or HOST`);
  if (code === "EACCES")
    return new UsageError(`not allowed to listen on ${host}:${port}; use a port above 1023`);
  return err instanceof Error ? err : new Error(String(err));
}

/**
 * The HTTP server of a booted process over its runner: readiness and metrics, the runner's failed jobs
 * when it keeps them, and on PGlite the local write API for the CLI (the process owns the folder).
 */
export function serveBooted(
  config: Config,
  booted: Booted,
  runner: JobRunner<JobRegistry> & { failedJobs?: AppDeps["failedJobs"] },
  listen: { host?: string; port?: number },
) {
  return startServer({
    config,
    db: booted.services.db,
    listen: booted.listen,
    runner,
    log: booted.services.log,
    ready: readiness(config, booted.services.db),
    metrics: booted.metrics.registry,
    ...(runner.failedJobs && { failedJobs: runner.failedJobs }),
    ...(booted.kind === "pglite" && { localApi: { dataDir: config.HUBWATCH_DATA_DIR } }),
    ...(listen.host !== undefined && { host: listen.host }),
    ...(listen.port !== undefined && { port: listen.port }),
  });
}

/**
 * `hubwatch serve`. Distributed mode: the API only queues (workers deliver and poll). Embedded mode:
 * an in-process runner here delivers webhooks and runs the polls Hub webhooks ask for.
 */
export async function runServeCommand(
  config: Config,
  listen: { host?: string; port?: number } = {},
): Promise<number | undefined> {
  // Fail on a busy or bad address before opening the store, which takes seconds.
  await assertCanListen(listen.host ?? config.HOST, listen.port ?? config.PORT);
  const booted = await bootServices(config);
  const log = booted.services.log;
  if (isDistributed(config))
    await reachRedis(config, log).catch(async (err: unknown) => {
      await booted.close().catch(() => {});
      throw err;
    });
  const runner = isDistributed(config)
    ? distributedRunner(config, booted.services, { metrics: booted.metrics })
    : embeddedRunner(booted.services, { metrics: booted.metrics });
  if (!isDistributed(config)) await runner.start();
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await serveBooted(config, booted, runner, listen);
  } catch (err) {
    await runner.close();
    await booted.close();
    throw err;
  }
  process.stdout.write(`hubwatch: serving on ${server.url}\n`);
  log.info({ url: server.url, store: booted.kind }, "serving");
  onShutdown(
    async () => {
      await server.close();
      await runner.close();
      await booted.close();
    },
    (m) => log.info(m),
  );
  return undefined;
}

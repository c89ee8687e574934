import type { Logger } from "pino";
import type { Config } from "../config/env.ts";
import type { Db } from "../db/types.ts";
import { createApp } from "../http/app.ts";
import { bootServices, isDistributed } from "../main/boot.ts";
import { distributedRunner, embeddedRunner } from "../main/runners.ts";
import { onShutdown } from "../main/shutdown.ts";
import type { JobRunner } from "../queue/types.ts";

export type StartServerOptions = {
  config: Config;
  db: Db;
  /** Producer for Hub-webhook polls and webhook deliveries; the caller owns (starts, closes) it. */
  runner?: Pick<JobRunner, "enqueue">;
  /** Override config.HOST / config.PORT (the demo passes port 0 for any free port). */
  host?: string;
  port?: number;
  log?: Logger;
};

/** Starts the HTTP server on the given store and runner; returns its URL and a close function. */
export async function startServer(
  opts: StartServerOptions,
): Promise<{ url: string; close(): Promise<void> }> {
  const { config } = opts;
  const app = await createApp({
    db: opts.db,
    enqueue: opts.runner?.enqueue,
    publicUrl: config.PUBLIC_URL,
    hubWebhookSecret: config.HUB_WEBHOOK_SECRET,
    allowPrivateTargets: config.HUBWATCH_ALLOW_PRIVATE_WEBHOOKS,
    log: opts.log,
  });
  const address = await app.listen({ host: opts.host ?? config.HOST, port: opts.port ?? config.PORT });
  return { url: config.PUBLIC_URL ?? address, close: () => app.close() };
}

/**
 * `hubwatch serve`. Distributed mode: the API only queues (workers deliver and poll). Embedded mode:
 * an in-process runner here delivers webhooks and runs the polls Hub webhooks ask for.
 */
export async function runServeCommand(config: Config): Promise<number | undefined> {
  const booted = await bootServices(config);
  const log = booted.services.log;
  const runner = isDistributed(config)
    ? distributedRunner(config, booted.services)
    : embeddedRunner(booted.services);
  if (!isDistributed(config)) await runner.start();
  const server = await startServer({ config, db: booted.services.db, runner, log });
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

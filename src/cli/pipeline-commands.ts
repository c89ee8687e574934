import { jobs } from "../../jobs/index.ts";
import type { Config } from "../config/env.ts";
import { type Booted, bootServices, isDistributed, reachRedis } from "../main/boot.ts";
import { startOpsServer } from "../main/ops-server.ts";
import { distributedRunner, embeddedRunner } from "../main/runners.ts";
import { startScheduler } from "../main/scheduler.ts";
import { onShutdown } from "../main/shutdown.ts";
import { listWatchedRepos } from "../services/watch-repos.ts";
import { progressCounts } from "./demo-report.ts";
import { UsageError } from "./errors.ts";
import { assertCanListen, serveBooted } from "./serve-command.ts";

type Out = { write(s: string): unknown };

function requireDistributed(config: Config, command: string): void {
  if (!isDistributed(config)) {
    throw new UsageError(
      `hubwatch: \`${command}\` is for distributed mode: set DATABASE_URL and REDIS_URL (embedded mode: \`hubwatch run\`)`,
    );
  }
}

/** Releases the store, then rethrows: a process refusing to start leaves nothing open. */
function closeThenThrow(booted: Pick<Booted, "close">) {
  return async (err: unknown): Promise<never> => {
    await booted.close().catch(() => {});
    throw err;
  };
}

/**
 * `hubwatch poll [--once]`. With --once (or in embedded mode): polls every watched repo and processes
 * every new revision in this process, then exits (1 if any job failed for good). Without --once in
 * distributed mode: queues one poll-all for the workers and exits.
 */
export async function pollCommand(
  config: Config,
  opts: { once?: boolean },
  out: Out = process.stdout,
): Promise<number> {
  const booted = await bootServices(config);
  const s = booted.services;
  try {
    if (!opts.once && isDistributed(config)) {
      const runner = distributedRunner(config, s);
      await runner.enqueue("poll-all", {});
      await runner.close();
      out.write("hubwatch: poll queued for the workers\n");
      return 0;
    }
    const before = await progressCounts(s.db);
    const runner = embeddedRunner(s, { metrics: booted.metrics });
    await runner.start();
    await runner.enqueue("relay-webhooks", {});
    await runner.enqueue("poll-all", {});
    await runner.idle();
    await runner.close();
    const after = await progressCounts(s.db);
    const repos = await listWatchedRepos(s);
    const unreachable = repos.filter((r) => r.status !== "ok").map((r) => `${r.name} (${r.status})`);
    out.write(
      `hubwatch: polled ${repos.length} repo(s) with ${booted.hub.counter.requests} Hub request(s): ` +
        `${after.total - before.total} new revision(s), ${after.settled - before.settled} processed, ` +
        `${after.total - after.settled} pending\n`,
    );
    if (unreachable.length > 0) out.write(`  not reachable: ${unreachable.join(", ")}\n`);
    for (const f of runner.failures)
      out.write(`  failed: ${f.name} ${JSON.stringify(f.payload)}: ${f.error}\n`);
    return runner.failures.length > 0 ? 1 : 0;
  } finally {
    await booted.close();
  }
}

/** `hubwatch scheduler`: the one process whose cron ticks queue poll-all (distributed mode). */
export async function schedulerCommand(config: Config): Promise<number | undefined> {
  requireDistributed(config, "scheduler");
  const booted = await bootServices(config);
  await reachRedis(config, booted.services.log).catch(closeThenThrow(booted));
  const runner = distributedRunner(config, booted.services, { metrics: booted.metrics });
  const log = booted.services.log;
  const stopOps = await startOpsServer(config, booted.services.db, booted.metrics, log).catch(
    async (err: unknown) => {
      await runner.close();
      return closeThenThrow(booted)(err);
    },
  );
  const scheduler = startScheduler(config, jobs, runner, (err) => log.error({ err }, "tick failed"));
  log.info({ cron: config.HUBWATCH_POLL_CRON, relay: config.HUBWATCH_RELAY_CRON }, "scheduler started");
  onShutdown(
    async () => {
      await stopOps();
      await scheduler.stop();
      await runner.close();
      await booted.close();
    },
    (m) => log.info(m),
  );
  return undefined;
}

export type WorkerOptions = { concurrency?: number; lockMs?: number; stalledMs?: number };

/** `hubwatch worker`: consumes the BullMQ queues until SIGTERM/SIGINT (as many processes as you like). */
export async function workerCommand(config: Config, opts: WorkerOptions): Promise<number | undefined> {
  requireDistributed(config, "worker");
  const booted = await bootServices(config);
  await reachRedis(config, booted.services.log).catch(closeThenThrow(booted));
  const runner = distributedRunner(config, booted.services, {
    concurrency: opts.concurrency,
    lockDurationMs: opts.lockMs,
    stalledIntervalMs: opts.stalledMs,
    metrics: booted.metrics,
  });
  const log = booted.services.log;
  const stopOps = await startOpsServer(config, booted.services.db, booted.metrics, log).catch(
    async (err: unknown) => {
      await runner.close();
      return closeThenThrow(booted)(err);
    },
  );
  await runner.start();
  log.info({ concurrency: opts.concurrency ?? config.HUBWATCH_WORKER_CONCURRENCY }, "worker started");
  onShutdown(
    async () => {
      await stopOps();
      await runner.close();
      await booted.close();
    },
    (m) => log.info(m),
  );
  return undefined;
}

/**
 * `hubwatch run`: embedded all-in-one: scheduler ticks, the in-process runner (polling at start too) and
 * the HTTP surfaces (`serve`'s pages, APIs, probes and metrics), so one process owns the PGlite folder.
 */
export async function runCommand(
  config: Config,
  listen: { host?: string; port?: number; serve?: boolean } = {},
): Promise<number | undefined> {
  const serving = listen.serve !== false;
  if (serving) await assertCanListen(listen.host ?? config.HOST, listen.port ?? config.PORT);
  const booted = await bootServices(config);
  const runner = embeddedRunner(booted.services, { metrics: booted.metrics });
  const log = booted.services.log;
  await runner.start();
  const server = serving
    ? await serveBooted(config, booted, runner, listen).catch(async (err: unknown) => {
        await runner.close();
        return closeThenThrow(booted)(err);
      })
    : undefined;
  const scheduler = startScheduler(config, jobs, runner, (err) => log.error({ err }, "tick failed"));
  // Deliveries left due by the previous process (the outbox), then a poll.
  await runner.enqueue("relay-webhooks", {});
  await runner.enqueue("poll-all", {});
  if (server) process.stdout.write(`hubwatch: running (embedded), serving on ${server.url}\n`);
  log.info({ cron: config.HUBWATCH_POLL_CRON, store: booted.kind, url: server?.url }, "running (embedded)");
  onShutdown(
    async () => {
      await server?.close();
      await scheduler.stop();
      await runner.close();
      await booted.close();
    },
    (m) => log.info(m),
  );
  return undefined;
}

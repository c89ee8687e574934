import { rm } from "node:fs/promises";
import { join } from "node:path";
import { type Logger, pino } from "pino";
import type { JobRegistry } from "../../jobs/index.ts";
import type { Config } from "../config/env.ts";
import { type Booted, bootServices } from "../main/boot.ts";
import { embeddedRunner } from "../main/runners.ts";
import { onShutdown } from "../main/shutdown.ts";
import type { InProcessRunner } from "../queue/in-process-runner.ts";
import { PEFT_BASE } from "../replay-hub/fixtures/repos-peft.ts";
import { fixtureRepos, MISSING_REPO_ID, type ReplayHub, startReplayHub } from "../replay-hub/index.ts";
import { watchRepo } from "../services/watch-repos.ts";
import { writeOutputs } from "./demo-output.ts";
import { withProgress } from "./demo-progress.ts";
import { countStore, formatSummary, type HubCost } from "./demo-report.ts";
import { type DemoSubscriber, formatReceived, startDemoSubscriber } from "./demo-subscriber.ts";

type Out = NodeJS.WriteStream;
const UPDATE_REPO = "openai-community/gpt2";

/**
 * `npm run demo`: offline, on a fresh store (<out>/.demo-db, wiped each run). Starts the replay hub,
 * watches its fixture repos (and one the hub does not know), processes every revision, polls again
 * with nothing new (one owner listing per owner watched twice or more, one commits page per other repo), pushes a new revision and a rewritten history, then prints
 * a summary and writes validated OSV records and badges under <out>/. Exit 1 if any output is invalid.
 */
export async function demoCommand(
  config: Config,
  opts: { serve?: boolean; out: string },
  out: Out = process.stdout,
): Promise<number> {
  const demo = await openDemo(config, opts.out);
  let keepServing = false;
  try {
    const costs = await runScenario(demo, out);
    const code = await report(demo, costs, opts.out, out);
    await demo.subscriber.close();
    if (code === 0 && opts.serve) keepServing = await serve(config, demo.booted, demo.runner, demo.log);
    return code;
  } finally {
    if (!keepServing) {
      await demo.runner.close();
      await demo.booted.close();
      await demo.hub.close();
    }
  }
}

type Demo = {
  hub: ReplayHub;
  booted: Booted;
  runner: InProcessRunner<JobRegistry>;
  log: Logger;
  dbDir: string;
  subscriber: DemoSubscriber;
};

/** A replay hub, a fresh PGlite store in <out>/.demo-db, the in-process runner. */
async function openDemo(config: Config, outDir: string): Promise<Demo> {
  const dbDir = join(outDir, ".demo-db");
  await rm(dbDir, { recursive: true, force: true });
  // LFS files redirect to a second origin, as the real Hub sends them to its CDN.
  const hub = await startReplayHub({ cdn: true });
  // Findings are in the summary; the log would only interleave JSON lines with the progress display.
  const level = config.LOG_LEVEL === "info" ? "error" : config.LOG_LEVEL;
  const log: Logger = pino({ level }, pino.destination(2));
  const booted = await bootServices(config, { hubUrl: hub.url, database: { dataDir: dbDir }, log });
  const subscriber = await startDemoSubscriber(booted.services.db);
  // The demo's own subscriber listens on loopback.
  const services = Object.assign({}, booted.services, { webhookAllowPrivateTargets: true });
  return {
    hub,
    booted,
    runner: embeddedRunner(services, { metrics: booted.metrics }),
    log,
    dbDir,
    subscriber,
  };
}

type Costs = { first: HubCost; idle: HubCost; update: HubCost; repos: number };

/** Watch everything, process it all, poll again idle, push upstream changes, poll a third time. */
async function runScenario({ hub, booted, runner, dbDir }: Demo, out: Out): Promise<Costs> {
  const s = booted.services;
  const repos = [...hub.repoIds(), MISSING_REPO_ID];
  for (const repo of repos) await watchRepo(s, repo);
  await runner.start();
  out.write(`hubwatch demo: replay hub ${hub.url}, ${repos.length} repos, store ${dbDir}\n`);
  const pass = (label: string) => withProgress(s.db, out, label, () => pollAll(runner));
  const first = await measure(hub, () => pass("first poll"));
  const idle = await measure(hub, () => pollAll(runner));
  await pushUpdates(hub);
  const update = await measure(hub, () => pass("after upstream pushes"));
  return { first, idle, update, repos: repos.length };
}

/** Prints the summary, writes and validates out/; 1 if anything is invalid or a job failed. */
async function report(
  { booted, runner, subscriber }: Demo,
  costs: Costs,
  outDir: string,
  out: Out,
): Promise<number> {
  const db = booted.services.db;
  const note = `new ${UPDATE_REPO} and ${PEFT_BASE} revisions (config.json changed) and a force-push, ${costs.repos} repos polled`;
  const lines = formatSummary(await countStore(db), {
    first: costs.first,
    idle: { ...costs.idle, repos: costs.repos },
    update: costs.update,
    updateNote: note,
  });
  out.write(`\n${[...lines, ...formatReceived(subscriber)].join("\n")}\n`);
  const written = await writeOutputs(db, outDir);
  const where = (sub: string) => join(outDir, sub);
  out.write(
    `wrote ${written.osv} OSV record(s) to ${where("osv")}, ${written.badges} badge(s) to ${where("badges")}\n`,
  );
  for (const f of runner.failures)
    out.write(`job failed: ${f.name} ${JSON.stringify(f.payload)}: ${f.error}\n`);
  for (const bad of written.invalid) out.write(`INVALID ${bad}\n`);
  return written.invalid.length > 0 || runner.failures.length > 0 ? 1 : 0;
}

async function pollAll(runner: InProcessRunner<JobRegistry>): Promise<void> {
  await runner.enqueue("poll-all", {});
  await runner.idle();
}

async function measure(hub: ReplayHub, fn: () => Promise<unknown>): Promise<HubCost> {
  const from = hub.requestLog.length;
  const started = performance.now();
  await fn();
  const cost: HubCost = { requests: 0, bytes: 0, byRoute: {}, seconds: (performance.now() - started) / 1000 };
  for (const e of hub.requestLog.slice(from)) {
    cost.requests += 1;
    cost.bytes += e.bytes;
    const row = cost.byRoute[e.route] ?? { requests: 0, bytes: 0 };
    row.requests += 1;
    row.bytes += e.bytes;
    cost.byRoute[e.route] = row;
  }
  return cost;
}

/** Upstream activity for the third poll: a config change on one repo, the scripted force-push on another. */
async function pushUpdates(hub: ReplayHub): Promise<void> {
  const res = await fetch(`${hub.url}/${UPDATE_REPO}/resolve/main/config.json`);
  const config = (await res.json()) as Record<string, unknown>;
  const text = `${JSON.stringify({ ...config, n_positions: 2048, n_ctx: 2048 }, null, 2)}\n`;
  hub.addCommit(UPDATE_REPO, {
    title: "Extend context to 2048 positions",
    date: "2024-04-01T10:00:00Z",
    changes: { "config.json": { kind: "text", text } },
  });
  for (const spec of fixtureRepos()) if (spec.scriptedForcePush) hub.forcePush(spec.id);
  await pushBaseUpdate(hub);
}

/** The PEFT adapter's base gets the Instruct repo's own context length (32768): its subscribers hear of it. */
async function pushBaseUpdate(hub: ReplayHub): Promise<void> {
  const res = await fetch(`${hub.url}/${PEFT_BASE}/resolve/main/config.json`);
  const config = (await res.json()) as Record<string, unknown>;
  hub.addCommit(PEFT_BASE, {
    title: "Update config.json",
    date: "2025-03-01T10:00:00Z",
    changes: {
      "config.json": {
        kind: "text",
        text: `${JSON.stringify({ ...config, max_position_embeddings: 32768 }, null, 2)}\n`,
      },
    },
  });
}

async function serve(
  config: Config,
  booted: Booted,
  runner: InProcessRunner<JobRegistry>,
  log: Logger,
): Promise<boolean> {
  // Loaded only with --serve: the HTTP stack is not needed otherwise.
  const { startServer } = await import("./serve-command.ts");
  const server = await startServer({
    config,
    db: booted.services.db,
    listen: booted.listen,
    runner,
    log,
    metrics: booted.metrics.registry,
  });
  process.stdout.write(`hubwatch demo: serving the results on ${server.url} (Ctrl-C to stop)\n`);
  onShutdown(async () => {
    await server.close();
    await runner.close();
    await booted.close();
  });
  return true;
}

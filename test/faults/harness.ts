/**
 * Fault-suite plumbing: a replay hub, a fresh PostgreSQL database, the real pipeline services with a
 * Hub client whose timeouts and backoffs are short (so every fault test takes seconds), the in-process
 * runner with the real job registry (backoffs scaled down), and queries that read the store's state.
 */
import pg from "pg";
import { pino } from "pino";
import { jobs } from "../../jobs/index.ts";
import { loadConfig } from "../../src/config/env.ts";
import { createHubClient, type HubClient } from "../../src/hub/client.ts";
import { createInProcessRunner, type InProcessRunner } from "../../src/queue/in-process-runner.ts";
import {
  makeSyntheticRepos,
  type ReplayHub,
  type RepoSpec,
  startReplayHub,
} from "../../src/replay-hub/index.ts";
import type { PipelineServices } from "../../src/services/deps.ts";
import { hubPortFrom } from "../../src/services/hub-port.ts";
import { watchRepo } from "../../src/services/watch-repos.ts";
import { freshPgDatabase, type PgTestDatabase } from "../helpers/db.ts";

/** Client settings for fault tests: a slow answer past 400 ms is a timeout; retries wait milliseconds. */
export const FAST_HUB = { timeoutMs: 400, attempts: 2, retryBaseMs: 5 } as const;

export type Pipeline = {
  hub: ReplayHub;
  db: PgTestDatabase;
  client: HubClient;
  services: PipelineServices;
  runner: InProcessRunner;
  sql: pg.Client;
  /** One scheduler tick: poll-all, and wait until every job it caused has finished. */
  cycle(): Promise<void>;
  close(): Promise<void>;
};

/** Three small healthy repos (synthetic/model-0000N, 4 commits each) plus any `extra` repos. */
export function healthyRepos(count = 3): RepoSpec[] {
  return makeSyntheticRepos({ count, revisionsEach: 4 });
}

export async function startPipeline(opts: {
  repos: RepoSpec[];
  watch?: string[];
  hubToken?: string;
  env?: Record<string, string>;
}): Promise<Pipeline> {
  const hub = await startReplayHub({ repos: opts.repos });
  const db = await freshPgDatabase({ poolSize: 4 });
  const client = createHubClient({ hubUrl: hub.url, ...FAST_HUB, accessToken: opts.hubToken });
  const services: PipelineServices = {
    config: loadConfig({ HF_ENDPOINT: hub.url, LOG_LEVEL: "silent", ...opts.env }),
    db: db.db,
    hub: hubPortFrom(client),
    log: pino({ level: "silent" }),
    now: () => new Date(),
    fetch: globalThis.fetch,
  };
  // Backoffs (10 s base) and 429 pauses become milliseconds; attempts stay as configured per job.
  const runner = createInProcessRunner({ jobs, services, concurrency: 4, delayScale: 0.001 });
  await runner.start();
  for (const name of opts.watch ?? opts.repos.map((r) => r.id)) await watchRepo(services, name);
  const sql = new pg.Client({ connectionString: db.url });
  await sql.connect();
  return {
    hub,
    db,
    client,
    services,
    runner,
    sql,
    async cycle() {
      await runner.enqueue("poll-all", {});
      await runner.idle();
    },
    async close() {
      await runner.close();
      await sql.end();
      await hub.close();
      await db.close();
    },
  };
}

export type RevisionRow = {
  sha: string;
  status: string;
  error: string | null;
  force_pushed_away: boolean;
  seq: number;
};

export async function revisionsOf(p: Pipeline, repo: string): Promise<RevisionRow[]> {
  const { rows } = await p.sql.query<RevisionRow>(
    `select r.sha, r.status, r.error, r.force_pushed_away, r.seq from revisions r join repos o on o.id = r.repo_id
     where o.name = $1 order by r.seq`,
    [repo],
  );
  return rows;
}

export async function findingsOf(
  p: Pipeline,
  repo: string,
): Promise<{ sha: string | null; kind: string; message: string }[]> {
  const { rows } = await p.sql.query(
    `select f.sha, f.kind, f.message from findings f join repos o on o.id = f.repo_id where o.name = $1 order by f.id`,
    [repo],
  );
  return rows;
}

export async function repoStatus(
  p: Pipeline,
  repo: string,
): Promise<{ status: string; status_detail: string | null }> {
  const { rows } = await p.sql.query(`select status, status_detail from repos where name = $1`, [repo]);
  return rows[0];
}

/** Every upstream revision of `repo` is recorded once and processed (done). */
export async function expectAllDone(p: Pipeline, repo: string): Promise<void> {
  const rows = await revisionsOf(p, repo);
  const upstream = p.hub.history(repo).map((c) => c.sha);
  const live = rows.filter((r) => !r.force_pushed_away);
  if (live.map((r) => r.sha).join() !== upstream.join())
    throw new Error(
      `${repo}: recorded ${live.map((r) => r.sha.slice(0, 7))} vs upstream ${upstream.map((s) => s.slice(0, 7))}`,
    );
  const notDone = live.filter((r) => r.status !== "done");
  if (notDone.length) throw new Error(`${repo}: not done: ${JSON.stringify(notDone)}`);
}

/**
 * Nothing half-written: a done revision has its manifest, and an estimate when it has a config.json; a pending or failed one has
 * no diff rows and no estimate; no advisory is duplicated per (repo, introducing revision); every
 * tracked file of a done revision that is small enough has its artifact.
 */
export async function storeInvariants(p: Pipeline): Promise<string[]> {
  const problems: string[] = [];
  const q = async (label: string, text: string) => {
    const { rows } = await p.sql.query(text);
    if (rows.length) problems.push(`${label}: ${JSON.stringify(rows.slice(0, 3))}`);
  };
  await q(
    "done revision without manifest",
    `select sha from revisions r where status = 'done' and not exists (select 1 from revision_files f where f.revision_id = r.id)`,
  );
  await q(
    "done revision with config.json but no estimate",
    `select sha from revisions r where status = 'done'
       and exists (select 1 from revision_files f where f.revision_id = r.id and f.path = 'config.json')
       and not exists (select 1 from estimates e where e.revision_id = r.id)`,
  );
  await q(
    "pending revision with changes",
    `select sha from revisions r where status = 'pending' and exists (select 1 from changes c where c.revision_id = r.id)`,
  );
  await q(
    "pending revision with estimate",
    `select sha from revisions r where status = 'pending' and exists (select 1 from estimates e where e.revision_id = r.id)`,
  );
  await q(
    "failed revision without reason",
    `select sha from revisions where status = 'failed' and (error is null or error = '')`,
  );
  await q(
    "duplicate advisory",
    `select repo_id, introduced_sha, count(*) from advisories group by 1, 2 having count(*) > 1`,
  );
  return problems;
}

/** Counts of requests in the replay hub's log matching a predicate. */
export function requestsWhere(hub: ReplayHub, pred: (e: ReplayHub["requestLog"][number]) => boolean): number {
  return hub.requestLog.filter(pred).length;
}

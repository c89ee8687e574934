/**
 * Fault-suite plumbing: a replay hub, a fresh PostgreSQL database, the real pipeline services with a
 * Hub client whose timeouts and backoffs are short (so every fault test takes seconds), the in-process
 * runner with the real job registry (backoffs scaled down), and queries that read the store's state.
 */
import pg from "pg";
import { pino } from "pino";
import { type JobRegistry, jobs } from "../../jobs/index.ts";
import { loadConfig } from "../../src/config/env.ts";
import { createHubBudget, parseBudget } from "../../src/hub/budget.ts";
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
const FAST_HUB = { timeoutMs: 400, attempts: 2, retryBaseMs: 5 } as const;

export type Pipeline = {
  hub: ReplayHub;
  db: PgTestDatabase;
  client: HubClient;
  services: PipelineServices;
  runner: InProcessRunner<JobRegistry>;
  sql: pg.Client;
  /** One scheduler tick: poll-all, and wait until every job it caused has finished. */
  cycle(): Promise<void>;
  close(): Promise<void>;
};

/** The healthy repo a fault test aims at, and the ones that must go on meanwhile (healthyRepos() names). */
export const FAULTED_REPO = "synthetic/model-00000";
export const OTHER_REPOS = ["synthetic/model-00001", "synthetic/model-00002"];

/** Three small healthy repos (synthetic/model-0000N, 4 commits each) plus any `extra` repos. */
export function healthyRepos(count = 3): RepoSpec[] {
  return makeSyntheticRepos({ count, revisionsEach: 4 });
}

export async function startPipeline(opts: {
  repos: RepoSpec[];
  watch?: string[];
  hubToken?: string;
  env?: Record<string, string>;
  /** Replay-hub realism: LFS reads redirected to a CDN origin; an enforced quota ("1000/300"). */
  cdn?: boolean;
  quota?: string;
  /** hubwatch's own API budget ("40/4"); resolvers get five times as many. Unset: no pacing. */
  budget?: string;
  /** Extra fields for the services bag (e.g. the webhook jobs' retry delays). */
  extraServices?: Record<string, unknown>;
}): Promise<Pipeline> {
  const hub = await startReplayHub({ repos: opts.repos, cdn: opts.cdn, quota: opts.quota });
  const db = await freshPgDatabase({ poolSize: 4 });
  const budget = opts.budget ? parseBudget(opts.budget) : undefined;
  const client = createHubClient({
    hubUrl: hub.url,
    ...FAST_HUB,
    accessToken: opts.hubToken,
    budget: budget && createHubBudget({ api: budget, resolvers: { ...budget, limit: budget.limit * 5 } }),
  });
  const config = loadConfig({ HF_ENDPOINT: hub.url, LOG_LEVEL: "silent", ...opts.env });
  const services: PipelineServices = {
    config,
    db: db.db,
    hub: hubPortFrom(client, { backfillDepth: config.HUBWATCH_BACKFILL_DEPTH }),
    log: pino({ level: "silent" }),
    now: () => new Date(),
    fetch: globalThis.fetch,
  };
  // Backoffs (10 s base) and 429 pauses become milliseconds; attempts stay as configured per job.
  const runner = createInProcessRunner({
    jobs,
    services: { ...services, ...opts.extraServices },
    concurrency: 4,
    delayScale: 0.001,
  });
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

type RevisionRow = {
  sha: string;
  status: string;
  error: string | null;
  force_pushed_away: boolean;
  seq: number;
};

/** What the store and replay hub look like from outside: enough for the queries below. */
type Observed = Pick<Pipeline, "sql" | "hub">;

export async function revisionsOf(p: Pick<Pipeline, "sql">, repo: string): Promise<RevisionRow[]> {
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
export async function expectAllDone(p: Observed, repo: string): Promise<void> {
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
export async function storeInvariants(p: Pick<Pipeline, "sql">): Promise<string[]> {
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

type Outcome = {
  revisions: Record<string, string[]>;
  advisories: string[];
  findings: string[];
};

/** The end state that must not depend on how the run went: revisions and statuses, advisories, findings. */
export async function outcomeOf(sql: pg.Client): Promise<Outcome> {
  const revs = await sql.query(
    `select o.name, r.sha, r.status, r.force_pushed_away from revisions r join repos o on o.id = r.repo_id order by o.name, r.seq`,
  );
  const revisions: Record<string, string[]> = {};
  for (const r of revs.rows) {
    const list = revisions[r.name] ?? [];
    list.push(`${r.sha.slice(0, 8)}:${r.status}${r.force_pushed_away ? ":gone" : ""}`);
    revisions[r.name] = list;
  }
  const adv = await sql.query(
    `select o.name, a.introduced_sha, a.fixed_sha, a.status from advisories a join repos o on o.id = a.repo_id
     order by o.name, a.introduced_sha`,
  );
  const fnd = await sql.query(
    `select o.name, f.sha, f.kind from findings f join repos o on o.id = f.repo_id order by o.name, f.sha, f.kind`,
  );
  return {
    revisions,
    advisories: adv.rows.map(
      (a) => `${a.name}@${a.introduced_sha.slice(0, 8)}..${a.fixed_sha?.slice(0, 8) ?? ""}:${a.status}`,
    ),
    findings: fnd.rows.map((f) => `${f.name}@${f.sha?.slice(0, 8) ?? "-"}:${f.kind}`),
  };
}

/** The outcome of a clean, in-process run over the same repos: what a faulted run must end equal to. */
export async function referenceOutcome(repos: RepoSpec[]): Promise<Outcome> {
  const ref = await startPipeline({ repos });
  try {
    await ref.cycle();
    return await outcomeOf(ref.sql);
  } finally {
    await ref.close();
  }
}

/** Polls `check` until true (default 60 s): for runs driven by other processes. */
export async function waitFor(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs = 60_000,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

/** Every upstream revision of every repo in `hub` recorded and settled (none pending). */
export async function allSettled(p: Observed): Promise<boolean> {
  const { rows } = await p.sql.query(
    `select o.name, count(*) filter (where r.status <> 'pending')::int as settled from repos o
     left join revisions r on r.repo_id = o.id and not r.force_pushed_away group by o.name`,
  );
  return rows.every((r) => r.settled === p.hub.history(r.name).length);
}

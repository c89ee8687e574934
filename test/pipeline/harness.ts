/**
 * Pipeline-test plumbing: the replay hub with its fixture repos (plus one it does not know), the real
 * services over a given store, and a normalized dump of the store for "ends the same" comparisons.
 */
import { pino } from "pino";
import { type JobRegistry, jobs } from "../../jobs/index.ts";
import { loadConfig } from "../../src/config/env.ts";
import { ESTIMATOR_VERSION } from "../../src/core/estimator/estimate.ts";
import { schema } from "../../src/db/index.ts";
import type { Db } from "../../src/db/types.ts";
import type { HubClient } from "../../src/hub/client.ts";
import { servicesFor } from "../../src/main/boot.ts";
import { createInProcessRunner, type InProcessRunner } from "../../src/queue/in-process-runner.ts";
import {
  MISSING_REPO_ID,
  type ReplayHub,
  type RepoSpec,
  startReplayHub,
} from "../../src/replay-hub/index.ts";
import { listChangesByRevision } from "../../src/repositories/changes.repository.ts";
import { getEstimate } from "../../src/repositories/estimates.repository.ts";
import { getRepoByName } from "../../src/repositories/repos.repository.ts";
import { listRevisionsByRepo } from "../../src/repositories/revisions-read.repository.ts";
import type { PipelineServices } from "../../src/services/deps.ts";
import { watchRepo } from "../../src/services/watch-repos.ts";
import { freshPgliteDatabase, type TestDatabase } from "../helpers/db.ts";

export const FORCE_PUSH_REPO = "Qwen/Qwen3-4B-Instruct-2507";
export const GATED_REPO = "meta-llama/Llama-3.2-3B";

export function pipelineServices(db: Db, hub: ReplayHub): { services: PipelineServices; client: HubClient } {
  const config = loadConfig({ HF_ENDPOINT: hub.url, LOG_LEVEL: "silent" });
  const { services, hub: client } = servicesFor(config, db, { log: pino({ level: "silent" }) });
  return { services, client };
}

type ProcessedRepo = {
  hub: ReplayHub;
  store: TestDatabase;
  s: PipelineServices;
  runner: InProcessRunner<JobRegistry>;
};

/** One replay-hub repo watched and processed to the end on PGlite by the real job registry (still running). */
export async function processedRepo(spec: RepoSpec, name: string): Promise<ProcessedRepo> {
  const hub = await startReplayHub({ repos: [spec] });
  const store = await freshPgliteDatabase();
  const s = pipelineServices(store.db, hub).services;
  const runner = createInProcessRunner({ jobs, services: s, delayScale: 0.001 });
  await runner.start();
  await watchRepo(s, name);
  await runner.enqueue("poll-all", {});
  await runner.idle();
  return { hub, store, s, runner };
}

/** Stops what processedRepo started (any part may be missing when its setup failed). */
export async function closeProcessed(p: Partial<ProcessedRepo>): Promise<void> {
  await p.runner?.close();
  await p.store?.close();
  await p.hub?.close();
}

/**
 * The i-th revision (oldest first) of a watched repo, its status and its recorded file changes as
 * [path, category, kind, summary] rows, and its estimate at the current estimator version.
 */
export async function revisionRows(s: PipelineServices, name: string, i: number) {
  const repo = await getRepoByName(s.db, name);
  if (!repo) throw new Error(`${name} is not watched`);
  const r = (await listRevisionsByRepo(s.db, repo.id))[i];
  if (!r) throw new Error(`${name} has no revision ${i}`);
  const changes = (await listChangesByRevision(s.db, r.id)).map((c) => [
    c.path,
    c.category,
    c.kind,
    c.summary,
  ]);
  const estimate = (await getEstimate(s.db, r.id, ESTIMATOR_VERSION))?.result;
  return { repo, revision: r, sha: r.sha, status: r.status, changes, estimate };
}

/** Watches every fixture repo and one the hub does not know (404). */
export async function watchFixtures(s: PipelineServices, hub: ReplayHub): Promise<string[]> {
  const names = [...hub.repoIds(), MISSING_REPO_ID];
  for (const name of names) await watchRepo(s, name);
  return names;
}

/**
 * Hub requests that arrived while `fn` ran, by arrival time: the hub logs a request when its response
 * closes, which can be a moment after the client has moved on.
 */
export async function requestsDuring<T>(hub: ReplayHub, fn: () => Promise<T>) {
  const since = Date.now();
  const value = await fn();
  await new Promise((r) => setTimeout(r, 50));
  return { value, requests: hub.requestLog.filter((r) => r.at >= since) };
}

type Row = Record<string, unknown>;

/**
 * Every table the pipeline writes, as sorted lines of natural keys and content (no surrogate ids,
 * timestamps or advisory numbers, which depend on processing order): equal dumps, equal stores.
 */
export async function dumpStore(db: Db): Promise<Record<string, string[]>> {
  const repos = new Map((await db.select().from(schema.repos)).map((r) => [r.id, r.name]));
  const revs = new Map(
    (await db.select().from(schema.revisions)).map((r) => [r.id, `${repos.get(r.repoId)}@${r.sha}`]),
  );
  const line = (...parts: unknown[]) =>
    parts.map((p) => (typeof p === "string" ? p : JSON.stringify(p))).join(" | ");
  const sorted = (rows: Row[], f: (r: never) => string) => rows.map((r) => f(r as never)).sort();
  return {
    repos: sorted(await db.select().from(schema.repos), (r: typeof schema.repos.$inferSelect) =>
      line(r.name, r.status, r.lastSeenSha),
    ),
    revisions: sorted(await db.select().from(schema.revisions), (r: typeof schema.revisions.$inferSelect) =>
      line(revs.get(r.id), r.status, r.error, r.parentSha, r.forcePushedAway),
    ),
    revisionFiles: sorted(
      await db.select().from(schema.revisionFiles),
      (r: typeof schema.revisionFiles.$inferSelect) =>
        line(revs.get(r.revisionId), r.path, r.oid, r.artifactHash),
    ),
    artifacts: sorted(await db.select().from(schema.artifacts), (r: typeof schema.artifacts.$inferSelect) =>
      line(r.hash, r.kind),
    ),
    changes: sorted(await db.select().from(schema.changes), (r: typeof schema.changes.$inferSelect) =>
      line(revs.get(r.revisionId), r.path, r.category, r.kind, r.summary, r.promptChanged),
    ),
    behaviorChanges: sorted(
      await db.select().from(schema.behaviorChanges),
      (r: typeof schema.behaviorChanges.$inferSelect) =>
        line(revs.get(r.revisionId), r.kind, r.summary, r.detail),
    ),
    estimates: sorted(await db.select().from(schema.estimates), (r: typeof schema.estimates.$inferSelect) =>
      line(revs.get(r.revisionId), r.estimatorVersion, r.paramsTotal, r.error),
    ),
    advisories: sorted(
      await db.select().from(schema.advisories),
      (r: typeof schema.advisories.$inferSelect) =>
        line(repos.get(r.repoId), r.introducedSha, r.fixedSha, r.status),
    ),
    badges: sorted(await db.select().from(schema.badges), (r: typeof schema.badges.$inferSelect) =>
      line(repos.get(r.repoId), r.metric, r.json),
    ),
    findings: sorted(await db.select().from(schema.findings), (r: typeof schema.findings.$inferSelect) =>
      line(repos.get(r.repoId), r.sha, r.kind),
    ),
    events: sorted(
      await db.select().from(schema.webhookEvents),
      (r: typeof schema.webhookEvents.$inferSelect) => line(r.id, r.type),
    ),
  };
}

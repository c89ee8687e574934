/**
 * `npm run bench:api`: autocannon (50 connections, load generated in a worker thread) against the
 * HTTP app on a real PostgreSQL seeded with the test history: badge JSON, POST /v1/query at a commit,
 * a repo's history page, and a bare Fastify route on the same machine for reference.
 * Env: BENCH_DATABASE_URL (default postgres://$USER@127.0.0.1:5432/hubwatch_bench, recreated),
 * BENCH_SECONDS (default 10) per route and round, BENCH_ROUNDS (default 2; each route keeps its best
 * round). Rate limiting is off (it would answer 429s, not measure the routes).
 * Prints a table, then its figures as one JSON line last.
 */
import { userInfo } from "node:os";
import autocannon from "autocannon";
import Fastify from "fastify";
import pg from "pg";
import { createDatabase } from "../src/db/client.ts";
import { migrateDatabase } from "../src/db/migrate.ts";
import { watchStoreChanges } from "../src/db/store-changes.ts";
import { createApp } from "../src/http/app.ts";
import { SHA, seedHistory } from "../test/http/seed.ts";

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const dbUrl =
  process.env.BENCH_DATABASE_URL ?? `postgres://${userInfo().username}@127.0.0.1:5432/hubwatch_bench`;

async function recreate(url: string) {
  const u = new URL(url);
  const name = u.pathname.slice(1);
  u.pathname = "/postgres";
  const c = new pg.Client({ connectionString: u.toString() });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await c.query(`CREATE DATABASE "${name}"`);
  await c.end();
}

type Target = {
  name: string;
  url: string;
  method?: "GET" | "POST";
  body?: string;
  headers?: Record<string, string>;
};

/** One second of load on a route, not counted: JIT, pool connections, the first cache fill. */
async function warm(t: Target) {
  await autocannon({
    url: t.url,
    method: t.method ?? "GET",
    body: t.body,
    headers: t.headers,
    connections: 50,
    duration: 1,
  });
}

async function measure(t: Target) {
  const r = await autocannon({
    url: t.url,
    method: t.method ?? "GET",
    body: t.body,
    headers: t.headers,
    connections: 50,
    duration: seconds,
    workers: 1,
  });
  const ok = r["2xx"];
  return {
    route: t.name,
    rps: Math.round(r.requests.average),
    p50_ms: r.latency.p50,
    p99_ms: r.latency.p99,
    ok,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
  };
}

await recreate(dbUrl);
const handle = await createDatabase({ databaseUrl: dbUrl, poolSize: 20 });
await migrateDatabase(handle.db, handle.kind);
await seedHistory(handle.db);
// Served as `hubwatch serve` does: responses cached per store generation (LISTEN hubwatch_store).
const generation = await watchStoreChanges(handle.listen);
const app = await createApp({ db: handle.db, rateLimit: false, storeGeneration: generation.current });
const base = await app.listen({ port: 0, host: "127.0.0.1" });
// The same app without a generation: every request reads PostgreSQL.
const uncached = await createApp({ db: handle.db, rateLimit: false });
const uncachedBase = await uncached.listen({ port: 0, host: "127.0.0.1" });
const bare = Fastify();
bare.get("/bare", async () => ({ ok: true }));
const bareBase = await bare.listen({ port: 0, host: "127.0.0.1" });

const json = { "content-type": "application/json" };
const query = JSON.stringify({ package: { purl: `pkg:huggingface/acme/tiny-lm@${SHA.C}` } });
/** Routes with a target, as a share of the bare route's requests per second in the same run. */
const TARGETS: Record<string, number> = { "badge json": 0.8, "POST /v1/query": 0.5, "history page": 0.2 };
const targets: Target[] = [
  { name: "bare fastify route", url: `${bareBase}/bare` },
  { name: "badge json", url: `${base}/badges/acme/tiny-lm/params.json` },
  { name: "badge svg", url: `${base}/badges/acme/tiny-lm/params.svg` },
  { name: "POST /v1/query", url: `${base}/v1/query`, method: "POST", headers: json, body: query },
  { name: "history page", url: `${base}/repos/acme/tiny-lm` },
  { name: "badge json (uncached)", url: `${uncachedBase}/badges/acme/tiny-lm/params.json` },
  {
    name: "POST /v1/query (uncached)",
    url: `${uncachedBase}/v1/query`,
    method: "POST",
    headers: json,
    body: query,
  },
  { name: "history page (uncached)", url: `${uncachedBase}/repos/acme/tiny-lm` },
];
// Every route is warmed before any is measured, the slow uncached ones first and the bare route last. Then
// BENCH_ROUNDS rounds measure every route in turn, and each route keeps its best round: on this shared
// 2-vCPU machine the same route read 19k req/s at the start of a run and 30k at its end, so one pass in a
// fixed order favours whichever routes come late.
for (const t of [...targets].reverse()) await warm(t);
const best = new Map<string, Awaited<ReturnType<typeof measure>>>();
for (let round = 0; round < rounds; round++)
  for (const t of targets) {
    const r = await measure(t);
    const kept = best.get(t.name);
    if (!kept || r.rps > kept.rps) best.set(t.name, r);
  }
const results = targets.map((t) => best.get(t.name)!);
await app.close();
await generation.stop();
await uncached.close();
await bare.close();
await handle.close();

const bareRps = results[0]?.rps ?? 1;
const rows = results.map((r) => {
  const target = TARGETS[r.route];
  const ratio = Math.round((r.rps / bareRps) * 100) / 100;
  const met = target === undefined ? null : ratio >= target && r.p99_ms < 20;
  return { ...r, ratio_to_bare: ratio, target_ratio: target ?? null, met };
});
console.log("| route | req/s | share of bare | target | p50 ms | p99 ms | 2xx | non-2xx | errors |");
console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
for (const r of rows)
  console.log(
    `| ${r.route} | ${r.rps} | ${r.ratio_to_bare} | ${r.target_ratio === null ? "" : `>= ${r.target_ratio}, p99 < 20 ms${r.met ? " (met)" : " (missed)"}`} | ${r.p50_ms} | ${r.p99_ms} | ${r.ok} | ${r.non2xx} | ${r.errors} |`,
  );
console.log(
  JSON.stringify({ bench: "api", connections: 50, seconds, rounds, node: process.version, results: rows }),
);

import { sql } from "drizzle-orm";
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StoreGeneration, watchStoreChanges } from "../../src/db/store-changes.ts";
import { createApp } from "../../src/http/app.ts";
import { registerResponseReplay } from "../../src/http/response-replay.ts";
import { freshPgDatabase, type PgTestDatabase } from "../helpers/db.ts";
import { SHA, seedHistory } from "./seed.ts";

// Whole responses replayed per store generation (src/http/response-replay.ts): the same bytes and headers
// as the route's own answer, fresh after a commit, still rate-limited, still 304 for a current client copy.

let db: PgTestDatabase;
let generation: StoreGeneration;
const apps: FastifyInstance[] = [];

async function serve(opts: { rateLimit?: { max: number; timeWindowMs: number } | false } = {}) {
  const app = await createApp({
    db: db.db,
    rateLimit: opts.rateLimit ?? false,
    storeGeneration: generation.current,
  });
  apps.push(app);
  return app;
}

/** What a client sees, less the Date header (it moves with the clock). */
const seen = (r: LightMyRequestResponse) => {
  const { date: _date, ...headers } = r.headers;
  return { status: r.statusCode, headers, body: r.rawPayload.toString("base64") };
};

beforeAll(async () => {
  db = await freshPgDatabase();
  await seedHistory(db.db);
  generation = await watchStoreChanges(db.listen);
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await generation?.stop();
  await db?.close();
});

const REPLAYED = [
  "/badges/acme/tiny-lm/params.json",
  "/badges/acme/tiny-lm/params.svg?style=flat-square",
  "/repos/acme/tiny-lm",
  `/repos/acme/tiny-lm/revisions/${SHA.C}`,
  "/",
  "/osv/feed.atom",
  "/osv/modified_id.csv",
  "/osv/all.zip",
];

describe("whole-response replay per store generation", () => {
  it("answers a repeated request with the same status, headers and bytes as the route did", async () => {
    const app = await serve();
    const plain = await createApp({ db: db.db, rateLimit: false });
    apps.push(plain);
    for (const url of REPLAYED) {
      const first = await app.inject({ url });
      expect(first.statusCode, url).toBe(200);
      expect(seen(await app.inject({ url })), url).toEqual(seen(first));
      expect(seen(await plain.inject({ url })), url).toEqual(seen(first));
    }
  });

  it("keeps serving the kept answer until the generation moves, then the new one", async () => {
    const app = await serve();
    const url = "/badges/acme/tiny-lm/params.svg";
    const before = (await app.inject({ url })).body;
    await db.db.execute(sql`alter table badges disable trigger badges_store_changed`);
    await db.db.execute(sql`update badges set json = jsonb_set(json, '{message}', '"silent"')
      where metric = 'params' and repo_id = (select id from repos where name = 'acme/tiny-lm')`);
    await db.db.execute(sql`alter table badges enable trigger badges_store_changed`);
    expect((await app.inject({ url })).body).toBe(before);

    const at = generation.current();
    await db.db.execute(sql`update badges set json = jsonb_set(json, '{message}', '"7.7B"')
      where metric = 'params' and repo_id = (select id from repos where name = 'acme/tiny-lm')`);
    const end = Date.now() + 5_000;
    while (generation.current() === at && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
    const after = (await app.inject({ url })).body;
    expect(after).toContain("7.7B");
    expect(after).not.toBe(before);
  });

  it("answers 304 to a client whose copy is current, and keys pages on the Host", async () => {
    const app = await serve();
    const url = "/repos/acme/tiny-lm";
    const first = await app.inject({ url });
    const again = await app.inject({ url, headers: { "if-none-match": first.headers.etag as string } });
    expect(again.statusCode).toBe(304);
    for (const host of ["a.example", "b.example", "a.example"]) {
      const page = await app.inject({ url, headers: { host } });
      expect(page.body).toContain(`http://${host}/badges/acme/tiny-lm/`);
    }
  });

  it("still applies the per-IP rate limit to replayed answers", async () => {
    const app = await serve({ rateLimit: { max: 3, timeWindowMs: 60_000 } });
    const codes: number[] = [];
    const remaining: unknown[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await app.inject({ url: "/badges/acme/tiny-lm/params.json" });
      codes.push(r.statusCode);
      remaining.push(r.headers["x-ratelimit-remaining"]);
    }
    expect(codes).toEqual([200, 200, 200, 429, 429]);
    // Each answer carries its own count, not the one kept with the first answer.
    expect(remaining.slice(0, 3)).toEqual(["2", "1", "0"]);
  });
});

describe("replay memory bound", () => {
  it("drops the oldest kept answers once the bodies pass the byte budget", async () => {
    const app = Fastify();
    apps.push(app);
    registerResponseReplay(app, () => 1, 100);
    const calls: Record<string, number> = { a: 0, b: 0 };
    for (const name of ["a", "b"] as const)
      app.get(`/${name}`, { config: { replay: true } }, async () => {
        calls[name] = (calls[name] ?? 0) + 1;
        return name.repeat(60);
      });
    for (const url of ["/a", "/a", "/b", "/b", "/a"])
      expect((await app.inject({ url })).statusCode).toBe(200);
    // /a was kept, then dropped when /b's 60 bytes joined its 60 past the 100-byte budget.
    expect(calls).toEqual({ a: 2, b: 1 });
  });
});

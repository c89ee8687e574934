import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StoreGeneration, watchStoreChanges } from "../../src/db/store-changes.ts";
import { createApp } from "../../src/http/app.ts";
import { freshPgDatabase, freshPgliteDatabase, type PgTestDatabase } from "../helpers/db.ts";
import { SHA, seedHistory } from "./seed.ts";

// Two serve processes on one PostgreSQL, each caching responses per store generation: a commit by anyone
// (here a third connection, as a worker would) reaches both through LISTEN/NOTIFY.

let db: PgTestDatabase;
const apps: FastifyInstance[] = [];
const generations: StoreGeneration[] = [];

async function serveProcess(): Promise<{ app: FastifyInstance; generation: StoreGeneration }> {
  const generation = await watchStoreChanges(db.listen);
  const app = await createApp({ db: db.db, rateLimit: false, storeGeneration: generation.current });
  apps.push(app);
  generations.push(generation);
  return { app, generation };
}

async function until(what: string, ok: () => boolean): Promise<void> {
  const end = Date.now() + 5_000;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const badgeMessage = async (app: FastifyInstance) =>
  (await app.inject({ url: "/badges/acme/tiny-lm/params.json" })).json().message as string;
const setBadgeMessage = (message: string) =>
  db.db.execute(sql`update badges set json = jsonb_set(json, '{message}', to_jsonb(${message}::text))
    where metric = 'params' and repo_id = (select id from repos where name = 'acme/tiny-lm')`);

beforeAll(async () => {
  db = await freshPgDatabase();
  await seedHistory(db.db);
});
afterAll(async () => {
  for (const app of apps) await app.close();
  for (const g of generations) await g.stop();
  await db?.close();
});

describe("response cache keyed on the store generation", () => {
  it("serves cached answers until a commit anywhere moves the generation, in every process", async () => {
    const a = await serveProcess();
    const b = await serveProcess();
    const before = await badgeMessage(a.app);
    expect(await badgeMessage(b.app)).toBe(before);

    // A write that does not notify (its trigger off) stays invisible: the answer really is cached.
    await db.db.execute(sql`alter table badges disable trigger badges_store_changed`);
    await setBadgeMessage("silent");
    await db.db.execute(sql`alter table badges enable trigger badges_store_changed`);
    expect(await badgeMessage(a.app)).toBe(before);
    const uncached = await createApp({ db: db.db, rateLimit: false });
    apps.push(uncached);
    expect(await badgeMessage(uncached)).toBe("silent");

    // A normal commit notifies: both processes drop what they cached.
    const [ga, gb] = [a.generation.current(), b.generation.current()];
    await setBadgeMessage("9.9B");
    await until(
      "both generations to move",
      () => a.generation.current() !== ga && b.generation.current() !== gb,
    );
    expect(await badgeMessage(a.app)).toBe("9.9B");
    expect(await badgeMessage(b.app)).toBe("9.9B");
  });

  it("caches OSV answers and pages the same way, with ETag/304 on pages", async () => {
    const { app } = await serveProcess();
    const body = { package: { purl: `pkg:huggingface/acme/tiny-lm@${SHA.C}` } };
    const first = await app.inject({ method: "POST", url: "/v1/query", payload: body });
    const second = await app.inject({ method: "POST", url: "/v1/query", payload: body });
    expect(second.json()).toEqual(first.json());
    const page = await app.inject({ url: "/repos/acme/tiny-lm" });
    expect(page.statusCode).toBe(200);
    const etag = page.headers.etag as string;
    expect(etag).toMatch(/^"/);
    const again = await app.inject({ url: "/repos/acme/tiny-lm", headers: { "if-none-match": etag } });
    expect(again.statusCode).toBe(304);
    expect((await app.inject({ url: "/repos/acme/nothing-here" })).statusCode).toBe(404);
  });

  it("works on embedded PGlite too (LISTEN in process)", async () => {
    const lite = await freshPgliteDatabase();
    const generation = await watchStoreChanges(lite.listen);
    const at = generation.current();
    await seedHistory(lite.db);
    await until("the generation to move", () => generation.current() !== at);
    await generation.stop();
    await lite.close();
  });
});

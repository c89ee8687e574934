import { drizzle } from "drizzle-orm/node-postgres";
import type { FastifyInstance } from "fastify";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isStoreUnavailable } from "../../src/db/errors.ts";
import * as schema from "../../src/db/schema/index.ts";
import type { Db } from "../../src/db/types.ts";
import { createApp } from "../../src/http/app.ts";
import { freePort } from "../faults/processes.ts";

// A store that cannot be reached is a 503 the client may retry, with no driver message in the body;
// input errors stay 400.

let app: FastifyInstance;
let pool: pg.Pool;
beforeAll(async () => {
  const port = await freePort();
  pool = new pg.Pool({ connectionString: `postgres://nobody@127.0.0.1:${port}/none`, max: 1 });
  pool.on("error", () => {});
  app = await createApp({ db: drizzle({ client: pool, schema }) as unknown as Db, rateLimit: false });
});
afterAll(async () => {
  await app?.close();
  await pool?.end();
});

describe("store unreachable", () => {
  it("answers 503 with Retry-After on the OSV API, badges and pages, never the raw error", async () => {
    for (const req of [
      { method: "POST" as const, url: "/v1/query", payload: { commit: "a".repeat(40) } },
      { method: "GET" as const, url: "/badges/acme/m/params.json" },
      { method: "GET" as const, url: "/repos/acme/m" },
    ]) {
      const res = await app.inject(req);
      expect(res.statusCode, req.url).toBe(503);
      expect(res.headers["retry-after"]).toBe("5");
      expect(res.body).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|postgres/);
      expect(res.body).toMatch(/store cannot be reached/);
    }
    const osv = await app.inject({ method: "POST", url: "/v1/query", payload: { commit: "b".repeat(40) } });
    expect(osv.json()).toMatchObject({ code: 14 });
  });

  it("still answers 400 for bad input, which needs no store", async () => {
    const res = await app.inject({ method: "POST", url: "/v1/query", payload: { commit: "nothex" } });
    expect(res.statusCode).toBe(400);
  });

  it("tells store outages from other errors", () => {
    expect(isStoreUnavailable(Object.assign(new Error("x"), { code: "57P01" }))).toBe(true);
    expect(isStoreUnavailable(Object.assign(new Error("x"), { code: "08006" }))).toBe(true);
    expect(
      isStoreUnavailable(new Error("q", { cause: new Error("Connection terminated unexpectedly") })),
    ).toBe(true);
    expect(isStoreUnavailable(Object.assign(new Error("dup"), { code: "23505" }))).toBe(false);
    expect(isStoreUnavailable(new TypeError("undefined is not a function"))).toBe(false);
  });
});

/**
 * Route input checked by the zod schemas: each route answers bad params, querystrings and bodies with its
 * own error shape and message (OSV {code, message}, JSON {error}, HTML pages), never a 500.
 */
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/http/app.ts";
import { createToken } from "../../src/services/http/tokens.ts";
import { freshPgDatabase, type PgTestDatabase } from "../helpers/db.ts";
import { seedHistory } from "./seed.ts";

let db: PgTestDatabase;
let app: FastifyInstance;
let bare: FastifyInstance;

beforeAll(async () => {
  db = await freshPgDatabase();
  await seedHistory(db.db);
  app = await createApp({ db: db.db, rateLimit: false, hubWebhookSecret: "s3cret" });
  bare = await createApp({ db: db.db, rateLimit: false });
});
afterAll(async () => {
  await app?.close();
  await bare?.close();
  await db?.close();
});

const post = (url: string, payload?: string, headers: Record<string, string> = {}) =>
  app.inject({
    method: "POST",
    url,
    ...(payload === undefined
      ? {}
      : { payload, headers: { "content-type": "application/json", ...headers } }),
  });
const get = (url: string) => app.inject({ method: "GET", url });

describe("OSV API", () => {
  it("answers a body of the wrong outer shape with OSV.dev's 400 {code: 3, message}", async () => {
    const notObject = { code: 3, message: "Invalid query: expected a JSON object." };
    for (const body of [undefined, "[1]", '"abc"', "null"]) {
      const res = await post("/v1/query", body);
      expect([res.statusCode, res.json()], String(body)).toEqual([400, notObject]);
    }
    const notArray = { code: 3, message: "queries must be an array." };
    for (const body of [undefined, "{}", "[1]", '{"queries": "x"}', '{"queries": {}}']) {
      const res = await post("/v1/querybatch", body);
      expect([res.statusCode, res.json()], String(body)).toEqual([400, notArray]);
    }
    const many = await post("/v1/querybatch", JSON.stringify({ queries: Array(1001).fill({}) }));
    expect([many.statusCode, many.json()]).toEqual([
      400,
      { code: 3, message: "Too many queries (max 1000)." },
    ]);
  });

  it("leaves the query fields to the OSV parser and its messages", async () => {
    const pkg = await post("/v1/query", '{"package": "x"}');
    expect([pkg.statusCode, pkg.json()]).toEqual([400, { code: 3, message: "package must be an object" }]);
    const entry = await post("/v1/querybatch", '{"queries": [5]}');
    expect(entry.json()).toEqual({ code: 3, message: "Invalid query: expected a JSON object." });
    const missing = await get("/v1/vulns/nope");
    expect([missing.statusCode, missing.json()]).toEqual([
      404,
      { code: 5, message: "Vulnerability not found" },
    ]);
  });
});

describe("feed, badges and pages", () => {
  it("a feed file that is not an advisory id of ours is 404 {error}", async () => {
    for (const url of ["/osv/foo.json", "/osv/x_HUBWATCH-2024-0001", "/osv/x_HUBWATCH-9999-9999.json"]) {
      const res = await get(url);
      expect([res.statusCode, res.json()], url).toEqual([404, { error: "not found" }]);
    }
  });

  it("a bad badge path is 400 with what to ask for; an override given twice is ignored", async () => {
    const expected = { error: "expected /badges/OWNER/NAME/METRIC.json or .svg" };
    for (const url of [
      "/badges/a..b/c/params.json",
      "/badges/acme/tiny-lm/Params.txt",
      "/badges/-x/y/p.svg",
    ]) {
      const res = await get(url);
      expect([res.statusCode, res.json()], url).toEqual([400, expected]);
    }
    const plain = await get("/badges/acme/tiny-lm/params.svg");
    const twice = await get("/badges/acme/tiny-lm/params.svg?label=a&label=b&style=nope");
    expect(twice.statusCode).toBe(200);
    expect(twice.body).toBe(plain.body);
    expect((await get("/badges/acme/tiny-lm/params.svg?label=a")).body).not.toBe(plain.body);
  });

  it("pages answer bad input with their HTML pages: bad filter, bad repo name, not a sha", async () => {
    const cases: [string, number, string][] = [
      ["/?kind=nope", 400, "Bad filter"],
      ["/?kind=config&kind=tokenizer", 400, "Bad filter"],
      ["/repos/a..b/x", 400, "Bad repo name"],
      ["/repos/a..b/x/revisions/zz", 400, "Bad repo name"],
      ["/repos/acme/tiny-lm/revisions/zz", 404, "A revision is a full 40-character commit sha."],
    ];
    for (const [url, status, text] of cases) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(status);
      expect(res.headers["content-type"], url).toBe("text/html; charset=utf-8");
      expect(res.headers["content-security-policy"], url).toContain("default-src 'none'");
      expect(res.body, url).toContain(text);
    }
    expect((await get("/?kind=config")).statusCode).toBe(200);
  });
});

describe("POST /hooks/hub", () => {
  const hook = (body: string | undefined, secret?: string, to = app) =>
    to.inject({
      method: "POST",
      url: "/hooks/hub",
      ...(body === undefined ? {} : { payload: body }),
      headers: {
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...(secret ? { "x-webhook-secret": secret } : {}),
      },
    });

  it("checks configuration and secret before the body", async () => {
    expect((await hook('{"event": 5}', "s3cret", bare)).statusCode).toBe(404);
    expect((await hook('{"event": 5}', "wrong")).statusCode).toBe(401);
    expect((await hook('{"event": 5}')).statusCode).toBe(401);
  });

  it("a malformed payload is a 400 saying what is expected; an empty one is ignored", async () => {
    for (const body of ['{"event": {"scope": 5}}', '{"updatedRefs": {}}', '"x"', "[]"]) {
      const res = await hook(body, "s3cret");
      expect(res.statusCode, body).toBe(400);
      expect(res.json().error, body).toMatch(/^expected a Hub webhook payload/);
    }
    const empty = await hook(undefined, "s3cret");
    expect([empty.statusCode, empty.json()]).toEqual([
      202,
      { queued: false, reason: "ignored scope (none)" },
    ]);
  });
});

describe("JSON API", () => {
  it("a bad repo path, limit or cursor is 400 {error} saying which", async () => {
    const cases: [string, string][] = [
      ["/api/repos/-x/y/revisions", "expected /api/repos/OWNER/NAME/revisions"],
      ["/api/repos/acme/tiny-lm/revisions?limit=0", "limit must be a whole number from 1 to 100"],
      ["/api/repos/acme/tiny-lm/revisions?limit=2.5", "limit must be a whole number from 1 to 100"],
      ["/api/repos/acme/tiny-lm/revisions?limit=x", "limit must be a whole number from 1 to 100"],
      ["/api/repos/acme/tiny-lm/revisions?cursor=nope", "bad cursor"],
      [`/api/repos/acme/tiny-lm/revisions?cursor=${"a".repeat(101)}`, "bad cursor"],
    ];
    for (const [url, error] of cases) {
      const res = await get(url);
      expect([res.statusCode, res.json()], url).toEqual([400, { error }]);
    }
    const page = (await get("/api/repos/acme/tiny-lm/revisions?limit=1")).json();
    expect(page.revisions).toHaveLength(1);
    const next = await get(`/api/repos/acme/tiny-lm/revisions?limit=1&cursor=${page.next_cursor}`);
    expect(next.statusCode).toBe(200);
    expect(next.json().revisions[0].sha).not.toBe(page.revisions[0].sha);
  });
});

describe("POST /api/failed/retry", () => {
  it("answers a body that is neither {repo} nor {all: true} with 400 saying so, after the token check", async () => {
    const { token } = await createToken(db.db, "route-input");
    const retry = (payload: string | undefined, authorization?: string) =>
      app.inject({
        method: "POST",
        url: "/api/failed/retry",
        ...(payload === undefined ? {} : { payload }),
        headers: {
          ...(payload === undefined ? {} : { "content-type": "application/json" }),
          ...(authorization ? { authorization } : {}),
        },
      });
    expect((await retry('{"all": false}')).statusCode).toBe(401);
    const expected = { error: "expected {repo: 'OWNER/NAME'} or {all: true}" };
    for (const body of [undefined, '{"all": false}', '{"repo": 5}', '{"repo": "a/b", "all": true}', "[]"]) {
      const res = await retry(body, `Bearer ${token}`);
      expect([res.statusCode, res.json()], String(body)).toEqual([400, expected]);
    }
    // A well-formed body gets past the schema (this app has no queue, so it cannot requeue).
    for (const body of ['{"repo": "acme/tiny-lm"}', '{"all": true}']) {
      const res = await retry(body, `Bearer ${token}`);
      expect([res.statusCode, res.json()], body).toEqual([
        503,
        { error: "this server has no queue to retry on" },
      ]);
    }
    const twice = await app.inject({
      method: "GET",
      url: "/api/failed?repo=a/b&repo=c/d",
      headers: { authorization: `Bearer ${token}` },
    });
    expect([twice.statusCode, twice.json()]).toEqual([400, { error: "expected ?repo=OWNER/NAME" }]);
  });
});

/**
 * The write API's input checks: every body and param goes through a zod schema, so bad input is a 400
 * with the schema's message; a store that cannot be reached is a 503 with no driver message, even past
 * the token check (the local admin token needs no store read), on the routes that used to turn any
 * error into a 400 with its raw message.
 */
import { drizzle } from "drizzle-orm/node-postgres";
import type { FastifyInstance } from "fastify";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as schema from "../../src/db/schema/index.ts";
import type { Db } from "../../src/db/types.ts";
import { createApp } from "../../src/http/app.ts";
import { authenticate } from "../../src/services/http/tokens.ts";
import { freePort } from "../faults/processes.ts";
import { freshPgDatabase, type PgTestDatabase } from "../helpers/db.ts";

const LOCAL = `hwl_${"k".repeat(40)}`;
let db: PgTestDatabase;
let app: FastifyInstance;
let down: FastifyInstance;
let pool: pg.Pool;

beforeAll(async () => {
  db = await freshPgDatabase();
  app = await createApp({ db: db.db, rateLimit: false, localAdminToken: LOCAL, allowPrivateTargets: true });
  pool = new pg.Pool({ connectionString: `postgres://nobody@127.0.0.1:${await freePort()}/none`, max: 1 });
  pool.on("error", () => {});
  const unreachable = drizzle({ client: pool, schema }) as unknown as Db;
  down = await createApp({
    db: unreachable,
    rateLimit: false,
    localAdminToken: LOCAL,
    allowPrivateTargets: true,
  });
});
afterAll(async () => {
  await app?.close();
  await down?.close();
  await pool?.end();
  await db?.close();
});

type Method = "GET" | "POST" | "DELETE";
const call = (on: FastifyInstance, method: Method, url: string, payload?: string, token = LOCAL) =>
  on.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${token}`,
      ...(payload === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(payload === undefined ? {} : { payload }),
  });

describe("admin API input", () => {
  it("answers bad bodies and params with 400 and the schema's message", async () => {
    const cases: [Method, string, string | undefined, string][] = [
      ["POST", "/api/repos", "[]", "expected {repo: 'OWNER/NAME'}"],
      ["POST", "/api/repos", '{"repo": 5}', "expected {repo: 'OWNER/NAME'}"],
      [
        "POST",
        "/api/repos",
        '{"repo": "../etc"}',
        '"../etc" is not a Hub model repo id (expected OWNER/NAME)',
      ],
      ["DELETE", "/api/repos/..%2F/x", undefined, "expected /api/repos/OWNER/NAME"],
      ["DELETE", "/api/subscriptions/abc", undefined, "expected a numeric id"],
      ["DELETE", "/api/subscriptions/-3", undefined, "expected a numeric id"],
      ["POST", "/api/subscriptions/1.5/enable", undefined, "expected a numeric id"],
      ["GET", "/api/subscriptions/1/deliveries/nope/attempts", undefined, "expected an event id (evt_...)"],
      ["DELETE", "/api/tokens/x", undefined, "expected a numeric id"],
      ["POST", "/api/tokens", '{"name": ""}', "expected {name: 'LABEL'} (1 to 100 characters)"],
      ["POST", "/api/tokens", '{"name": 7}', "expected {name: 'LABEL'} (1 to 100 characters)"],
    ];
    for (const [method, url, body, error] of cases) {
      const res = await call(app, method, url, body);
      expect([res.statusCode, res.json()], `${method} ${url} ${body}`).toEqual([400, { error }]);
    }
    const ftp = await call(app, "POST", "/api/subscriptions", '{"url": "ftp://x/y"}');
    expect(ftp.statusCode).toBe(400);
    const events = await call(
      app,
      "POST",
      "/api/subscriptions",
      '{"url": "http://x.test/", "events": ["nope"]}',
    );
    expect(events.statusCode).toBe(400);
    expect(events.json().error).toMatch(/advisory\.opened/);
  });

  it("creates a token through the API that then authenticates; unknown ids are 404", async () => {
    const created = await call(app, "POST", "/api/tokens", '{"name": "from-api"}');
    expect(created.statusCode).toBe(201);
    const { id, token } = created.json();
    expect(token).toMatch(/^hw_/);
    expect(await authenticate(db.db, `Bearer ${token}`)).toMatchObject({ id, name: "from-api" });
    expect((await call(app, "GET", "/api/tokens", undefined, token)).statusCode).toBe(200);
    expect((await call(app, "DELETE", "/api/tokens/999999")).statusCode).toBe(404);
    expect((await call(app, "GET", "/api/tokens", undefined, "hwl_wrongwrongwrong")).statusCode).toBe(401);
  });

  it("answers a store outage with 503 and no raw message, also on subscriptions and tokens", async () => {
    for (const [method, url, body] of [
      ["POST", "/api/repos", '{"repo": "acme/m"}'],
      ["POST", "/api/subscriptions", '{"url": "http://127.0.0.1:9/x"}'],
      ["POST", "/api/tokens", '{"name": "x"}'],
      ["DELETE", "/api/subscriptions/3", undefined],
      ["GET", "/api/failed", undefined],
    ] as const) {
      const res = await call(down, method, url, body);
      expect(res.statusCode, url).toBe(503);
      expect(res.headers["retry-after"]).toBe("5");
      expect(res.body).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|postgres|nobody/);
    }
    // A stored token needs the store to check it: that is a 503 too, not a 401.
    expect((await call(down, "GET", "/api/tokens", undefined, "hw_someothertoken")).statusCode).toBe(503);
  });
});

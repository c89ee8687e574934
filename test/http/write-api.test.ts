import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/http/app.ts";
import type { EnqueueOptions } from "../../src/queue/types.ts";
import { getRepoByName } from "../../src/repositories/repos.repository.ts";
import { createToken } from "../../src/services/http/tokens.ts";
import { freshPgDatabase, type PgTestDatabase } from "../helpers/db.ts";
import { seedHistory } from "./seed.ts";

let db: PgTestDatabase;
let app: FastifyInstance;
let token: string;
// A recording producer: what the routes hand to the JobRunner (its dedupe is the runner's job, tested there).
const queued: { name: string; payload: unknown; opts?: EnqueueOptions }[] = [];

beforeAll(async () => {
  db = await freshPgDatabase();
  await seedHistory(db.db);
  app = await createApp({
    db: db.db,
    hubWebhookSecret: "s3cret-hub",
    enqueue: async (name, payload, opts) => {
      queued.push({ name, payload, opts });
    },
    rateLimit: { max: 5, timeWindowMs: 60_000 },
  });
  token = (await createToken(db.db, "t")).token;
});
afterAll(async () => {
  await app?.close();
  await db?.close();
});

const auth = () => ({ authorization: `Bearer ${token}` });
const hubEvent = (
  name: string,
  refs = [{ ref: "refs/heads/main", oldSha: "a".repeat(40), newSha: "b".repeat(40) }],
) => ({
  event: { action: "update", scope: "repo.content" },
  repo: { type: "model", name, id: "x", private: false, headSha: "b".repeat(40) },
  updatedRefs: refs,
  webhook: { id: "w", version: 3 },
});

describe("write API", () => {
  it("watches and unwatches repos with a bearer token only", async () => {
    expect(
      (await app.inject({ method: "POST", url: "/api/repos", payload: { repo: "acme/new" } })).statusCode,
    ).toBe(401);
    const add = await app.inject({
      method: "POST",
      url: "/api/repos",
      headers: auth(),
      payload: { repo: "acme/new" },
    });
    expect(add.statusCode).toBe(201);
    expect(await getRepoByName(db.db, "acme/new")).not.toBeNull();
    expect(queued.at(-1)).toMatchObject({
      name: "poll-repo",
      payload: { repo: "acme/new" },
    });
    expect(
      (await app.inject({ method: "POST", url: "/api/repos", headers: auth(), payload: { repo: "../etc" } }))
        .statusCode,
    ).toBe(400);
    const rm = await app.inject({ method: "DELETE", url: "/api/repos/acme/new", headers: auth() });
    expect(rm.statusCode).toBe(200);
    expect(await getRepoByName(db.db, "acme/new")).toBeNull();
  });
  it("limits body size", async () => {
    const big = await app.inject({
      method: "POST",
      url: "/api/repos",
      headers: auth(),
      payload: { repo: "x".repeat(10_000) },
    });
    expect(big.statusCode).toBe(413);
  });
});

describe("POST /hooks/hub", () => {
  it("checks X-Webhook-Secret and queues a deduplicated poll of a watched repo", async () => {
    queued.length = 0;
    const post = (body: object, secret?: string) =>
      app.inject({
        method: "POST",
        url: "/hooks/hub",
        payload: body,
        headers: secret ? { "x-webhook-secret": secret } : {},
      });
    expect((await post(hubEvent("acme/tiny-lm"))).statusCode).toBe(401);
    expect((await post(hubEvent("acme/tiny-lm"), "wrong")).statusCode).toBe(401);
    const ok = await post(hubEvent("acme/tiny-lm"), "s3cret-hub");
    expect(ok.statusCode).toBe(202);
    expect(ok.json()).toEqual({ queued: true, repo: "acme/tiny-lm" });
    expect(queued).toEqual([
      // The event's head rides along, so the poll can skip listing commits it already knows; the
      // runner derives the job id (poll__acme--tiny-lm).
      { name: "poll-repo", payload: { repo: "acme/tiny-lm", knownHead: "b".repeat(40) } },
    ]);
    expect((await post(hubEvent("someone/else"), "s3cret-hub")).json()).toMatchObject({
      queued: false,
      reason: "not watched",
    });
    expect(
      (
        await post(
          hubEvent("acme/tiny-lm", [{ ref: "refs/pr/1", oldSha: "", newSha: "" }] as never),
          "s3cret-hub",
        )
      ).json(),
    ).toMatchObject({ queued: false });
    expect(
      (
        await post(
          { ...hubEvent("acme/tiny-lm"), event: { action: "create", scope: "discussion" } },
          "s3cret-hub",
        )
      ).json(),
    ).toMatchObject({ queued: false });
    expect(queued).toHaveLength(1);
  });
});

describe("rate limit", () => {
  it("answers 429 past the limit on public routes", async () => {
    const codes: number[] = [];
    for (let i = 0; i < 8; i++)
      codes.push(
        (
          await app.inject({
            method: "GET",
            url: "/badges/acme/tiny-lm/params.json",
            remoteAddress: "10.9.9.9",
          })
        ).statusCode,
      );
    expect(codes).toContain(429);
  });
});

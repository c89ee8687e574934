import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type JobRegistry, jobs } from "../../jobs/index.ts";
import { loadConfig } from "../../src/config/env.ts";
import { createApp } from "../../src/http/app.ts";
import { createInProcessRunner, type InProcessRunner } from "../../src/queue/in-process-runner.ts";
import { getDelivery, listAttempts } from "../../src/repositories/webhook-deliveries-read.repository.ts";
import { insertEvent, makeEventId } from "../../src/repositories/webhook-events.repository.ts";
import {
  createSubscription,
  disableSubscription,
  getSubscription,
} from "../../src/repositories/webhook-subscriptions.repository.ts";
import { createToken } from "../../src/services/http/tokens.ts";
import { emitWebhookEvent } from "../../src/services/webhooks/emit-event.ts";
import { newWebhookSecret } from "../../src/services/webhooks/secret.ts";
import { freshPgDatabase, type PgTestDatabase } from "../helpers/db.ts";
import { seedHistory } from "./seed.ts";

type Received = { id: string; verified: boolean; body: string; timestamp: string };

let db: PgTestDatabase;
let app: FastifyInstance;
let runner: InProcessRunner<JobRegistry>;
let token: string;
let seeded: Awaited<ReturnType<typeof seedHistory>>;
const warnings: { obj: object; msg: string }[] = [];
const DELAYS = [100, 200, 400, 800, 1600];

function receiver(secretOf: () => string, status: () => number) {
  const got: Received[] = [];
  const all: Received[] = []; // every request, whatever we answered
  const server = createServer((req: IncomingMessage, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      const code = status();
      let verified = false;
      try {
        new Webhook(secretOf()).verify(body, req.headers as Record<string, string>);
        verified = true;
      } catch {}
      const seen = {
        id: String(req.headers["webhook-id"]),
        verified,
        body,
        timestamp: String(req.headers["webhook-timestamp"]),
      };
      all.push(seen);
      if (code >= 200 && code < 300) got.push(seen);
      res.writeHead(code).end("x".repeat(10_000));
    });
  });
  return { server, got, all };
}

const listen = (s: Server, port = 0) =>
  new Promise<number>((resolve) =>
    s.listen(port, "127.0.0.1", () => resolve((s.address() as AddressInfo).port)),
  );

beforeAll(async () => {
  db = await freshPgDatabase();
  seeded = await seedHistory(db.db);
  const log = {
    warn: (obj: object, msg: string) => warnings.push({ obj, msg }),
    info() {},
    error() {},
    debug() {},
  };
  runner = createInProcessRunner({
    jobs,
    services: {
      db: db.db,
      config: loadConfig({}),
      log,
      webhookRetryDelaysMs: DELAYS,
      webhookAllowPrivateTargets: true,
    },
  });
  await runner.start();
  app = await createApp({
    db: db.db,
    enqueue: runner.enqueue,
    allowPrivateTargets: true,
    webhookRetryDelaysMs: DELAYS,
  });
  token = (await createToken(db.db, "test")).token;
});
afterAll(async () => {
  await runner?.close();
  await app?.close();
  await db?.close();
});

const api = (method: "GET" | "POST" | "DELETE", url: string, payload?: object, auth = true) =>
  app.inject({ method, url, payload, headers: auth ? { authorization: `Bearer ${token}` } : {} });

describe("webhook subscriptions API", () => {
  it("needs a bearer token and shows the secret once", async () => {
    expect((await api("GET", "/api/subscriptions", undefined, false)).statusCode).toBe(401);
    expect(
      (
        await app.inject({
          method: "GET",
          url: "/api/subscriptions",
          headers: { authorization: "Bearer hw_wrongwrongwrong" },
        })
      ).statusCode,
    ).toBe(401);
    const created = await api("POST", "/api/subscriptions", {
      url: "http://127.0.0.1:9/x",
      events: ["advisory.opened"],
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().secret).toMatch(/^whsec_/);
    const listed = (await api("GET", "/api/subscriptions")).json();
    expect(listed[0]).not.toHaveProperty("secret");
    expect((await api("DELETE", `/api/subscriptions/${created.json().id}`)).statusCode).toBe(200);
    expect((await api("POST", "/api/subscriptions", { url: "ftp://x/y" })).statusCode).toBe(400);
  });
});

describe("webhook delivery", () => {
  it("delivers every event once to a receiver that was down, each verified with the secret", async () => {
    const probe = createServer();
    const port = await listen(probe); // find a free port, then free it: nothing listens there for now
    await new Promise((res) => probe.close(res));
    let secret = "";
    const r = receiver(
      () => secret,
      () => 200,
    );
    const created = await api("POST", "/api/subscriptions", {
      url: `http://127.0.0.1:${port}/hook`,
      repoFilter: "acme/*",
    });
    secret = created.json().secret;
    const subId = created.json().id as number;
    // Receiver down (nothing listening): the first attempts fail with ECONNREFUSED.
    const deps = { db: db.db };
    const e1 = await emitWebhookEvent(deps, {
      type: "advisory.opened",
      repoId: seeded.repoIds.tiny!,
      subject: "a1",
      data: { id: "x_HUBWATCH-2026-0001" },
    });
    const e2 = await emitWebhookEvent(deps, {
      type: "revision.processed",
      repoId: seeded.repoIds.other!,
      subject: "r1",
      data: { sha: "b".repeat(40) },
    });
    // An event stored by itself (no deliveries recorded with it): not delivered, nothing else breaks.
    const bare = makeEventId("advisory.closed", "bare");
    await insertEvent(db.db, { id: bare, type: "advisory.closed", repoId: seeded.repoIds.tiny, payload: {} });
    const { eventId: e3 } = await emitWebhookEvent(deps, {
      type: "advisory.closed",
      repoId: seeded.repoIds.tiny!,
      subject: "x_HUBWATCH-2026-0001@2026-03-04T00:00:00Z",
      data: { id: "x_HUBWATCH-2026-0001" },
    });
    // The outbox relay queues the lanes of subscriptions with due deliveries.
    await runner.enqueue("relay-webhooks", {});
    // Wait for a failed attempt at each event (however busy the machine), then bring the receiver up.
    const tried = async () => {
      for (const id of [e1.eventId, e2.eventId, e3])
        if ((await listAttempts(db.db, subId, id)).length === 0) return false;
      return true;
    };
    for (let i = 0; i < 200 && !(await tried()); i++) await new Promise((res) => setTimeout(res, 50));
    await listen(r.server, port); // receiver back up
    await runner.idle();
    r.server.close();
    const ids = [e1.eventId, e2.eventId, e3];
    expect(r.got.map((g) => g.id).sort()).toEqual([...ids].sort()); // each once
    expect(r.got.every((g) => g.verified)).toBe(true);
    expect(JSON.parse(r.got.find((g) => g.id === e3)!.body)).toMatchObject({
      type: "advisory.closed",
      data: { id: "x_HUBWATCH-2026-0001" },
    });
    for (const id of ids) {
      const d = await getDelivery(db.db, subId, id);
      expect(d?.status).toBe("delivered");
      const attempts = await listAttempts(db.db, subId, id);
      expect(attempts.length).toBeGreaterThan(1); // failed while down, then delivered
      expect(attempts.at(-1)?.responseStatus).toBe(200);
      expect(attempts.at(-1)?.responseBody?.length).toBeLessThanOrEqual(4096);
      expect(attempts[0]?.error).toMatch(/ECONNREFUSED/);
    }
    const listed = (await api("GET", `/api/subscriptions/${subId}/deliveries`)).json();
    expect(listed).toHaveLength(3);
    // Manual redelivery sends the same webhook-id again.
    const again = receiver(
      () => secret,
      () => 200,
    );
    await listen(again.server, port);
    expect(
      (await api("POST", `/api/subscriptions/${subId}/deliveries/${e1.eventId}/redeliver`)).statusCode,
    ).toBe(202);
    await runner.idle();
    again.server.close();
    expect(again.got.map((g) => g.id)).toEqual([e1.eventId]);
    await api("DELETE", `/api/subscriptions/${subId}`);
  });

  it("dead-letters after the last attempt", async () => {
    const r = receiver(
      () => "",
      () => 500,
    );
    const port = await listen(r.server);
    const sub = await createSubscription(db.db, {
      url: `http://127.0.0.1:${port}/`,
      secret: newWebhookSecret(),
      repoFilter: null,
      events: ["revision.processed"],
    });
    const e = await emitWebhookEvent(db, {
      type: "revision.processed",
      repoId: null,
      subject: "dead",
      data: {},
    });
    await runner.enqueue("relay-webhooks", {});
    await runner.idle();
    r.server.close();
    expect((await getDelivery(db.db, sub.id, e.eventId))?.status).toBe("dead");
    expect(await listAttempts(db.db, sub.id, e.eventId)).toHaveLength(DELAYS.length + 1);
    // Every retry carried the same webhook-id, freshly signed.
    expect(r.all).toHaveLength(DELAYS.length + 1);
    expect(new Set(r.all.map((x) => x.id))).toEqual(new Set([e.eventId]));
    await api("DELETE", `/api/subscriptions/${sub.id}`);
  });

  it("disables a subscription whose receiver answers 410", async () => {
    const r = receiver(
      () => "",
      () => 410,
    );
    const port = await listen(r.server);
    const sub = await createSubscription(db.db, {
      url: `http://127.0.0.1:${port}/`,
      secret: newWebhookSecret(),
      repoFilter: null,
      events: ["advisory.updated"],
    });
    const deps = { db: db.db };
    const e = await emitWebhookEvent(deps, {
      type: "advisory.updated",
      repoId: null,
      subject: "gone",
      data: {},
    });
    await runner.enqueue("relay-webhooks", {});
    await runner.idle();
    const after = await getSubscription(db.db, sub.id);
    expect(after?.enabled).toBe(false);
    expect(after?.disabledReason).toMatch(/410/);
    expect(await listAttempts(db.db, sub.id, e.eventId)).toHaveLength(1);
    const next = await emitWebhookEvent(deps, {
      type: "advisory.updated",
      repoId: null,
      subject: "gone2",
      data: {},
    });
    expect(next.subscriptionIds).toEqual([]);
    // Redelivering to the disabled subscription: 409 with the reason, nothing sent.
    const refused = await api("POST", `/api/subscriptions/${sub.id}/deliveries/${e.eventId}/redeliver`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatch(/disabled: receiver answered 410/);
    r.server.close();
  });

  it("refuses and logs a target that resolves to a private address when the option is off", async () => {
    const strict = await createApp({ db: db.db, enqueue: runner.enqueue, allowPrivateTargets: false });
    const refused = await strict.inject({
      method: "POST",
      url: "/api/subscriptions",
      headers: { authorization: `Bearer ${token}` },
      payload: { url: "http://localhost:8080/hook" },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toMatch(/127\.0\.0\.1|::1/);
    await strict.close();
    // A subscription that slipped in (e.g. DNS changed since): refused again at delivery, logged, dead.
    const r = receiver(
      () => "",
      () => 200,
    );
    const port = await listen(r.server);
    const sub = await createSubscription(db.db, {
      url: `http://localhost:${port}/`,
      secret: newWebhookSecret(),
      repoFilter: null,
      events: ["advisory.opened"],
    });
    const strictRunner = createInProcessRunner({
      jobs,
      services: {
        db: db.db,
        config: loadConfig({}),
        log: { warn: (obj: object, msg: string) => warnings.push({ obj, msg }), info() {}, error() {} },
        webhookRetryDelaysMs: DELAYS,
      },
    });
    await strictRunner.start();
    const e = await emitWebhookEvent(db, {
      type: "advisory.opened",
      repoId: null,
      subject: "ssrf",
      data: {},
    });
    await strictRunner.enqueue("relay-webhooks", {});
    await strictRunner.idle();
    await strictRunner.close();
    r.server.close();
    expect(r.got).toHaveLength(0);
    const attempts = await listAttempts(db.db, sub.id, e.eventId);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]?.error).toMatch(/^ssrf: refused: localhost resolves to non-public address/);
    expect((await getDelivery(db.db, sub.id, e.eventId))?.status).toBe("dead");
    expect(warnings.some((w) => w.msg === "webhook target refused")).toBe(true);
  });

  it("rotates the secret with both signatures for a while, re-enables, and deletes safely mid-attempt", async () => {
    let release: () => void = () => {};
    const seen: { headers: Record<string, string>; body: string }[] = [];
    const server = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => {
        body += c;
      });
      req.on("end", () => {
        seen.push({ headers: req.headers as Record<string, string>, body });
        new Promise<void>((r) => {
          release = r;
        }).then(() => res.writeHead(200).end());
      });
    });
    const port = await listen(server);
    const created = (await api("POST", "/api/subscriptions", { url: `http://127.0.0.1:${port}/r` })).json();
    const oldSecret = created.secret as string;
    const rotated = await api("POST", `/api/subscriptions/${created.id}/rotate-secret`);
    expect(rotated.statusCode).toBe(200);
    const newSecret = rotated.json().secret as string;
    expect(newSecret).not.toBe(oldSecret);
    const e = await emitWebhookEvent(db, {
      type: "revision.processed",
      repoId: null,
      subject: "rot",
      data: {},
    });
    await runner.enqueue("deliver-webhook", { subscriptionId: created.id });
    await waitUntil(() => seen.length === 1);
    // Both the old and the new secret verify the same delivery.
    for (const secret of [oldSecret, newSecret])
      expect(() => new Webhook(secret).verify(seen[0]!.body, seen[0]!.headers)).not.toThrow();
    expect(seen[0]!.headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    // Deleted while that attempt is in flight: the attempt records nothing, no job fails.
    const failuresBefore = runner.failures.length;
    expect((await api("DELETE", `/api/subscriptions/${created.id}`)).statusCode).toBe(200);
    release();
    await runner.idle();
    expect(runner.failures.length).toBe(failuresBefore);
    expect(await getDelivery(db.db, created.id, e.eventId)).toBeNull();
    expect(await listAttempts(db.db, created.id)).toEqual([]);
    server.close();
    // Re-enabling a disabled subscription; unknown ids are 404.
    const other = (await api("POST", "/api/subscriptions", { url: "http://127.0.0.1:9/x" })).json();
    await disableSubscription(db.db, other.id, "receiver answered 410 Gone");
    const enabled = await api("POST", `/api/subscriptions/${other.id}/enable`);
    expect(enabled.json()).toMatchObject({ enabled: true, disabledReason: null });
    expect(enabled.json()).not.toHaveProperty("secret");
    expect((await api("POST", "/api/subscriptions/999999/enable")).statusCode).toBe(404);
    await api("DELETE", `/api/subscriptions/${other.id}`);
  });

  it("lists and revokes tokens", async () => {
    const extra = await createToken(db.db, "temp");
    const listed = (await api("GET", "/api/tokens")).json();
    expect(listed.find((t: { id: number }) => t.id === extra.id)).toMatchObject({
      name: "temp",
      revokedAt: null,
    });
    expect(JSON.stringify(listed)).not.toMatch(/tokenHash|hw_/);
    expect((await api("DELETE", `/api/tokens/${extra.id}`)).json()).toMatchObject({
      revokedAt: expect.any(String),
    });
    const withRevoked = await app.inject({
      method: "GET",
      url: "/api/tokens",
      headers: { authorization: `Bearer ${extra.token}` },
    });
    expect(withRevoked.statusCode).toBe(401);
    expect((await api("DELETE", "/api/tokens/999999")).statusCode).toBe(404);
  });
});

async function waitUntil(ok: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
}

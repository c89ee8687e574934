import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type JobRegistry, jobs } from "../../jobs/index.ts";
import { loadConfig } from "../../src/config/env.ts";
import { type BullmqRunner, createBullmqRunner } from "../../src/queue/bullmq-runner.ts";
import { getDelivery, listAttempts } from "../../src/repositories/webhook-deliveries-read.repository.ts";
import { emitWebhookEvent } from "../../src/services/webhooks/emit-event.ts";
import { createSubscription } from "../../src/services/webhooks/subscriptions.ts";
import { freshPgDatabase, type PgTestDatabase } from "../helpers/db.ts";

// Distributed mode: the same jobs on BullMQ (real Redis): a failing receiver gets delayed retry jobs,
// then the delivery lands, signed, once.

let db: PgTestDatabase;
let runner: BullmqRunner<JobRegistry>;
const silent = { warn() {}, info() {}, error() {}, debug() {} };

beforeAll(async () => {
  db = await freshPgDatabase();
  runner = createBullmqRunner({
    jobs,
    services: {
      db: db.db,
      config: loadConfig({}),
      log: silent,
      webhookRetryDelaysMs: [200, 400, 800],
      webhookAllowPrivateTargets: true,
    },
    redisUrl: inject("redisUrl") ?? "redis://127.0.0.1:6379",
    prefix: `hwtest-${randomBytes(4).toString("hex")}`,
  });
  await runner.start();
});
afterAll(async () => {
  await runner?.close();
  await db?.close();
});

describe("webhook delivery on BullMQ", () => {
  it("retries (the lane continues itself as a delayed job) until the receiver answers 2xx", async () => {
    let calls = 0;
    let secret = "";
    const got: { id: string; ok: boolean }[] = [];
    const server = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => {
        body += c;
      });
      req.on("end", () => {
        calls++;
        if (calls < 3) return res.writeHead(503).end();
        let ok = false;
        try {
          new Webhook(secret).verify(body, req.headers as Record<string, string>);
          ok = true;
        } catch {}
        got.push({ id: String(req.headers["webhook-id"]), ok });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as AddressInfo).port;
    const sub = await createSubscription(
      { db: db.db, allowPrivateTargets: true },
      { url: `http://127.0.0.1:${port}/` },
    );
    secret = sub.secret;
    const e = await emitWebhookEvent(db, {
      type: "advisory.opened",
      repoId: null,
      subject: "bullmq",
      data: { id: "x_HUBWATCH-2026-0001" },
    });
    for (const subscriptionId of e.subscriptionIds)
      await runner.enqueue("deliver-webhook", { subscriptionId });
    const deadline = Date.now() + 20_000;
    while ((await getDelivery(db.db, sub.id, e.eventId))?.status !== "delivered" && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    server.close();
    expect((await getDelivery(db.db, sub.id, e.eventId))?.status).toBe("delivered");
    expect(got).toEqual([{ id: e.eventId, ok: true }]);
    expect((await listAttempts(db.db, sub.id, e.eventId)).map((a) => a.responseStatus)).toEqual([
      503, 503, 200,
    ]);
  });
});

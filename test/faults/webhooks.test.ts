/**
 * Webhook receivers misbehaving while the real pipeline produces events (replay hub -> advance-repo ->
 * notify -> deliver-webhook): one slow past the 10 s delivery timeout, then answering 500, then 200;
 * one answering 410. Complements test/http/webhooks*.test.ts (receiver down, 503 then 200, dead letter).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterEach, expect, it } from "vitest";
import { createSubscription } from "../../src/services/webhooks/subscriptions.ts";
import { expectAllDone, healthyRepos, type Pipeline, startPipeline } from "./harness.ts";

type Seen = { id: string; body: string; verified: boolean; answered: number };

let p: Pipeline | undefined;
const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
  await p?.close();
  p = undefined;
});

/** A receiver whose n-th request (1-based) is answered by `plan(n)`: a status, after an optional delay. */
async function receiver(secret: () => string, plan: (n: number) => { status: number; delayMs?: number }) {
  const seen: Seen[] = [];
  let n = 0;
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      const { status, delayMs } = plan(++n);
      let verified = false;
      try {
        new Webhook(secret()).verify(body, req.headers as Record<string, string>);
        verified = true;
      } catch {}
      seen.push({ id: String(req.headers["webhook-id"]), body, verified, answered: status });
      setTimeout(() => res.writeHead(status).end(), delayMs ?? 0);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, seen };
}

it("slow past the timeout, then 500, then 200: every event delivered, same webhook-id and body on every try; 410 disables", async () => {
  p = await startPipeline({
    repos: healthyRepos(2),
    extraServices: { webhookAllowPrivateTargets: true, webhookRetryDelaysMs: [50, 100, 200, 400, 800, 1600] },
  });
  const deps = { db: p.db.db, allowPrivateTargets: true };
  let flakySecret = "";
  let goneSecret = "";
  // Request 1 hangs 10.5 s (the delivery gives up at 10 s), requests 2-3 get 500, the rest 200.
  const flaky = await receiver(
    () => flakySecret,
    (n) => (n === 1 ? { status: 200, delayMs: 10_500 } : n <= 3 ? { status: 500 } : { status: 200 }),
  );
  const gone = await receiver(
    () => goneSecret,
    () => ({ status: 410 }),
  );
  const flakySub = await createSubscription(deps, { url: flaky.url });
  flakySecret = flakySub.secret;
  const goneSub = await createSubscription(deps, { url: gone.url });
  goneSecret = goneSub.secret;

  await p.cycle();
  for (const repo of ["synthetic/model-00000", "synthetic/model-00001"]) await expectAllDone(p, repo);

  const { rows: events } = await p.sql.query("select id from webhook_events order by id");
  expect(events.length).toBeGreaterThan(0);
  const eventIds = events.map((e) => e.id as string).sort();

  // Flaky receiver: every event acknowledged (2xx) at least once; the delivery log says delivered once.
  expect([...new Set(flaky.seen.filter((s) => s.answered === 200).map((s) => s.id))].sort()).toEqual(
    eventIds,
  );
  expect(flaky.seen.every((s) => s.verified)).toBe(true);
  // Retries resend the same webhook-id and body: a receiver deduplicating by webhook-id acts once.
  for (const id of eventIds) {
    const bodies = new Set(flaky.seen.filter((s) => s.id === id).map((s) => s.body));
    expect(bodies.size, id).toBe(1);
  }
  const { rows: deliveries } = await p.sql.query(
    "select event_id, status, attempts from webhook_deliveries where subscription_id = $1",
    [flakySub.id],
  );
  expect(deliveries.map((d) => d.event_id).sort()).toEqual(eventIds);
  expect(deliveries.every((d) => d.status === "delivered")).toBe(true);
  const { rows: timedOut } = await p.sql.query(
    "select error from webhook_attempts where subscription_id = $1 and attempt = 1 and response_status is null",
    [flakySub.id],
  );
  expect(timedOut.map((r) => r.error)).toEqual([expect.stringMatching(/timeout/i)]);

  // 410: the subscription is disabled and nothing is marked delivered to it.
  const { rows: subs } = await p.sql.query("select enabled from webhook_subscriptions where id = $1", [
    goneSub.id,
  ]);
  expect(subs[0].enabled).toBe(false);
  const { rows: goneDelivered } = await p.sql.query(
    "select count(*)::int as n from webhook_deliveries where subscription_id = $1 and status = 'delivered'",
    [goneSub.id],
  );
  expect(goneDelivered[0].n).toBe(0);
  expect(gone.seen.length).toBeLessThanOrEqual(eventIds.length);
  expect(p.runner.failures).toEqual([]);
}, 60_000);

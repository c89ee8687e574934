import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import { pino } from "pino";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type JobRegistry, jobs } from "../../jobs/index.ts";
import { loadConfig } from "../../src/config/env.ts";
import { validateOsvRecord } from "../../src/core/osv/index.ts";
import { webhookEvents } from "../../src/db/schema/index.ts";
import { createApp } from "../../src/http/app.ts";
import { createHubClient } from "../../src/hub/client.ts";
import { createInProcessRunner, type InProcessRunner } from "../../src/queue/in-process-runner.ts";
import { startReplayHub } from "../../src/replay-hub/index.ts";
import { listAllAdvisories } from "../../src/repositories/advisories-feed.repository.ts";
import { hubPortFrom } from "../../src/services/hub-port.ts";
import { watchRepo } from "../../src/services/watch-repos.ts";
import { createSubscription } from "../../src/services/webhooks/subscriptions.ts";
import { freshPgDatabase, type PgTestDatabase } from "../helpers/db.ts";

// The whole path on real data: the pipeline processes the replay hub's fixture repos and records events;
// the notify/deliver jobs sign and send them to a local receiver; the OSV API serves what it advised.

let db: PgTestDatabase;
let hub: Awaited<ReturnType<typeof startReplayHub>>;
let runner: InProcessRunner<JobRegistry>;
let app: FastifyInstance;
let receiver: Server;
let secret = "";
const received: { id: string; type: string; verified: boolean }[] = [];

beforeAll(async () => {
  db = await freshPgDatabase();
  hub = await startReplayHub();
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      let verified = false;
      try {
        new Webhook(secret).verify(body, req.headers as Record<string, string>);
        verified = true;
      } catch {}
      received.push({ id: String(req.headers["webhook-id"]), type: JSON.parse(body).type, verified });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const port = (receiver.address() as AddressInfo).port;
  const sub = await createSubscription(
    { db: db.db, allowPrivateTargets: true },
    { url: `http://127.0.0.1:${port}/hook` },
  );
  secret = sub.secret;
  const client = createHubClient({ hubUrl: hub.url });
  const services = {
    config: loadConfig({ HF_ENDPOINT: hub.url }),
    db: db.db,
    hub: hubPortFrom(client),
    log: pino({ level: "silent" }),
    now: () => new Date(),
    fetch: globalThis.fetch,
    webhookAllowPrivateTargets: true,
  };
  runner = createInProcessRunner({ jobs, services });
  await runner.start();
  for (const repo of hub.repoIds()) await watchRepo(services, repo);
  await runner.enqueue("poll-all", {});
  await runner.idle();
  app = await createApp({ db: db.db });
}, 180_000);
afterAll(async () => {
  await runner?.close();
  await app?.close();
  await hub?.close();
  receiver?.close();
  await db?.close();
});

describe("pipeline -> webhooks and OSV API", () => {
  it("delivers every recorded event once, signed with the subscription's secret", async () => {
    const events = await db.db.select({ id: webhookEvents.id, type: webhookEvents.type }).from(webhookEvents);
    expect(events.length).toBeGreaterThan(0);
    expect(events.some((e) => e.type === "advisory.opened")).toBe(true);
    expect(received.map((r) => r.id).sort()).toEqual(events.map((e) => e.id).sort());
    expect(received.every((r) => r.verified)).toBe(true);
  });

  it("serves the pipeline's advisories schema-valid, and nothing before their introduction", async () => {
    const all = await listAllAdvisories(db.db);
    expect(all.length).toBeGreaterThan(0);
    for (const a of all) {
      const record = a.record as {
        affected: { package: { purl: string }; ranges: { events: Record<string, string>[] }[] }[];
      };
      const res = await app.inject({ method: "GET", url: `/v1/vulns/${a.id}` });
      expect(validateOsvRecord(res.json()).errors).toEqual([]);
      const purl = record.affected[0]!.package.purl;
      const introduced = record.affected[0]!.ranges[0]!.events.find((e) => e.introduced)!.introduced!;
      const at = async (sha: string) =>
        (
          await app.inject({
            method: "POST",
            url: "/v1/query",
            payload: { package: { purl: `${purl}@${sha}` } },
          })
        ).json();
      expect((await at(introduced)).vulns?.map((v: { id: string }) => v.id)).toContain(a.id);
      const parent = (a.record as { database_specific?: { parent?: string | null } }).database_specific
        ?.parent;
      if (parent)
        expect(((await at(parent)).vulns ?? []).map((v: { id: string }) => v.id)).not.toContain(a.id);
    }
  });
});

describe("pipeline -> revision pages", () => {
  const page = async (title: string) => {
    const commit = hub.history("Qwen/Qwen3-0.6B").find((c) => c.title === title)!;
    const res = await app.inject({ method: "GET", url: `/repos/Qwen/Qwen3-0.6B/revisions/${commit.sha}` });
    expect(res.statusCode).toBe(200);
    return res.body;
  };

  it("shows a tokenizer change's added tokens (quoted, with their special flag) and changed fields", async () => {
    const body = await page("Add tool-call and thinking tokens");
    expect(body).toContain("<h4>Added tokens</h4>");
    expect(body).toMatch(
      /<td>added<\/td><td>\d+<\/td><td class="del"><\/td><td class="add"><code class="tok">&quot;&lt;think&gt;&quot;<\/code> special<\/td>/,
    );
    expect(body).toContain("<td>vocab size</td>");
  });

  it("shows the safetensors header metadata a re-export added", async () => {
    const body = await page("Re-export weights with safetensors 0.5.3");
    expect(body).toMatch(
      /<td><code>exporter<\/code><\/td><td class="muted">–<\/td><td class="add"><code>safetensors-0\.5\.3<\/code><\/td>/,
    );
    // A re-export that leaves the metadata alone shows no metadata table.
    expect(await page("Drop duplicated lm_head")).not.toContain("Header metadata");
  });
});

import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobs } from "../../jobs/index.ts";
import { loadConfig } from "../../src/config/env.ts";
import { createApp } from "../../src/http/app.ts";
import { createHubClient } from "../../src/hub/client.ts";
import { createInProcessRunner } from "../../src/queue/in-process-runner.ts";
import { startReplayHub } from "../../src/replay-hub/index.ts";
import { hubPortFrom } from "../../src/services/hub-port.ts";
import { watchRepo } from "../../src/services/watch-repos.ts";
import { freshPgDatabase, type PgTestDatabase } from "../helpers/db.ts";

// Two Hub webhooks for one repo arriving before the poll runs queue one poll (the runner's job-id dedupe).

let db: PgTestDatabase;
let hub: Awaited<ReturnType<typeof startReplayHub>>;

beforeAll(async () => {
  db = await freshPgDatabase();
  hub = await startReplayHub();
});
afterAll(async () => {
  await hub?.close();
  await db?.close();
});

describe("POST /hooks/hub with the real runner", () => {
  it("polls once for two pushes that arrive while a poll is queued", async () => {
    const services = {
      config: loadConfig({ HF_ENDPOINT: hub.url }),
      db: db.db,
      hub: hubPortFrom(createHubClient({ hubUrl: hub.url })),
      log: pino({ level: "silent" }),
      now: () => new Date(),
      fetch: globalThis.fetch,
    };
    // A repo the replay hub does not have: the poll records not_found and queues nothing else.
    await watchRepo(services, "nobody/missing-model");
    const runner = createInProcessRunner({ jobs, services });
    const app = await createApp({ db: db.db, enqueue: runner.enqueue, hubWebhookSecret: "s" });
    const push = () =>
      app.inject({
        method: "POST",
        url: "/hooks/hub",
        headers: { "x-webhook-secret": "s" },
        payload: {
          event: { action: "update", scope: "repo.content" },
          repo: { type: "model", name: "nobody/missing-model" },
        },
      });
    expect((await push()).json()).toMatchObject({ queued: true });
    expect((await push()).json()).toMatchObject({ queued: true });
    const before = hub.requestLog.length;
    await runner.start();
    await runner.idle();
    expect(runner.completed + runner.failures.length).toBe(1);
    expect(hub.requestLog.length - before).toBeGreaterThan(0);
    await runner.close();
    await app.close();
  });

  it("uses the payload's head: one already seen costs no Hub request, a new one one commits page", async () => {
    const services = {
      config: loadConfig({ HF_ENDPOINT: hub.url }),
      db: db.db,
      hub: hubPortFrom(createHubClient({ hubUrl: hub.url })),
      log: pino({ level: "silent" }),
      now: () => new Date(),
      fetch: globalThis.fetch,
    };
    const name = "openai-community/gpt2";
    await watchRepo(services, name);
    const runner = createInProcessRunner({ jobs, services });
    const app = await createApp({ db: db.db, enqueue: runner.enqueue, hubWebhookSecret: "s" });
    await runner.start();
    const push = async (newSha: string) => {
      const res = await app.inject({
        method: "POST",
        url: "/hooks/hub",
        headers: { "x-webhook-secret": "s" },
        payload: {
          event: { action: "update", scope: "repo.content" },
          repo: { type: "model", name, headSha: newSha },
          updatedRefs: [{ ref: "refs/heads/main", oldSha: null, newSha }],
        },
      });
      expect(res.json()).toMatchObject({ queued: true });
      await runner.idle();
    };
    await push(hub.headSha(name)); // first watch: the history is read
    const seen = hub.requestLog.length;
    await push(hub.headSha(name)); // the same head again
    expect(hub.requestLog.length).toBe(seen);
    const sha = hub.addCommit(name, {
      title: "README",
      date: "2026-01-01T00:00:00Z",
      changes: { "README.md": { kind: "text", text: "# hooked\n" } },
    });
    hub.clearLog();
    await push(sha);
    const commits = hub.requestLog.filter((e) => e.route === "commits");
    expect(commits.map((e) => e.path)).toEqual([`/api/models/${name}/commits/main?limit=100`]);
    // A repo deleted or moved (scope "repo") is re-checked by a plain poll: one commits page of 10.
    hub.clearLog();
    const moved = await app.inject({
      method: "POST",
      url: "/hooks/hub",
      headers: { "x-webhook-secret": "s" },
      payload: { event: { action: "move", scope: "repo" }, repo: { type: "model", name } },
    });
    expect(moved.json()).toMatchObject({ queued: true, repo: name });
    await runner.idle();
    expect(hub.requestLog.map((e) => e.path)).toEqual([`/api/models/${name}/commits/main?limit=10`]);
    expect(runner.failures).toEqual([]);
    await runner.close();
    await app.close();
  });
});

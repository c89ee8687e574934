import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type JobRegistry, jobs } from "../../jobs/index.ts";
import { validateOsvRecord } from "../../src/core/osv/validate.ts";
import { createInProcessRunner, type InProcessRunner } from "../../src/queue/in-process-runner.ts";
import { realTemplates } from "../../src/replay-hub/fixtures/builder.ts";
import { fixtureRepos, type ReplayHub, startReplayHub } from "../../src/replay-hub/index.ts";
import { listAdvisoriesByRepo } from "../../src/repositories/advisories-read.repository.ts";
import { listBehaviorChangesByRevision } from "../../src/repositories/behavior-changes.repository.ts";
import { listChangesByRevision } from "../../src/repositories/changes.repository.ts";
import { getRepoByName } from "../../src/repositories/repos.repository.ts";
import { listRevisionsByRepo } from "../../src/repositories/revisions-read.repository.ts";
import type { PipelineServices } from "../../src/services/deps.ts";
import { watchRepo } from "../../src/services/watch-repos.ts";
import { createSubscription } from "../../src/services/webhooks/subscriptions.ts";
import { freshPgliteDatabase, type TestDatabase } from "../helpers/db.ts";
import { pipelineServices } from "./harness.ts";

const QWQ = "Qwen/QwQ-32B";

// Qwen/QwQ-32B's real template history (three prompt-changing edits, two of which the old scenarios
// and renderer called identical) and a synthetic EOS fix, through the whole pipeline.
describe("behaviour changes from a real template history and an EOS change", () => {
  let hub: ReplayHub;
  let store: TestDatabase;
  let s: PipelineServices;
  let runner: InProcessRunner<JobRegistry>;
  let eosOnly: number;

  beforeAll(async () => {
    hub = await startReplayHub({ repos: fixtureRepos().filter((r) => r.id === QWQ) });
    store = await freshPgliteDatabase();
    s = pipelineServices(store.db, hub).services;
    runner = createInProcessRunner({ jobs, services: s, delayScale: 0.001 });
    await runner.start();
    await watchRepo(s, QWQ);
    // A subscriber that wants only EOS news (its target is refused at send time: nothing leaves).
    const sub = await createSubscription(
      { db: s.db, allowPrivateTargets: true },
      {
        url: "http://127.0.0.1:9/eos",
        events: ["revision.changed", "advisory.opened"],
        kinds: ["eos_token"],
      },
    );
    eosOnly = sub.id;
    await runner.enqueue("poll-all", {});
    await runner.idle();
  }, 120_000);

  afterAll(async () => {
    await runner?.close();
    await store?.close();
    await hub?.close();
  });

  async function history() {
    const repo = (await getRepoByName(s.db, QWQ))!;
    const revisions = await listRevisionsByRepo(s.db, repo.id);
    return { repo, revisions };
  }

  it("reports every real template edit as a prompt change, and the EOS fix as an EOS change", async () => {
    expect(runner.failures).toEqual([]);
    const { revisions } = await history();
    const [v1, v2, v3, v4] = realTemplates("Qwen__QwQ-32B");
    const bySha = new Map(revisions.map((r) => [r.sha, r]));
    const behaviour = async (sha: string) =>
      (await listBehaviorChangesByRevision(s.db, bySha.get(sha)!.id)).map((b) => [b.kind, b.summary]);
    expect(await behaviour(v1!.sha)).toEqual([]); // the first upload: nothing behaved otherwise before
    expect(await behaviour(v2!.sha)).toEqual([
      [
        "prompt",
        expect.stringMatching(/^rendered prompt changed: chat template "default" changes \d+ scenarios/),
      ],
    ]);
    expect(await behaviour(v3!.sha)).toEqual([
      ["prompt", expect.stringContaining("reasoning_inline_last_turn")],
    ]);
    expect(await behaviour(v4!.sha)).toEqual([["prompt", expect.stringContaining("(whitespace_answers)")]]);
    const last = revisions.at(-1)!;
    expect((await listBehaviorChangesByRevision(s.db, last.id)).map((b) => [b.kind, b.summary])).toEqual([
      ["eos_token", "EOS token changed: generation_config.json eos_token_id 151643 -> [151645,151643]"],
    ]);
    for (const r of revisions) {
      for (const c of await listChangesByRevision(s.db, r.id)) expect(c.summary).not.toMatch(/identical/);
    }
  });

  it("opens one advisory for the prompt change and one for the EOS change, kinds in database_specific", async () => {
    const { repo, revisions } = await history();
    const [, v2] = realTemplates("Qwen__QwQ-32B");
    const advisories = await listAdvisoriesByRepo(s.db, repo.id);
    const kinds = advisories.map((a) => [
      a.introducedSha,
      (a.record as { database_specific: { kind: string } }).database_specific.kind,
      a.status,
    ]);
    expect(kinds.sort()).toEqual(
      [
        [v2!.sha, "prompt", "open"],
        [revisions.at(-1)!.sha, "eos_token", "open"],
      ].sort(),
    );
    for (const a of advisories) {
      expect(validateOsvRecord(a.record).errors).toEqual([]);
      expect(String((a.record as { summary: string }).summary)).toMatch(
        /rendered prompt changed|EOS token changed/,
      );
    }
  });

  async function events(type: string) {
    const rows = await store.db.execute<{ id: string; payload: { data: Record<string, unknown> } }>(
      sql`select id, payload from webhook_events where type = ${type} order by created_at, id`,
    );
    return (rows as unknown as { rows: { id: string; payload: { data: Record<string, unknown> } }[] }).rows;
  }

  it("emits revision.changed with change kinds, a summary and links; drift updates the open prompt advisory", async () => {
    const { revisions } = await history();
    const [, v2, v3, v4] = realTemplates("Qwen__QwQ-32B");
    const changed = new Map(
      (await events("revision.changed")).map((e) => [e.payload.data.sha, e.payload.data]),
    );
    expect(changed.get(v2!.sha)).toMatchObject({
      repo: QWQ,
      kinds: ["prompt"],
      summary: expect.stringMatching(/^rendered prompt changed/),
      links: {
        revision: `/repos/${QWQ}/revisions/${v2!.sha}`,
        commit: expect.stringMatching(new RegExp(`/${QWQ}/commit/${v2!.sha}$`)),
      },
      files: expect.arrayContaining([expect.objectContaining({ category: "chat_template" })]),
    });
    expect(changed.get(revisions.at(-1)!.sha)).toMatchObject({ kinds: ["eos_token"] });
    // The prompt advisory opened at v2 stays open while v3 and v4 change the prompt again: each drift
    // rewrites its details, moves `modified`, and says so in an advisory.updated event.
    const updated = (await events("advisory.updated")).map((e) => e.payload.data);
    expect(updated.map((d) => [d.reason, d.revision])).toEqual([
      ["drift", v3!.sha],
      ["drift", v4!.sha],
    ]);
    const records = updated.map((d) => d.record as { modified: string; published: string; details: string });
    expect(records[0]!.modified >= records[0]!.published).toBe(true);
    expect(records[1]!.details).toContain("whitespace_answers");
    for (const r of records) expect(validateOsvRecord(r).errors).toEqual([]);
    // The EOS-only subscriber got deliveries for exactly the events about eos_token.
    const rows = await store.db.execute(
      sql`select e.type from webhook_deliveries d join webhook_events e on e.id = d.event_id
          where d.subscription_id = ${eosOnly} order by e.type`,
    );
    expect((rows as unknown as { rows: { type: string }[] }).rows.map((r) => r.type)).toEqual([
      "advisory.opened",
      "revision.changed",
    ]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type JobRegistry, jobs } from "../../jobs/index.ts";
import { osvTimestamp } from "../../src/core/osv/id.ts";
import { validateOsvRecord } from "../../src/core/osv/validate.ts";
import { schema } from "../../src/db/index.ts";
import { createInProcessRunner, type InProcessRunner } from "../../src/queue/in-process-runner.ts";
import { fixtureRepos, type ReplayHub, startReplayHub } from "../../src/replay-hub/index.ts";
import { listAdvisoriesByRepo } from "../../src/repositories/advisories-read.repository.ts";
import { getBadge } from "../../src/repositories/badges.repository.ts";
import { getRepoByName } from "../../src/repositories/repos.repository.ts";
import type { PipelineServices } from "../../src/services/deps.ts";
import { watchRepo } from "../../src/services/watch-repos.ts";
import { freshPgliteDatabase, type TestDatabase } from "../helpers/db.ts";
import { dumpStore, FORCE_PUSH_REPO, pipelineServices } from "./harness.ts";

const FIX_GONE_REPO = "Qwen/Qwen3-1.7B";

const readme = (text: string) => ({
  title: "README only",
  date: "2026-11-30T08:00:00Z",
  changes: { "README.md": { kind: "text" as const, text } },
});

// Qwen3-4B's 48-layer commit opens an advisory (full fine-tune no longer fits); a force-push that
// drops it (and the README after it) must withdraw that advisory, not leave it open on a vanished sha.
// Qwen3-1.7B's last commit reverts 32 layers to 28 and so closes its advisory; dropping that commit
// reopens it (the fix is no longer upstream).
describe("advisories after a force-push removes their introducing or fixing revision", () => {
  let hub: ReplayHub;
  let store: TestDatabase;
  let s: PipelineServices;
  let runner: InProcessRunner<JobRegistry>;
  const clock = { at: new Date("2026-11-29T12:00:00.500Z") };

  async function pollAll(): Promise<void> {
    await runner.enqueue("poll-all", {});
    await runner.idle();
  }

  beforeAll(async () => {
    hub = await startReplayHub({
      repos: fixtureRepos().filter((r) => [FORCE_PUSH_REPO, FIX_GONE_REPO].includes(r.id)),
    });
    store = await freshPgliteDatabase();
    s = { ...pipelineServices(store.db, hub).services, now: () => clock.at };
    runner = createInProcessRunner({ jobs, services: s, delayScale: 0.001 });
    await runner.start();
    await watchRepo(s, FORCE_PUSH_REPO);
    await watchRepo(s, FIX_GONE_REPO);
    await pollAll();
  }, 120_000);

  afterAll(async () => {
    await runner?.close();
    await store?.close();
    await hub?.close();
  });

  it("withdraws the one introduced, reopens the one fixed (schema-valid, events, badges); a second poll changes nothing", async () => {
    const repo = (await getRepoByName(s.db, FORCE_PUSH_REPO))!;
    const [before] = await listAdvisoriesByRepo(s.db, repo.id);
    expect(before?.status).toBe("open");
    expect((await getBadge(s.db, repo.id, "advisories"))?.json).toMatchObject({ message: "1 open" });
    const history = hub.history(FORCE_PUSH_REPO).map((c) => c.sha);
    const dropped = history.slice(history.indexOf(before!.introducedSha));
    expect(dropped).toHaveLength(2);

    clock.at = new Date("2026-11-30T08:15:42.250Z");
    const fixRepo = (await getRepoByName(s.db, FIX_GONE_REPO))!;
    const [fixedBefore] = await listAdvisoriesByRepo(s.db, fixRepo.id);
    expect(fixedBefore).toMatchObject({ status: "closed", fixedSha: hub.history(FIX_GONE_REPO).at(-1)?.sha });
    expect((await getBadge(s.db, fixRepo.id, "advisories"))?.json).toMatchObject({ message: "none" });
    // A subscriber to advisory updates: the poll must queue the fan-out of the events it records.
    const [sub] = await s.db
      .insert(schema.webhookSubscriptions)
      .values({
        url: "http://127.0.0.1:9/hook",
        secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
        events: ["advisory.updated"],
      })
      .returning();
    hub.forcePush(FORCE_PUSH_REPO, { dropLast: 2, commits: [readme("# rewritten\n")] });
    hub.forcePush(FIX_GONE_REPO, { dropLast: 1, commits: [readme("# no revert\n")] });
    await pollAll();
    expect(runner.failures).toEqual([]);

    const [after, ...others] = await listAdvisoriesByRepo(s.db, repo.id);
    expect(others).toEqual([]);
    expect(after).toMatchObject({ id: before!.id, status: "closed", fixedSha: null });
    expect(after!.modified.toISOString()).toBe(clock.at.toISOString());
    const record = after!.record;
    expect(validateOsvRecord(record)).toEqual({ valid: true, errors: [] });
    expect(record.withdrawn).toBe(osvTimestamp(clock.at));
    expect(record.withdrawn).toBe("2026-11-30T08:15:42Z");
    expect(record.modified).toBe(record.withdrawn);
    expect(record.published).toBe(before!.record.published);
    expect(record.affected).toEqual(before!.record.affected);
    expect(record.database_specific).toMatchObject({
      withdrawn_reason: "introducing revision force-pushed away",
    });
    expect((await getBadge(s.db, repo.id, "advisories"))?.json).toMatchObject({ message: "none" });
    const events = (await s.db.select().from(schema.webhookEvents)).filter(
      (e) => e.type === "advisory.updated",
    );
    expect(events.map((e) => (e.payload.data as { id: string }).id).sort()).toEqual(
      [before!.id, fixedBefore!.id].sort(),
    );
    const deliveries = await s.db.select().from(schema.webhookDeliveries);
    expect(
      deliveries
        .filter((d) => d.subscriptionId === sub!.id)
        .map((d) => d.eventId)
        .sort(),
    ).toEqual(events.map((e) => e.id).sort());
    // Off again, so no retry to the unreachable receiver changes the store during the repeat check below.
    await s.db.update(schema.webhookSubscriptions).set({ enabled: false });

    // The fix is gone: open again, no fixed event, the new README head leaves it open.
    const [reopened] = await listAdvisoriesByRepo(s.db, fixRepo.id);
    expect(reopened).toMatchObject({ id: fixedBefore!.id, status: "open", fixedSha: null });
    expect(reopened!.modified.toISOString()).toBe(clock.at.toISOString());
    expect(validateOsvRecord(reopened!.record)).toEqual({ valid: true, errors: [] });
    expect(reopened!.record.withdrawn).toBeUndefined();
    expect(JSON.stringify(reopened!.record.affected)).not.toContain("fixed");
    expect((await getBadge(s.db, fixRepo.id, "advisories"))?.json).toMatchObject({ message: "1 open" });

    const dump = await dumpStore(s.db);
    const rows = await s.db.select().from(schema.advisories);
    clock.at = new Date("2026-12-01T00:00:00Z");
    await pollAll();
    expect(runner.failures).toEqual([]);
    expect(await dumpStore(s.db)).toEqual(dump);
    expect(await s.db.select().from(schema.advisories)).toEqual(rows);
  });
});

/**
 * A first watch's backfill never delays a caught-up repo's new revision: its advance jobs are queued as
 * "backfill" and taken only when nothing else is runnable, so the new revision goes at the first free slot.
 */
import { afterEach, describe, expect, it } from "vitest";
import { makeSyntheticRepos } from "../../src/replay-hub/index.ts";
import { watchRepo } from "../../src/services/watch-repos.ts";
import { expectAllDone, type Pipeline, startPipeline } from "../faults/harness.ts";

let p: Pipeline | undefined;
afterEach(async () => {
  await p?.close();
  p = undefined;
});

describe("backfill priority", () => {
  it("a caught-up repo's new revision is processed before the backfill of eight new repos", async () => {
    const backfill = makeSyntheticRepos({ count: 8, revisionsEach: 5 });
    const [caught] = makeSyntheticRepos({ count: 1, revisionsEach: 2 }).map((r) => ({
      ...r,
      id: "caught/up-model",
    }));
    p = await startPipeline({ repos: [caught!, ...backfill], watch: [caught!.id] });
    await p.cycle();
    for (const r of backfill) await watchRepo(p.services, r.id);
    const doneCount = async () =>
      Number(
        (await p!.sql.query("select count(*)::int as n from revisions where status = 'done'")).rows[0].n,
      );
    const before = await doneCount();
    // The backfill is under way (a few of its revisions done) when the caught-up repo gets a new one.
    await p.runner.enqueue("poll-all", {});
    while ((await doneCount()) < before + 6) await new Promise((r) => setTimeout(r, 20));
    const t0 = new Date();
    const fresh = p.hub.addCommit(caught!.id, {
      title: "new revision",
      date: "2026-01-01T00:00:00Z",
      changes: { "README.md": { kind: "text", text: "# new\n" } },
    });
    await p.runner.enqueue("poll-all", {});
    await p.runner.idle();
    for (const r of [caught!, ...backfill]) await expectAllDone(p, r.id);
    const { rows } = await p.sql.query(
      `select o.name, r.sha, r.processed_at from revisions r join repos o on o.id = r.repo_id
       where r.processed_at is not null order by r.processed_at, r.id`,
    );
    const freshAt = rows.find((r) => r.sha === fresh)!.processed_at as Date;
    const backfillMeanwhile = rows.filter(
      (r) => r.name !== caught!.id && r.processed_at >= t0 && r.processed_at < freshAt,
    ).length;
    // Only backfill jobs already running, or started while the new revision's poll ran, finish first:
    // without priorities it would wait behind every repo's queued backfill job, several times over.
    expect(backfillMeanwhile).toBeLessThanOrEqual(8);
    expect(rows.filter((r) => r.name !== caught!.id)).toHaveLength(8 * 5);
    expect(p.runner.failures).toEqual([]);
  });
});

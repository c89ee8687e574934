/**
 * Owner-level head checks: a tick lists each owner watched twice or more once (heads from
 * /api/models?author=&expand[]=sha), polls only repos whose head moved (one commits page, no small page
 * first), and checks per repo the ones the listing cannot show (a private repo) or that are alone under
 * their owner. A first watch reads the newest commits only and records that older history was skipped.
 */
import { afterEach, describe, expect, it } from "vitest";
import { makeSyntheticRepos, type RepoSpec } from "../../src/replay-hub/index.ts";
import { expectAllDone, findingsOf, type Pipeline, startPipeline } from "../faults/harness.ts";

let p: Pipeline | undefined;
afterEach(async () => {
  await p?.close();
  p = undefined;
});

function repos(): RepoSpec[] {
  const owned = makeSyntheticRepos({ count: 6, revisionsEach: 2 });
  const [solo, hidden] = makeSyntheticRepos({ count: 2, revisionsEach: 2 });
  return [
    ...owned,
    { ...solo!, id: "solo/only-model" },
    { ...hidden!, id: "synthetic/private-model", private: true, tokens: ["hf_someone_else"] },
  ];
}

const readme = (hour: number) => ({
  title: `README ${hour}`,
  date: new Date(Date.UTC(2025, 6, 1, hour)).toISOString(),
  changes: { "README.md": { kind: "text" as const, text: `# ${hour}\n` } },
});

describe("owner-level head checks", () => {
  it("an idle tick costs one listing for the owner plus a check per repo the listing cannot cover", async () => {
    p = await startPipeline({ repos: repos() });
    await p.cycle();
    for (const id of p.hub.repoIds().filter((id) => id !== "synthetic/private-model"))
      await expectAllDone(p, id);
    p.hub.clearLog();
    await p.cycle();
    const idle = p.hub.requestLog.map((e) => `${e.route} ${e.repo ?? ""}`.trim()).sort();
    expect(idle).toEqual(["commits solo/only-model", "commits synthetic/private-model", "models"]);
    expect(p.hub.requestLog.find((e) => e.route === "models")?.path).toMatch(/author=synthetic.*expand=sha/);
  });

  it("a moved head is polled alone, with one commits page; unchanged repos cost nothing more", async () => {
    p = await startPipeline({ repos: repos() });
    await p.cycle();
    const moved = "synthetic/model-00003";
    p.hub.addCommit(moved, readme(1));
    p.hub.addCommit(moved, readme(2));
    p.hub.clearLog();
    await p.cycle();
    const commits = p.hub.requestLog.filter((e) => e.route === "commits");
    expect(commits.map((e) => e.repo).sort()).toEqual(["solo/only-model", moved, "synthetic/private-model"]);
    expect(commits.find((e) => e.repo === moved)?.path).toMatch(/limit=100/);
    expect(p.hub.requestLog.filter((e) => e.route === "tree").map((e) => e.repo)).toEqual([moved, moved]);
    await expectAllDone(p, moved);
  });

  it("a first watch reads the newest commits only and records the skipped history", async () => {
    const [long] = makeSyntheticRepos({ count: 1, revisionsEach: 6 });
    p = await startPipeline({ repos: [long!], env: { HUBWATCH_BACKFILL_DEPTH: "3" } });
    await p.cycle();
    const { rows } = await p.sql.query("select sha from revisions order by seq");
    expect(rows.map((r) => r.sha)).toEqual(
      p.hub
        .history(long!.id)
        .slice(-3)
        .map((c) => c.sha),
    );
    const skipped = (await findingsOf(p, long!.id)).filter((f) => f.kind === "history_skipped");
    expect(skipped).toHaveLength(1);
    expect(skipped[0]!.message).toMatch(/newest 3 commits/);
    expect(p.hub.requestLog.filter((e) => e.route === "commits").map((e) => e.path)).toEqual([
      `/api/models/${long!.id}/commits/main?limit=4`,
    ]);
  });
});

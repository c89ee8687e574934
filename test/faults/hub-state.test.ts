/**
 * Upstream state that changes under hubwatch: gated and deleted repos, a revision that vanishes between
 * the listing and the fetch, force-pushes. Each is recorded on the repo (status and finding), the other
 * repos go on, and nothing is processed twice or half-written.
 */
import { afterEach, describe, expect, it } from "vitest";
import { MISSING_REPO_ID, makeSyntheticRepos } from "../../src/replay-hub/index.ts";
import { advanceRepo } from "../../src/services/advance-repo.ts";
import { pollRepo } from "../../src/services/poll-repo.ts";
import {
  expectAllDone,
  FAULTED_REPO,
  findingsOf,
  healthyRepos,
  OTHER_REPOS,
  type Pipeline,
  repoStatus,
  revisionsOf,
  startPipeline,
  storeInvariants,
} from "./harness.ts";

const A = FAULTED_REPO;
const OTHERS = OTHER_REPOS;

let p: Pipeline | undefined;
afterEach(async () => {
  await p?.close();
  p = undefined;
});

const readme = (title: string, hour: number) => ({
  title,
  date: new Date(Date.UTC(2025, 3, 1, hour)).toISOString(),
  changes: { "README.md": { kind: "text" as const, text: `# ${title}\n` } },
});

describe("upstream state", () => {
  it("a gated repo is recorded as gated (status + finding), not retried; the others go on", async () => {
    const [gated] = makeSyntheticRepos({ count: 1, revisionsEach: 3 }).map((r) => ({
      ...r,
      id: "private-org/gated-model",
      gated: "manual" as const,
    }));
    p = await startPipeline({ repos: [...healthyRepos(), gated!] });
    await p.cycle();
    expect((await repoStatus(p, gated!.id)).status).toBe("gated");
    expect((await findingsOf(p, gated!.id)).map((f) => f.kind)).toContain("gated");
    for (const repo of [A, ...OTHERS]) await expectAllDone(p, repo);
    expect(p.runner.failures).toEqual([]);
    // A second tick with nothing new costs the gated repo one request and does not retry its files.
    p.hub.clearLog();
    await p.cycle();
    expect(p.hub.requestLog.filter((e) => e.repo === gated!.id).map((e) => e.route)).toEqual(["commits"]);
    expect(await storeInvariants(p)).toEqual([]);
  });

  it("a deleted (404) repo is recorded as not_found with a finding; the others go on", async () => {
    p = await startPipeline({ repos: healthyRepos(), watch: [A, ...OTHERS, MISSING_REPO_ID] });
    await p.cycle();
    expect((await repoStatus(p, MISSING_REPO_ID)).status).toBe("not_found");
    expect((await findingsOf(p, MISSING_REPO_ID)).map((f) => f.kind)).toEqual(["not_found"]);
    expect(await revisionsOf(p, MISSING_REPO_ID)).toEqual([]);
    for (const repo of [A, ...OTHERS]) await expectAllDone(p, repo);
    expect(p.runner.failures).toEqual([]);
  });

  it("a revision that vanishes between listing and fetching is failed as not_found; the new head is processed", async () => {
    p = await startPipeline({ repos: healthyRepos() });
    await p.cycle();
    const listed = p.hub.addCommit(A, readme("listed then gone", 1));
    // Listed (pending in the store), then rewritten upstream before any worker fetched it.
    expect((await pollRepo(p.services, A)).newRevisions).toBe(1);
    const replacement = p.hub.forcePush(A, { dropLast: 1, commits: [readme("replacement", 2)] });
    const outcome = await advanceRepo(p.services, A);
    expect(outcome).toMatchObject({ sha: listed, status: "failed" });
    const gone = (await revisionsOf(p, A)).find((r) => r.sha === listed);
    expect(gone?.status).toBe("failed");
    expect((await findingsOf(p, A)).find((f) => f.sha === listed)?.kind).toBe("not_found");
    // The next tick sees the rewrite, records it and processes the replacement head.
    await p.cycle();
    const revs = await revisionsOf(p, A);
    expect(revs.find((r) => r.sha === replacement)?.status).toBe("done");
    expect((await findingsOf(p, A)).map((f) => f.kind)).toContain("force_push");
    await expectAllDone(p, A);
    expect(await storeInvariants(p)).toEqual([]);
  });

  it("a force-push is recorded (finding, dropped revisions flagged) and the new head processed once", async () => {
    p = await startPipeline({ repos: healthyRepos() });
    await p.cycle();
    const before = p.hub.history(A).map((c) => c.sha);
    const newHead = p.hub.forcePush(A, {
      dropLast: 2,
      commits: [readme("rewritten 1", 3), readme("rewritten 2", 4)],
    });
    for (const repo of OTHERS) p.hub.addCommit(repo, readme("next", 5));
    await p.cycle();
    await p.cycle(); // a second tick changes nothing
    const revs = await revisionsOf(p, A);
    const dropped = before.slice(-2);
    expect(
      revs
        .filter((r) => r.force_pushed_away)
        .map((r) => r.sha)
        .sort(),
    ).toEqual([...dropped].sort());
    expect(revs.filter((r) => r.sha === newHead)).toHaveLength(1);
    await expectAllDone(p, A);
    expect((await findingsOf(p, A)).filter((f) => f.kind === "force_push")).toHaveLength(1);
    for (const repo of OTHERS) await expectAllDone(p, repo);
    expect(p.runner.failures).toEqual([]);
    expect(await storeInvariants(p)).toEqual([]);
  });
});

/**
 * Transient Hub faults (429 with Retry-After, 5xx, connections reset mid-body, answers slower than the
 * client's timeout) against the real pipeline: the faulted repo ends exactly as a clean run would,
 * the other repos are not held up, and nothing is half-written or duplicated.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  expectAllDone,
  FAULTED_REPO,
  healthyRepos,
  OTHER_REPOS,
  type Pipeline,
  requestsWhere,
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

async function expectCleanFinish(pipeline: Pipeline): Promise<void> {
  for (const repo of [A, ...OTHERS]) await expectAllDone(pipeline, repo);
  expect(pipeline.runner.failures).toEqual([]);
  expect(await storeInvariants(pipeline)).toEqual([]);
}

describe("Hub transient faults", () => {
  it("429 with Retry-After on the commits list: waits, then processes every revision once", async () => {
    p = await startPipeline({ repos: healthyRepos() });
    p.hub.setFault({ kind: "rate-limit", times: 2, retryAfterS: 1, repo: A, route: "commits" });
    const t = Date.now();
    await p.cycle();
    await expectCleanFinish(p);
    expect(requestsWhere(p.hub, (e) => e.status === 429)).toBe(2);
    // The runner's delayScale (0.001) turns Retry-After: 1 s into 1 ms: the wait was honoured, not slept.
    expect(Date.now() - t).toBeLessThan(20_000);
  });

  it("429 on a file download mid-revision (RateLimit header only): the revision resumes, not failed", async () => {
    p = await startPipeline({ repos: healthyRepos() });
    p.hub.setFault({ kind: "rate-limit", times: 3, resetS: 2, repo: A, route: "resolve" });
    await p.cycle();
    await expectCleanFinish(p);
    expect(requestsWhere(p.hub, (e) => e.status === 429 && e.repo === A)).toBe(3);
  });

  it("a 403 from the CDN origin is retried: the repo is not taken for gated and its revisions finish", async () => {
    p = await startPipeline({ repos: healthyRepos(), cdn: true });
    // More refusals than the client's attempts: the advance job fails once and the runner retries it.
    p.hub.setFault({ kind: "server-error", status: 403, times: 3, route: "cdn" });
    await p.cycle();
    await expectCleanFinish(p);
    expect(requestsWhere(p.hub, (e) => e.route === "cdn" && e.status === 403)).toBe(3);
    const { rows } = await p.sql.query("select status from repos order by name");
    expect(rows.map((r) => r.status)).toEqual(["ok", "ok", "ok"]);
    const gated = await p.sql.query("select count(*)::int as n from findings where kind = 'gated'");
    expect(gated.rows[0].n).toBe(0);
  });

  it.each([500, 502, 503])(
    "%i on tree listings: retried with backoff, every revision done once",
    async (status) => {
      p = await startPipeline({ repos: healthyRepos() });
      p.hub.setFault({ kind: "server-error", status, times: 5, repo: A, route: "tree" });
      await p.cycle();
      await expectCleanFinish(p);
      expect(requestsWhere(p.hub, (e) => e.status === status)).toBe(5);
    },
  );

  it("a Hub outage that outlasts every retry leaves the repo's revisions pending; the next tick finishes them", async () => {
    p = await startPipeline({ repos: healthyRepos() });
    p.hub.setFault({ kind: "server-error", status: 503, times: 10_000, repo: A, route: "tree" });
    await p.cycle();
    for (const repo of OTHERS) await expectAllDone(p, repo);
    const stuck = await revisionsOf(p, A);
    expect(stuck.length).toBe(4);
    expect(stuck.every((r) => r.status === "pending")).toBe(true);
    expect(p.runner.failures.map((f) => f.name)).toEqual(["advance-repo"]);
    expect(await storeInvariants(p)).toEqual([]);
    p.hub.clearFaults();
    await p.cycle();
    await expectAllDone(p, A);
    expect(await storeInvariants(p)).toEqual([]);
  });

  it("connection reset mid-body on file downloads: retried; stored content is whole", async () => {
    p = await startPipeline({ repos: healthyRepos() });
    p.hub.setFault({ kind: "reset", times: 4, repo: A, route: "resolve", pathIncludes: "config.json" });
    await p.cycle();
    await expectCleanFinish(p);
    expect(requestsWhere(p.hub, (e) => e.fault === "reset")).toBe(4);
    // The config stored for A's head is the complete upstream file, parsed (not a cut-off prefix).
    const { rows } = await p.sql.query(
      `select a.content from revision_files f join revisions r on r.id = f.revision_id join repos o on o.id = r.repo_id
       join artifacts a on a.hash = f.artifact_hash where o.name = $1 and f.path = 'config.json' and r.sha = $2`,
      [A, p.hub.headSha(A)],
    );
    expect(JSON.parse(rows[0].content).model_type).toBe("qwen3");
  });

  it("connection reset mid-body on the commits list: retried, nothing recorded twice", async () => {
    p = await startPipeline({ repos: healthyRepos() });
    p.hub.setFault({ kind: "reset", times: 3, repo: A, route: "commits" });
    await p.cycle();
    await expectCleanFinish(p);
  });

  it("answers slower than the client timeout: aborted, retried, finished", async () => {
    p = await startPipeline({ repos: healthyRepos() });
    // FAST_HUB.timeoutMs is 400: a 1.5 s answer is a timeout.
    p.hub.setFault({ kind: "delay", ms: 1500, times: 3, repo: A, route: "tree" });
    await p.cycle();
    await expectCleanFinish(p);
    expect(requestsWhere(p.hub, (e) => e.fault === "delay")).toBe(3);
  });
});

import { describe, expect, it } from "vitest";
import { createHubClient, HubNotFoundError, listNewCommits } from "../../src/hub/index.ts";
import { MISSING_REPO_ID, makeSyntheticRepos } from "../../src/replay-hub/index.ts";
import { useReplayHub } from "../helpers/replay-hub.ts";

const hub = useReplayHub((started) => {
  started.addRepo(makeSyntheticRepos({ count: 1, revisionsEach: 40 })[0]!);
});
const LONG = "synthetic/model-00000";

describe("listNewCommits against the replay hub", () => {
  it("returns the whole history oldest first on a first poll, with parents", async () => {
    const r = await listNewCommits({ repo: "Qwen/Qwen3-1.7B", hubUrl: hub.url });
    const history = hub.history("Qwen/Qwen3-1.7B");
    expect(r.commits.map((c) => c.sha)).toEqual(history.map((c) => c.sha));
    expect(r.commits[0]!.parentSha).toBeNull();
    expect(r.commits[1]!.parentSha).toBe(history[0]!.sha);
    expect(r.commits[0]!.title).toBe("initial commit");
    expect(r.commits[0]!.authors).toEqual(["system"]);
    expect(r.commits[0]!.date).toBeInstanceOf(Date);
    expect(r.headSha).toBe(hub.headSha("Qwen/Qwen3-1.7B"));
    expect(r.forcePushed).toBe(false);
  });

  it("costs exactly one small request when nothing is new", async () => {
    const client = createHubClient({ hubUrl: hub.url });
    const head = hub.headSha(LONG);
    const r = await client.listNewCommits({ repo: LONG, sinceSha: head });
    expect(r).toMatchObject({ commits: [], forcePushed: false, headSha: head });
    expect(hub.requestLog).toHaveLength(1);
    expect(hub.requestLog[0]!.path).toMatch(/\/commits\/main\?limit=10$/);
    expect(client.counter.requests).toBe(1);
    expect(client.counter.bytesReceived).toBe(hub.requestLog[0]!.bytes);
  });

  it("pages newest-first with absolute Link headers until sinceSha is met", async () => {
    const history = hub.history(LONG);
    const since = history[3]!.sha;
    const r = await listNewCommits({ repo: LONG, sinceSha: since, hubUrl: hub.url, pageSize: 15 });
    expect(r.commits.map((c) => c.sha)).toEqual(history.slice(4).map((c) => c.sha));
    expect(r.commits[0]!.parentSha).toBe(since);
    const paths = hub.requestLog.map((e) => e.path);
    // first page of 10, then pages of 15 (p=0, p=1, p=2 reaches index 36 = history[3])
    expect(paths[0]).toMatch(/limit=10$/);
    expect(paths.slice(1).every((p) => p.includes("limit=15"))).toBe(true);
    expect(paths.some((p) => p.includes("p=2"))).toBe(true);
  });

  it("serves X-Total-Count and an absolute next link", async () => {
    const res = await fetch(`${hub.url}/api/models/${LONG}/commits/main?limit=5`);
    expect(res.headers.get("x-total-count")).toBe("40");
    expect(res.headers.get("link")).toBe(
      `<${hub.url}/api/models/${LONG}/commits/main?p=1&limit=5>; rel="next"`,
    );
  });

  it("sees a commit added at runtime", async () => {
    const before = hub.headSha("Qwen/Qwen3-0.6B");
    const sha = hub.addCommit("Qwen/Qwen3-0.6B", {
      title: "Update README.md",
      date: "2025-07-01T00:00:00Z",
      changes: { "README.md": { kind: "text", text: "# new\n" } },
    });
    const r = await listNewCommits({ repo: "Qwen/Qwen3-0.6B", sinceSha: before, hubUrl: hub.url });
    expect(r.commits).toHaveLength(1);
    expect(r.commits[0]).toMatchObject({ sha, parentSha: before, title: "Update README.md" });
    expect(hub.requestLog).toHaveLength(1);
  });

  it("detects a force-push: the old head is gone, the new head is returned", async () => {
    const repo = "Qwen/Qwen3-4B-Instruct-2507";
    const oldHead = hub.headSha(repo);
    const newHead = hub.forcePush(repo);
    expect(newHead).not.toBe(oldHead);
    const r = await listNewCommits({ repo, sinceSha: oldHead, hubUrl: hub.url });
    expect(r.forcePushed).toBe(true);
    expect(r.headSha).toBe(newHead);
    expect(r.commits.map((c) => c.sha)).toEqual([newHead]);
    expect(r.commits[0]!.parentSha).toBe(hub.history(repo).at(-2)!.sha);
    const gone = await fetch(`${hub.url}/api/models/${repo}/revision/${oldHead}`);
    expect(gone.status).toBe(404);
    expect(gone.headers.get("x-error-code")).toBe("RevisionNotFound");
  });

  it("returns only the head on a first poll with initial: head (one request)", async () => {
    const r = await listNewCommits({ repo: LONG, hubUrl: hub.url, initial: "head" });
    expect(r.commits.map((c) => c.sha)).toEqual([hub.headSha(LONG)]);
    expect(r.commits[0]!.parentSha).toBe(hub.history(LONG).at(-2)!.sha);
    expect(hub.requestLog).toHaveLength(1);
  });

  it("throws HubNotFoundError (repo) for a repo the hub does not have", async () => {
    const err = await listNewCommits({ repo: MISSING_REPO_ID, hubUrl: hub.url }).catch((e) => e);
    expect(err).toBeInstanceOf(HubNotFoundError);
    expect(err.what).toBe("repo");
    expect(err.retryable).toBe(false);
  });
});

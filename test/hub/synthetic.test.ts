import { listFiles } from "@huggingface/hub";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHubClient, listTree } from "../../src/hub/index.ts";
import { makeSyntheticRepos, type ReplayHub, startReplayHub } from "../../src/replay-hub/index.ts";

let hub: ReplayHub;
beforeAll(async () => {
  const repos = makeSyntheticRepos({ count: 300, revisionsEach: 8, shards: 3, tokenizerBytes: 20_000 });
  const files = Object.fromEntries(
    Array.from({ length: 1500 }, (_, i) => [`data/part-${i}.txt`, { kind: "text" as const, text: `${i}\n` }]),
  );
  repos.push({
    id: "synthetic/many-files",
    commits: [{ title: "many", date: "2025-01-01T00:00:00Z", changes: files }],
  });
  hub = await startReplayHub({ repos });
});
afterAll(() => hub.close());

describe("synthetic repos for benchmarks", () => {
  it("serves many repos with layer, tokenizer and README changes", async () => {
    expect(hub.repoIds()).toHaveLength(301);
    const client = createHubClient({ hubUrl: hub.url });
    const repo = "synthetic/model-00007";
    const { commits } = await client.listNewCommits({ repo });
    expect(commits).toHaveLength(8);
    const layers: number[] = [];
    for (const c of commits.slice(1)) {
      const tree = await client.listTree({ repo, sha: c.sha });
      const cfg = await client.downloadText({ repo, sha: c.sha, path: "config.json", maxBytes: 1e5 });
      layers.push(JSON.parse(cfg!).num_hidden_layers);
      const w = await client.readWeightHeaders({ repo, sha: c.sha, tree });
      expect(w.files).toHaveLength(3);
      expect(w.tensors.filter((t) => t.name.endsWith("q_proj.weight"))).toHaveLength(layers.at(-1)!);
      const tok = tree.find((f) => f.path === "tokenizer.json")!;
      expect(tok.size).toBeGreaterThan(15_000);
    }
    expect(new Set(layers).size).toBeGreaterThan(1);
  });

  it("paginates a large tree with an absolute cursor link", async () => {
    const entries = [];
    for await (const e of listFiles({ repo: "synthetic/many-files", hubUrl: hub.url, recursive: true }))
      entries.push(e);
    expect(entries.filter((e) => e.type === "file")).toHaveLength(1500);
    expect(entries.filter((e) => e.type === "directory").map((e) => e.path)).toEqual(["data"]);
    const files = await listTree({
      repo: "synthetic/many-files",
      sha: hub.headSha("synthetic/many-files"),
      hubUrl: hub.url,
    });
    expect(files).toHaveLength(1500);
    expect(hub.requestLog.filter((e) => e.route === "tree" && e.path.includes("cursor="))).toHaveLength(2);
  });
});

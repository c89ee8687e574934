/**
 * `hubwatch replay-hub --repos DIR`: histories recorded as DIR/OWNER/NAME/NNNN-SHA/ folders are served
 * with their shas, files and safetensors headers; `POST /_control/repos/OWNER/NAME/commits` pushes a
 * revision while the hub runs, and the Hub client sees it.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listNewCommits, listTree, readSafetensorsHeader } from "../../src/hub/index.ts";
import { loadReposFromFolder } from "../../src/replay-hub/folder-repos.ts";
import { type ReplayHub, startReplayHub } from "../../src/replay-hub/index.ts";

const SHA1 = "1".repeat(40);
const SHA2 = "2".repeat(40);
const HEADER = {
  "model.embed_tokens.weight": { dtype: "BF16", shape: [1024, 64], data_offsets: [0, 131072] },
  "lm_head.weight": { dtype: "BF16", shape: [1024, 64], data_offsets: [131072, 262144] },
};

let dir: string;
let hub: ReplayHub;

async function put(path: string, content: string) {
  await mkdir(dirname(join(dir, path)), { recursive: true });
  await writeFile(join(dir, path), content);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "replay-repos-"));
  const date = (h: number) => new Date(Date.UTC(2025, 0, 1, h)).toISOString();
  await put(
    `acme/tiny/0001-${SHA1}/commit.json`,
    JSON.stringify({ title: "Upload", date: date(1), authors: ["ann"] }),
  );
  await put(`acme/tiny/0001-${SHA1}/config.json`, '{"model_type":"llama"}\n');
  await put(`acme/tiny/0001-${SHA1}/notes.txt`, "old\n");
  await put(`acme/tiny/0001-${SHA1}/model.safetensors.header.json`, JSON.stringify(HEADER));
  await put(
    `acme/tiny/0002-${SHA2}/commit.json`,
    JSON.stringify({ title: "Docs", date: date(2), deleted: ["notes.txt"] }),
  );
  await put(`acme/tiny/0002-${SHA2}/docs/README.md`, "# tiny\n");
  hub = await startReplayHub({ repos: loadReposFromFolder(dir) });
});
afterAll(async () => {
  await hub?.close();
  await rm(dir, { recursive: true, force: true });
});

describe("repos from a folder", () => {
  it("serves each revision with its sha, files, deletions and safetensors header", async () => {
    const r = await listNewCommits({ repo: "acme/tiny", hubUrl: hub.url });
    expect(r.commits.map((c) => [c.sha, c.title, c.authors])).toEqual([
      [SHA1, "Upload", ["ann"]],
      [SHA2, "Docs", ["hubwatch-fixtures"]],
    ]);
    const tree = await listTree({ repo: "acme/tiny", sha: SHA2, hubUrl: hub.url });
    expect(tree.map((f) => f.path)).toEqual(["config.json", "docs/README.md", "model.safetensors"]);
    expect(tree.find((f) => f.path === "model.safetensors")?.lfsOid).toMatch(/^[0-9a-f]{64}$/);
    const h = await readSafetensorsHeader({
      repo: "acme/tiny",
      sha: SHA1,
      path: "model.safetensors",
      hubUrl: hub.url,
    });
    expect(h.tensors.map((t) => [t.name, t.shape])).toEqual([
      ["model.embed_tokens.weight", [1024, 64]],
      ["lm_head.weight", [1024, 64]],
    ]);
  });

  it("a revision pushed through the control route becomes the head", async () => {
    const res = await fetch(`${hub.url}/_control/repos/acme/tiny/commits`, {
      method: "POST",
      body: JSON.stringify({ title: "Live push", files: { "config.json": '{"model_type":"qwen3"}\n' } }),
    });
    expect(res.status).toBe(201);
    const { sha } = (await res.json()) as { sha: string };
    expect(hub.headSha("acme/tiny")).toBe(sha);
    const r = await listNewCommits({ repo: "acme/tiny", sinceSha: SHA2, hubUrl: hub.url });
    expect(r.commits.map((c) => c.title)).toEqual(["Live push"]);
    const bad = await fetch(`${hub.url}/_control/repos/acme/tiny/commits`, { method: "POST", body: "{}" });
    expect(bad.status).toBe(400);
  });
});

import { describe, expect, it } from "vitest";
import {
  createHubClient,
  HubBadDataError,
  listTree,
  readSafetensorsHeader,
  readWeightHeaders,
} from "../../src/hub/index.ts";
import { useReplayHub } from "../helpers/replay-hub.ts";

const hub = useReplayHub();

const sha = (repo: string, i: number) => hub.history(repo)[i]!.sha;
const scalars = (ts: { shape: number[] }[]) => ts.reduce((a, t) => a + t.shape.reduce((x, y) => x * y, 1), 0);

describe("safetensors headers by range reads", () => {
  it("reads only the header of a 1.2 GB file (two range requests)", async () => {
    const repo = "Qwen/Qwen3-0.6B";
    const h = await readSafetensorsHeader({
      repo,
      sha: sha(repo, 1),
      path: "model.safetensors",
      hubUrl: hub.url,
    });
    expect(h.fileSize).toBeGreaterThan(1.1e9);
    // tied, lm_head not stored: the real checkpoint's 751,632,384 minus the 151936 x 1024 embedding
    expect(scalars(h.tensors)).toBe(751632384 - 151936 * 1024);
    expect(h.tensors.find((t) => t.name === "lm_head.weight")).toBeUndefined();
    expect(h.tensors.find((t) => t.name === "model.layers.0.self_attn.q_norm.weight")?.shape).toEqual([128]);
    expect(h.metadata).toEqual({ format: "pt" });
    expect(hub.requestLog.map((e) => e.range)).toEqual(["bytes=0-7", `bytes=8-${h.headerBytes - 1}`]);
    const served = hub.stats().bytesSent;
    expect(served).toBe(h.headerBytes);
    expect(served).toBeLessThan(h.fileSize! / 10_000);
  });

  it("sees the tied embedding stored twice after a re-export (tie_word_embeddings still true)", async () => {
    const repo = "Qwen/Qwen3-0.6B";
    const h = await readSafetensorsHeader({
      repo,
      sha: sha(repo, 2),
      path: "model.safetensors",
      hubUrl: hub.url,
    });
    expect(h.tensors.find((t) => t.name === "lm_head.weight")?.shape).toEqual([151936, 1024]);
    expect(scalars(h.tensors)).toBe(751632384); // the live Hub's safetensors.total for Qwen3-0.6B
  });

  it("reads sharded headers through the index; bytes served are a tiny fraction of the weights", async () => {
    const client = createHubClient({ hubUrl: hub.url });
    const repo = "Qwen/Qwen2.5-7B-Instruct";
    const tree = await client.listTree({ repo, sha: hub.headSha(repo) });
    hub.clearLog();
    const w = await client.readWeightHeaders({ repo, sha: hub.headSha(repo), tree });
    expect(w.indexPath).toBe("model.safetensors.index.json");
    expect(w.files.map((f) => f.path)).toHaveLength(4);
    expect(scalars(w.tensors)).toBe(7615616512);
    expect(w.tensors.some((t) => t.name === "model.layers.0.self_attn.q_proj.bias")).toBe(true);
    const weightBytes = w.files.reduce((a, f) => a + f.size, 0);
    const stats = hub.stats();
    expect(stats.requests).toBe(1 + 2 * 4);
    expect(stats.bytesSent).toBeLessThan(weightBytes / 100_000);
  });

  it("gpt2 keeps its attn.bias buffers (F32)", async () => {
    const repo = "openai-community/gpt2";
    const tree = await listTree({ repo, sha: sha(repo, 2), hubUrl: hub.url });
    const w = await readWeightHeaders({ repo, sha: sha(repo, 2), tree, hubUrl: hub.url });
    expect(w.indexPath).toBeNull();
    expect(w.tensors.find((t) => t.name === "h.0.attn.bias")).toMatchObject({
      dtype: "F32",
      shape: [1, 1, 1024, 1024],
    });
    expect(scalars(w.tensors)).toBe(137022720);
  });

  it("a revision without safetensors has no weight headers", async () => {
    const repo = "openai-community/gpt2";
    const tree = await listTree({ repo, sha: sha(repo, 1), hubUrl: hub.url });
    const w = await readWeightHeaders({ repo, sha: sha(repo, 1), tree, hubUrl: hub.url });
    expect(w).toMatchObject({ tensors: [], files: [], headerBytes: 0 });
  });

  for (const mode of ["truncate", "zero-length", "huge-length", "not-json"] as const) {
    it(`bad header (${mode}) -> non-retryable HubBadDataError, not retried`, async () => {
      hub.setFault({ kind: "safetensors", mode, times: 100, repo: "Qwen/Qwen3-0.6B" });
      const repo = "Qwen/Qwen3-0.6B";
      const err = await readSafetensorsHeader({
        repo,
        sha: sha(repo, 1),
        path: "model.safetensors",
        hubUrl: hub.url,
      }).catch((e) => e);
      expect(err).toBeInstanceOf(HubBadDataError);
      expect(err.retryable).toBe(false);
      expect(hub.requestLog.length).toBeLessThanOrEqual(2);
    });
  }

  it("honours maxHeaderBytes", async () => {
    const repo = "Qwen/Qwen3-0.6B";
    const args = {
      repo,
      sha: sha(repo, 1),
      path: "model.safetensors",
      hubUrl: hub.url,
      maxHeaderBytes: 1000,
    };
    await expect(readSafetensorsHeader(args)).rejects.toThrow(/over the 1000-byte limit/);
  });
});

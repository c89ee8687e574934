import { describe, expect, it } from "vitest";
import {
  downloadText,
  HubAccessError,
  HubBadDataError,
  HubNotFoundError,
  listTree,
} from "../../src/hub/index.ts";
import { GATED_TOKEN } from "../../src/replay-hub/index.ts";
import { useReplayHub } from "../helpers/replay-hub.ts";

const hub = useReplayHub();

const sha = (repo: string, i: number) => hub.history(repo)[i]!.sha;

describe("listTree and downloadText against the replay hub", () => {
  it("lists files recursively with oids, sizes and LFS sha256", async () => {
    const files = await listTree({
      repo: "Qwen/Qwen3-1.7B",
      sha: hub.headSha("Qwen/Qwen3-1.7B"),
      hubUrl: hub.url,
    });
    expect(files.map((f) => f.path)).toEqual([
      ".gitattributes",
      "README.md",
      "config.json",
      "model-00001-of-00002.safetensors",
      "model-00002-of-00002.safetensors",
      "model.safetensors.index.json",
    ]);
    const shard = files.find((f) => f.path.endsWith("00001-of-00002.safetensors"))!;
    expect(shard.size).toBeGreaterThan(1e9);
    expect(shard.lfsOid).toMatch(/^[0-9a-f]{64}$/);
    expect(shard.oid).toMatch(/^[0-9a-f]{40}$/);
    expect(files.find((f) => f.path === "config.json")!.lfsOid).toBeUndefined();
  });

  it("shows the deleted file gone in the later revision", async () => {
    const repo = "Qwen/Qwen3-0.6B";
    const history = hub.history(repo);
    const deletion = history.findIndex((c) => c.title === "Delete generation_config.json");
    expect(deletion).toBeGreaterThan(0);
    const before = await listTree({ repo, sha: history[deletion - 1]!.sha, hubUrl: hub.url });
    const after = await listTree({ repo, sha: history[deletion]!.sha, hubUrl: hub.url });
    expect(before.map((f) => f.path)).toContain("generation_config.json");
    expect(after.map((f) => f.path)).not.toContain("generation_config.json");
  });

  it("downloads a text file at a revision; a missing file is null", async () => {
    const repo = "Qwen/Qwen3-1.7B";
    const text = await downloadText({
      repo,
      sha: sha(repo, 2),
      path: "config.json",
      maxBytes: 1e6,
      hubUrl: hub.url,
    });
    expect(JSON.parse(text!).num_hidden_layers).toBe(32);
    const malformed = await downloadText({
      repo,
      sha: sha(repo, 3),
      path: "config.json",
      maxBytes: 1e6,
      hubUrl: hub.url,
    });
    expect(() => JSON.parse(malformed!)).toThrow();
    const missing = await downloadText({
      repo,
      sha: sha(repo, 2),
      path: "nope.json",
      maxBytes: 1e6,
      hubUrl: hub.url,
    });
    expect(missing).toBeNull();
  });

  it("refuses a file over maxBytes after a 1-byte probe, without downloading it", async () => {
    const repo = "Qwen/Qwen3-1.7B";
    const err = await downloadText({
      repo,
      sha: hub.headSha(repo),
      path: "model.safetensors.index.json",
      maxBytes: 1000,
      hubUrl: hub.url,
    }).catch((e) => e);
    expect(err).toBeInstanceOf(HubBadDataError);
    expect(err.code).toBe("TooLarge");
    expect(err.retryable).toBe(false);
    expect(hub.requestLog).toHaveLength(1);
    expect(hub.requestLog[0]!.range).toBe("bytes=0-0");
    expect(hub.requestLog[0]!.bytes).toBe(1);
  });

  it("refuses without any request when the tree size is passed", async () => {
    const repo = "Qwen/Qwen3-1.7B";
    const args = {
      repo,
      sha: hub.headSha(repo),
      path: "config.json",
      maxBytes: 10,
      size: 726,
      hubUrl: hub.url,
    };
    await expect(downloadText(args)).rejects.toBeInstanceOf(HubBadDataError);
    expect(hub.requestLog).toHaveLength(0);
  });

  it("missing revision throws HubNotFoundError (revision)", async () => {
    const args = {
      repo: "openai-community/gpt2",
      sha: "0".repeat(40),
      path: "config.json",
      maxBytes: 1e6,
      hubUrl: hub.url,
    };
    const err = await downloadText(args).catch((e) => e);
    expect(err).toBeInstanceOf(HubNotFoundError);
    expect(err.what).toBe("revision");
  });
});

describe("gated repo", () => {
  const repo = "meta-llama/Llama-3.2-3B";
  const args = () => ({ repo, sha: hub.headSha(repo), path: "config.json", maxBytes: 1e6, hubUrl: hub.url });

  it("metadata is public: the tree lists without a token", async () => {
    const files = await listTree({ repo, sha: hub.headSha(repo), hubUrl: hub.url });
    expect(files.length).toBeGreaterThan(3);
  });

  it("401 GatedRepo without a token, 403 with a token not granted, content with the granted one", async () => {
    const none = await downloadText(args()).catch((e) => e);
    expect(none).toBeInstanceOf(HubAccessError);
    expect(none).toMatchObject({ status: 401, code: "GatedRepo", retryable: false, gated: true });
    const wrong = await downloadText({ ...args(), accessToken: "hf_not_granted" }).catch((e) => e);
    expect(wrong).toBeInstanceOf(HubAccessError);
    expect(wrong.status).toBe(403);
    const ok = await downloadText({ ...args(), accessToken: GATED_TOKEN });
    expect(JSON.parse(ok!).vocab_size).toBe(128512);
    // not retried: one request per refused attempt
    expect(hub.requestLog.filter((e) => e.status === 401 || e.status === 403)).toHaveLength(2);
  });
});

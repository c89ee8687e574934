import {
  downloadFile,
  fileDownloadInfo,
  fileExists,
  listCommits,
  listFiles,
  modelInfo,
  parseSafetensorsMetadata,
  pathsInfo,
} from "@huggingface/hub";
import { describe, expect, it } from "vitest";
import { GATED_TOKEN } from "../../src/replay-hub/index.ts";
import { useReplayHub } from "../helpers/replay-hub.ts";

const hub = useReplayHub();

describe("@huggingface/hub works unchanged against the replay hub", () => {
  it("listCommits paginates newest first", async () => {
    const shas: string[] = [];
    for await (const c of listCommits({ repo: "Qwen/Qwen3-0.6B", hubUrl: hub.url, batchSize: 2 }))
      shas.push(c.oid);
    expect(shas).toEqual(
      hub
        .history("Qwen/Qwen3-0.6B")
        .map((c) => c.sha)
        .reverse(),
    );
  });

  it("real template commits keep their Hub shas and dates", async () => {
    const commits = [];
    for await (const c of listCommits({ repo: "Qwen/Qwen2.5-7B-Instruct", hubUrl: hub.url })) commits.push(c);
    expect(commits[0]).toMatchObject({ oid: "acbd96531cda22292a3ceaa67e984955d3965282" });
    expect(commits[1]!.date.toISOString()).toBe("2024-09-18T01:42:04.000Z");
  });

  it("listFiles lists directories and LFS entries", async () => {
    const entries = [];
    for await (const e of listFiles({ repo: "Qwen/Qwen3-1.7B", hubUrl: hub.url, expand: true }))
      entries.push(e);
    const shard = entries.find((e) => e.path === "model-00001-of-00002.safetensors")!;
    expect(shard.lfs?.pointerSize).toBeGreaterThan(100);
    expect(shard.lastCommit?.title).toBe("Revert to 28 layers");
  });

  it("modelInfo honours expand (sha, safetensors, siblings) and a revision", async () => {
    const repo = "Qwen/Qwen2.5-7B-Instruct";
    const first = hub.history(repo)[1]!.sha;
    const info = await modelInfo({
      name: repo,
      hubUrl: hub.url,
      revision: first,
      additionalFields: ["sha", "safetensors", "filePaths"],
    });
    expect(info.sha).toBe(first);
    expect(info.safetensors).toEqual({ parameters: { BF16: 7615616512 }, total: 7615616512 });
    expect(info.filePaths).toContain("model.safetensors.index.json");
    expect(info.name).toBe(repo);
    const bad = await fetch(`${hub.url}/api/models/${repo}/revision/main?expand=nonsense`);
    expect(bad.status).toBe(400);
    const only = (await (
      await fetch(`${hub.url}/api/models/${repo}/revision/main?expand=sha`)
    ).json()) as object;
    expect(Object.keys(only).sort()).toEqual(["_id", "id", "sha"]);
  });

  it("downloadFile, fileDownloadInfo, fileExists and pathsInfo", async () => {
    const repo = "openai-community/gpt2";
    const blob = await downloadFile({ repo, path: "config.json", hubUrl: hub.url });
    expect(JSON.parse(await blob!.text()).model_type).toBe("gpt2");
    const info = await fileDownloadInfo({ repo, path: "model.safetensors", hubUrl: hub.url });
    expect(info!.size).toBeGreaterThan(5e8);
    expect(info!.etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect(await fileDownloadInfo({ repo, path: "missing.json", hubUrl: hub.url })).toBeNull();
    expect(await fileExists({ repo, path: "model.safetensors", hubUrl: hub.url })).toBe(true);
    expect(await fileExists({ repo, path: "pytorch_model.bin", hubUrl: hub.url })).toBe(false);
    const paths = await pathsInfo({ repo, paths: ["config.json", "nope"], hubUrl: hub.url });
    expect(paths.map((p) => p.path)).toEqual(["config.json"]);
  });

  it("parseSafetensorsMetadata: single file and sharded, gated with a token", async () => {
    const single = await parseSafetensorsMetadata({
      repo: "openai-community/gpt2",
      hubUrl: hub.url,
      computeParametersCount: true,
    });
    expect(single.sharded).toBe(false);
    expect(single.parameterCount).toEqual({ F32: 137058816 });
    const sharded = await parseSafetensorsMetadata({
      repo: "meta-llama/Llama-3.2-3B",
      hubUrl: hub.url,
      accessToken: GATED_TOKEN,
      computeParametersCount: true,
    });
    expect(sharded.sharded).toBe(true);
    expect(sharded.parameterCount?.BF16).toBe(3212749824 + 256 * 3072);
    await expect(
      parseSafetensorsMetadata({ repo: "meta-llama/Llama-3.2-3B", hubUrl: hub.url }),
    ).rejects.toThrow();
  });

  it("Range requests: 206, Content-Range, ETag, X-Repo-Commit; encoded revisions accepted", async () => {
    const repo = "Qwen/Qwen3-0.6B";
    const head = hub.headSha(repo);
    const res = await fetch(`${hub.url}/${repo}/resolve/${encodeURIComponent(head)}/model.safetensors`, {
      headers: { Range: "bytes=100-199" },
    });
    expect(res.status).toBe(206);
    expect(res.headers.get("content-range")).toMatch(/^bytes 100-199\/\d+$/);
    expect(res.headers.get("x-repo-commit")).toBe(head);
    expect(res.headers.get("accept-ranges")).toBe("bytes");
    expect((await res.arrayBuffer()).byteLength).toBe(100);
    const missing = await fetch(`${hub.url}/${repo}/resolve/main/nope.txt`);
    expect([missing.status, missing.headers.get("x-error-code")]).toEqual([404, "EntryNotFound"]);
    // The Hub answers an anonymous request for a missing repo 401, a request with a token 404.
    const noRepo = await fetch(`${hub.url}/api/models/nobody/nothing/revision/main`);
    expect([noRepo.status, noRepo.headers.get("x-error-code")]).toEqual([401, "RepoNotFound"]);
    const withToken = await fetch(`${hub.url}/api/models/nobody/nothing/revision/main`, {
      headers: { Authorization: "Bearer hf_any" },
    });
    expect([withToken.status, withToken.headers.get("x-error-code")]).toEqual([404, "RepoNotFound"]);
  });
});

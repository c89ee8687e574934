/**
 * The replay hub behaves like the real Hub where hubwatch's scale depends on it: the owner listing
 * (`/api/models?author=&expand[]=sha`, Link pagination) as @huggingface/hub's listModels reads it, LFS
 * `/resolve/` redirected to a CDN on another origin (Range kept, Authorization dropped), private and
 * missing repos (401 RepoNotFound when anonymous), RateLimit headers on every answer, an enforced quota.
 */
import { listModels } from "@huggingface/hub";
import { afterEach, describe, expect, it } from "vitest";
import { makeSyntheticRepos, type ReplayHub, startReplayHub } from "../../src/replay-hub/index.ts";

let hub: ReplayHub | undefined;
afterEach(async () => {
  await hub?.close();
  hub = undefined;
});

function repos() {
  const synthetic = makeSyntheticRepos({ count: 5, revisionsEach: 2 });
  const other = makeSyntheticRepos({ count: 1, revisionsEach: 1 }).map((r) => ({ ...r, id: "other/one" }));
  const hidden = makeSyntheticRepos({ count: 1, revisionsEach: 1 }).map((r) => ({
    ...r,
    id: "synthetic/zz-private",
    private: true,
    tokens: ["hf_owner"],
  }));
  return [...synthetic, ...other, ...hidden];
}

describe("owner listing", () => {
  it("listModels({search: {owner}, additionalFields: ['sha']}) pages through the owner's repos with heads", async () => {
    hub = await startReplayHub({ repos: repos() });
    const seen: { name: string; sha?: string }[] = [];
    const pages: string[] = [];
    const fetchSpy: typeof fetch = async (input, init) => {
      pages.push(String(input));
      return fetch(input, init);
    };
    for await (const m of listModels({
      search: { owner: "synthetic" },
      additionalFields: ["sha"],
      hubUrl: hub.url,
      fetch: fetchSpy,
    }))
      seen.push({ name: m.name, sha: m.sha });
    expect(seen.map((m) => m.name)).toEqual(
      hub
        .repoIds()
        .filter((id) => /^synthetic\/model-/.test(id))
        .sort(),
    );
    for (const m of seen) expect(m.sha).toBe(hub.headSha(m.name));
    expect(pages).toHaveLength(1);
  });

  it("paginates with an absolute Link next and hides private repos without a granted token", async () => {
    hub = await startReplayHub({ repos: repos() });
    const first = await fetch(`${hub.url}/api/models?author=synthetic&expand[]=sha&limit=2`);
    const body = (await first.json()) as { _id: string; id: string; sha: string }[];
    expect(body.map((b) => Object.keys(b).sort())).toEqual([
      ["_id", "id", "sha"],
      ["_id", "id", "sha"],
    ]);
    const link = first.headers.get("link") ?? "";
    expect(link).toMatch(new RegExp(`^<${hub.url}/api/models\\?.*cursor=.*>; rel="next"$`));
    const ids: string[] = body.map((b) => b.id);
    let next: string | undefined = /<([^>]+)>/.exec(link)?.[1];
    while (next) {
      const res = await fetch(next);
      ids.push(...((await res.json()) as { id: string }[]).map((b) => b.id));
      next = /<([^>]+)>/.exec(res.headers.get("link") ?? "")?.[1];
    }
    expect(ids).toHaveLength(5);
    expect(ids).not.toContain("synthetic/zz-private");
    const owner = await fetch(`${hub.url}/api/models?author=synthetic&expand[]=sha`, {
      headers: { Authorization: "Bearer hf_owner" },
    });
    expect(((await owner.json()) as { id: string }[]).map((b) => b.id)).toContain("synthetic/zz-private");
    const bad = await fetch(`${hub.url}/api/models?author=synthetic&expand[]=nope`);
    expect(bad.status).toBe(400);
  });

  it("a private repo is a 401 RepoNotFound when anonymous, 404 with another token, visible with its own", async () => {
    hub = await startReplayHub({ repos: repos() });
    const url = `${hub.url}/api/models/synthetic/zz-private/commits/main`;
    const anon = await fetch(url);
    expect([anon.status, anon.headers.get("x-error-code")]).toEqual([401, "RepoNotFound"]);
    const other = await fetch(url, { headers: { Authorization: "Bearer hf_other" } });
    expect([other.status, other.headers.get("x-error-code")]).toEqual([404, "RepoNotFound"]);
    const own = await fetch(url, { headers: { Authorization: "Bearer hf_owner" } });
    expect(own.status).toBe(200);
  });
});

describe("CDN redirect", () => {
  it("LFS resolve answers 302 to another origin; Range survives, Authorization does not", async () => {
    hub = await startReplayHub({ repos: repos(), cdn: true });
    const [repo] = hub.repoIds();
    const path = `/${repo}/resolve/main/model.safetensors`;
    const manual = await fetch(`${hub.url}${path}`, { redirect: "manual" });
    expect(manual.status).toBe(302);
    const location = manual.headers.get("location") ?? "";
    expect(location.startsWith(`${hub.cdnUrl}/`)).toBe(true);
    expect(hub.cdnUrl).not.toBe(hub.url);
    expect(manual.headers.get("x-repo-commit")).toBe(hub.headSha(repo!));
    hub.clearLog();
    const res = await fetch(`${hub.url}${path}`, {
      headers: { Range: "bytes=0-7", Authorization: "Bearer hf_secret" },
    });
    expect(res.status).toBe(206);
    expect((await res.arrayBuffer()).byteLength).toBe(8);
    expect(hub.requestLog.map((e) => [e.route, e.status, e.range, e.authorized])).toEqual([
      ["resolve", 302, "bytes=0-7", true],
      ["cdn", 206, "bytes=0-7", false],
    ]);
    // Small git files are served by the Hub itself.
    const config = await fetch(`${hub.url}/${repo}/resolve/main/config.json`, { redirect: "manual" });
    expect(config.status).toBe(200);
  });

  it("a tampered or unsigned CDN URL is a 403 without X-Error-Code", async () => {
    hub = await startReplayHub({ repos: repos(), cdn: true });
    const [repo] = hub.repoIds();
    const manual = await fetch(`${hub.url}/${repo}/resolve/main/model.safetensors`, { redirect: "manual" });
    const tampered = (manual.headers.get("location") ?? "").replace(
      /Signature=[0-9a-f]+/,
      `Signature=${"0".repeat(64)}`,
    );
    const res = await fetch(tampered);
    expect(res.status).toBe(403);
    expect(res.headers.get("x-error-code")).toBeNull();
  });
});

describe("rate limits", () => {
  it("every Hub answer carries RateLimit and RateLimit-Policy; an enforced quota answers 429 with the reset", async () => {
    hub = await startReplayHub({ repos: repos(), quota: "3/60" });
    const [repo] = hub.repoIds();
    const url = `${hub.url}/api/models/${repo}/commits/main?limit=1`;
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await fetch(url);
      seen.push(`${res.status} ${res.headers.get("ratelimit")}`);
      expect(res.headers.get("ratelimit-policy")).toBe('"fixed window";"api";q=3;w=60');
    }
    expect(seen.map((s) => s.replace(/t=\d+/, "t=T"))).toEqual([
      '200 "api";r=2;t=T',
      '200 "api";r=1;t=T',
      '200 "api";r=0;t=T',
      '429 "api";r=0;t=T',
    ]);
    expect(hub.quotaRefused()).toBe(1);
    // Resolvers are a separate bucket.
    const file = await fetch(`${hub.url}/${repo}/resolve/main/config.json`);
    expect(file.status).toBe(200);
    expect(file.headers.get("ratelimit")).toMatch(/^"resolvers";r=\d+;t=\d+$/);
  });
});

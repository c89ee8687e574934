/**
 * The Hub client against a replay hub that redirects LFS reads to a CDN on another origin, as the real
 * Hub does: header range reads survive the 302 (Range re-sent, Authorization dropped), and a 403 from
 * the CDN (an expired or refused signed URL) is retried, never taken for a gated repo.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  createHubClient,
  HubNotFoundError,
  HubUnavailableError,
  listNewCommits,
  readSafetensorsHeader,
} from "../../src/hub/index.ts";
import {
  MISSING_REPO_ID,
  makeSyntheticRepos,
  type ReplayHub,
  startReplayHub,
} from "../../src/replay-hub/index.ts";

let hub: ReplayHub;
beforeAll(async () => {
  hub = await startReplayHub({ repos: makeSyntheticRepos({ count: 1, revisionsEach: 1 }), cdn: true });
});
afterAll(() => hub.close());
beforeEach(() => {
  hub.clearLog();
  hub.clearFaults();
});

const repo = "synthetic/model-00000";
const opts = () => ({ hubUrl: hub.url, retryBaseMs: 1, accessToken: "hf_user_token" });

describe("reads through the CDN redirect", () => {
  it("a safetensors header is two range reads, each a 302 then a 206 from the CDN without the token", async () => {
    const h = await readSafetensorsHeader({
      repo,
      sha: hub.headSha(repo),
      path: "model.safetensors",
      ...opts(),
    });
    expect(h.tensors.length).toBeGreaterThan(0);
    const log = hub.requestLog.map((e) => [e.route, e.status, e.range, e.authorized]);
    expect(log).toEqual([
      ["resolve", 302, "bytes=0-7", true],
      ["cdn", 206, "bytes=0-7", false],
      ["resolve", 302, `bytes=8-${h.headerBytes - 1}`, true],
      ["cdn", 206, `bytes=8-${h.headerBytes - 1}`, false],
    ]);
  });

  it("a CDN 403 is retried and the read succeeds", async () => {
    hub.setFault({ kind: "server-error", status: 403, times: 1, route: "cdn" });
    const client = createHubClient(opts());
    const h = await client.readSafetensorsHeader({ repo, sha: hub.headSha(repo), path: "model.safetensors" });
    expect(h.tensors.length).toBeGreaterThan(0);
    expect(client.counter.retries).toBe(1);
    expect(hub.requestLog.filter((e) => e.route === "cdn").map((e) => e.status)).toEqual([403, 206, 206]);
  });

  it("a persistent CDN 403 is a retryable HubUnavailableError, not an access error", async () => {
    hub.setFault({ kind: "server-error", status: 403, times: 100, route: "cdn" });
    const err = await readSafetensorsHeader({
      repo,
      sha: hub.headSha(repo),
      path: "model.safetensors",
      ...opts(),
    }).catch((e) => e);
    expect(err).toBeInstanceOf(HubUnavailableError);
    expect(err).toMatchObject({ retryable: true, code: "CdnRefused", status: 403 });
  });

  it("an anonymous 401 RepoNotFound is a missing repo", async () => {
    const err = await listNewCommits({ repo: MISSING_REPO_ID, hubUrl: hub.url }).catch((e) => e);
    expect(err).toBeInstanceOf(HubNotFoundError);
    expect(err).toMatchObject({ status: 401, what: "repo" });
  });
});

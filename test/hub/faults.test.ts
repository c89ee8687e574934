import { describe, expect, it, vi } from "vitest";
import {
  createHubClient,
  HubRateLimitedError,
  HubUnavailableError,
  listNewCommits,
  listTree,
  parseRetryAfterMs,
  readSafetensorsHeader,
} from "../../src/hub/index.ts";
import { useReplayHub } from "../helpers/replay-hub.ts";

const hub = useReplayHub();
const repo = "openai-community/gpt2";
const fast = () => ({ hubUrl: hub.url, retryBaseMs: 1 });

describe("fault modes map to error classes", () => {
  it("429 -> HubRateLimitedError with Retry-After seconds, surfaced without retry", async () => {
    hub.setFault({ kind: "rate-limit", times: 5, retryAfterS: 7, route: "commits" });
    const err = await listNewCommits({ repo, ...fast() }).catch((e) => e);
    expect(err).toBeInstanceOf(HubRateLimitedError);
    expect(err).toMatchObject({ retryable: true, retryAfterMs: 7000, status: 429 });
    expect(hub.requestLog).toHaveLength(1);
  });

  it("429 with an HTTP-date Retry-After", async () => {
    hub.setFault({ kind: "rate-limit", times: 1, retryAfterS: 30, httpDate: true });
    const err = await listTree({ repo, sha: hub.headSha(repo), ...fast() }).catch((e) => e);
    expect(err).toBeInstanceOf(HubRateLimitedError);
    expect(err.retryAfterMs).toBeGreaterThan(25_000);
    expect(err.retryAfterMs).toBeLessThanOrEqual(30_000);
  });

  it("429 with only the RateLimit header uses its t= reset", async () => {
    hub.setFault({ kind: "rate-limit", times: 1, resetS: 42 });
    const err = await listTree({ repo, sha: hub.headSha(repo), ...fast() }).catch((e) => e);
    expect(err.retryAfterMs).toBe(42_000);
    expect(parseRetryAfterMs(new Headers({ RateLimit: '"api";r=0;t=9' }))).toBe(9000);
  });

  it("5xx for the next 2 requests: retried inside the client, then succeeds", async () => {
    hub.setFault({ kind: "server-error", times: 2, status: 503 });
    const client = createHubClient(fast());
    const r = await client.listNewCommits({ repo });
    expect(r.commits.length).toBe(hub.history(repo).length);
    expect(client.counter.retries).toBe(2);
    expect(hub.requestLog.map((e) => e.status)).toEqual([503, 503, 200]);
  });

  it("persistent 5xx -> HubUnavailableError after 3 attempts", async () => {
    hub.setFault({ kind: "server-error", times: 100 });
    const err = await listTree({ repo, sha: hub.headSha(repo), ...fast() }).catch((e) => e);
    expect(err).toBeInstanceOf(HubUnavailableError);
    expect(err).toMatchObject({ retryable: true, status: 500 });
    expect(hub.requestLog).toHaveLength(3);
  });

  it("connection reset mid-body (API JSON) -> retried, then HubUnavailableError", async () => {
    hub.setFault({ kind: "reset", times: 100, route: "tree" });
    const err = await listTree({ repo, sha: hub.headSha(repo), ...fast() }).catch((e) => e);
    expect(err).toBeInstanceOf(HubUnavailableError);
    // the server logs a request when its socket closes, which may come just after the client gave up
    await vi.waitFor(() => expect(hub.requestLog).toHaveLength(3));
    expect(hub.requestLog.every((e) => e.bytes > 0)).toBe(true);
  });

  it("connection reset mid-body on a range read recovers on retry", async () => {
    hub.setFault({ kind: "reset", times: 1, route: "resolve" });
    const h = await readSafetensorsHeader({
      repo,
      sha: hub.headSha(repo),
      path: "model.safetensors",
      ...fast(),
    });
    expect(h.tensors.length).toBeGreaterThan(100);
    expect(hub.requestLog[0]!.fault).toBe("reset");
  });

  it("slow response beyond the timeout -> HubUnavailableError (Timeout)", async () => {
    hub.setFault({ kind: "delay", ms: 300, times: 100 });
    const err = await listTree({ repo, sha: hub.headSha(repo), ...fast(), timeoutMs: 50, attempts: 2 }).catch(
      (e) => e,
    );
    expect(err).toBeInstanceOf(HubUnavailableError);
    expect(err.code).toBe("Timeout");
  });

  it("slow response within the timeout succeeds", async () => {
    hub.setFault({ kind: "delay", ms: 50, times: 1 });
    const files = await listTree({ repo, sha: hub.headSha(repo), ...fast(), timeoutMs: 5000 });
    expect(files.length).toBeGreaterThan(2);
  });
});

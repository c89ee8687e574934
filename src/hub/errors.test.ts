import { describe, expect, it } from "vitest";
import {
  errorFromResponse,
  HubAccessError,
  HubBadDataError,
  HubNotFoundError,
  HubRateLimitedError,
  HubUnavailableError,
  parseRetryAfterMs,
  toHubError,
} from "./errors.ts";

const res = (status: number, headers: Record<string, string> = {}) => new Response(null, { status, headers });

describe("Hub error classification", () => {
  it("maps statuses and X-Error-Code", () => {
    const missing = errorFromResponse(res(404, { "X-Error-Code": "RevisionNotFound" }), "u");
    expect(missing).toBeInstanceOf(HubNotFoundError);
    expect((missing as HubNotFoundError).what).toBe("revision");
    expect(errorFromResponse(res(401), "u")).toBeInstanceOf(HubAccessError);
    expect(errorFromResponse(res(403, { "X-Error-Code": "GatedRepo" }), "u")).toMatchObject({
      gated: true,
      retryable: false,
    });
    expect(errorFromResponse(res(502), "u")).toMatchObject({ name: "HubUnavailableError", retryable: true });
    expect(errorFromResponse(res(429, { "Retry-After": "3" }), "u")).toMatchObject({
      retryAfterMs: 3000,
      retryable: true,
    });
    expect(errorFromResponse(res(400), "u")).toBeInstanceOf(HubBadDataError);
  });

  it("401/403 with RepoNotFound is not found, GatedRepo is gated, a CDN 401/403 is retryable", () => {
    const anonymousMissing = errorFromResponse(res(401, { "X-Error-Code": "RepoNotFound" }), "u");
    expect(anonymousMissing).toBeInstanceOf(HubNotFoundError);
    expect(anonymousMissing).toMatchObject({ what: "repo", retryable: false, status: 401 });
    expect(errorFromResponse(res(403, { "X-Error-Code": "RepoNotFound" }), "u")).toBeInstanceOf(
      HubNotFoundError,
    );
    const gated = errorFromResponse(res(401, { "X-Error-Code": "GatedRepo" }), "u");
    expect(gated).toBeInstanceOf(HubAccessError);
    expect((gated as HubAccessError).gated).toBe(true);
    const cdn = errorFromResponse(res(403), "https://cdn.example/x", true);
    expect(cdn).toBeInstanceOf(HubUnavailableError);
    expect(cdn).toMatchObject({ retryable: true, code: "CdnRefused" });
    expect(errorFromResponse(res(503), "https://cdn.example/x", true)).toBeInstanceOf(HubUnavailableError);
  });

  it("parses Retry-After as seconds, HTTP date, or RateLimit t=", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfterMs(new Headers({ "Retry-After": "120" }), now)).toBe(120_000);
    expect(parseRetryAfterMs(new Headers({ "Retry-After": "Thu, 01 Jan 2026 00:00:30 GMT" }), now)).toBe(
      30_000,
    );
    expect(parseRetryAfterMs(new Headers({ RateLimit: '"api";r=0;t=17' }), now)).toBe(17_000);
    expect(parseRetryAfterMs(new Headers({}), now)).toBeUndefined();
  });

  it("maps thrown errors: timeouts and resets are retryable, parse errors are not", () => {
    expect(toHubError(new DOMException("x", "TimeoutError"))).toBeInstanceOf(HubUnavailableError);
    expect(toHubError(new TypeError("fetch failed"))).toBeInstanceOf(HubUnavailableError);
    expect(toHubError(new SyntaxError("Unexpected token"))).toBeInstanceOf(HubBadDataError);
    expect(toHubError(Object.assign(new Error("x"), { statusCode: 429 }))).toBeInstanceOf(
      HubRateLimitedError,
    );
    expect(new HubBadDataError("x").name).toBe("HubBadDataError");
  });
});

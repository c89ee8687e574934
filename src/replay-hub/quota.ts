import type { Route } from "./types.ts";

/** Requests allowed per fixed window, as the Hub's `RateLimit-Policy` states it (q= per w= seconds). */
export type QuotaPolicy = { limit: number; windowS: number };

/** The Hub's two buckets that matter to hubwatch: API calls and file resolutions (hub-docs rate-limits.md). */
type QuotaBucket = "api" | "resolvers";

/** What one request costs and whether it may be answered; the headers go on every answer, 429s included. */
type QuotaVerdict = { allowed: boolean; headers: Record<string, string>; resetS: number };

/** Parses "1000/300" (requests per seconds). */
export function parseQuota(text: string): QuotaPolicy {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m || Number(m[1]) < 1 || Number(m[2]) < 1)
    throw new Error(`bad quota "${text}": want REQUESTS/SECONDS`);
  return { limit: Number(m[1]), windowS: Number(m[2]) };
}

/** Advertised when no quota is enforced: generous, so clients pacing on the headers never wait. */
const UNENFORCED: QuotaPolicy = { limit: 100_000, windowS: 300 };

export function bucketOf(route: Route): QuotaBucket | null {
  if (route === "cdn") return null; // the CDN is not the Hub: no Hub quota there
  return route === "resolve" || route === "raw" ? "resolvers" : "api";
}

/**
 * Fixed-window counters per bucket. With `api` (and optionally `resolvers`) given, requests past the
 * limit are refused (429); without, the counters still run and the headers advertise a generous policy.
 */
export function quotaMeter(
  opts: { api?: QuotaPolicy; resolvers?: QuotaPolicy } = {},
  now = () => Date.now(),
) {
  const policies: Record<QuotaBucket, { policy: QuotaPolicy; enforced: boolean }> = {
    api: { policy: opts.api ?? UNENFORCED, enforced: opts.api !== undefined },
    resolvers: {
      policy:
        opts.resolvers ?? (opts.api ? { limit: opts.api.limit * 5, windowS: opts.api.windowS } : UNENFORCED),
      enforced: opts.api !== undefined || opts.resolvers !== undefined,
    },
  };
  const windows: Record<QuotaBucket, { start: number; used: number }> = {
    api: { start: now(), used: 0 },
    resolvers: { start: now(), used: 0 },
  };
  let refused = 0;
  return {
    take(bucket: QuotaBucket): QuotaVerdict {
      const { policy, enforced } = policies[bucket];
      const w = windows[bucket];
      if (now() - w.start >= policy.windowS * 1000) Object.assign(w, { start: now(), used: 0 });
      const resetS = Math.max(1, Math.ceil((w.start + policy.windowS * 1000 - now()) / 1000));
      const allowed = !enforced || w.used < policy.limit;
      if (allowed) w.used += 1;
      else refused += 1;
      const remaining = Math.max(0, policy.limit - w.used);
      const headers = {
        RateLimit: `"${bucket}";r=${remaining};t=${resetS}`,
        "RateLimit-Policy": `"fixed window";"${bucket}";q=${policy.limit};w=${policy.windowS}`,
      };
      return { allowed, headers, resetS };
    },
    /** Requests answered 429 because the quota was spent. */
    refused: () => refused,
  };
}

/**
 * A shared request budget for the Hub, per bucket ("api" calls, "resolvers" file reads), as the Hub
 * counts them (hub-docs rate-limits.md: fixed 5-minute windows). Requests are spaced evenly
 * (window / limit apart, after a small burst), and every answer's `RateLimit: "<bucket>";r=<remaining>;t=<reset s>`
 * and `RateLimit-Policy: ...;q=<quota>;w=<window s>` are read: the Hub's policy, once seen, replaces the
 * configured one (which holds until then, and for hubs that send no policy), and when the Hub says little
 * is left, requests wait for its reset instead of running into a 429. A 429 blocks the bucket until its
 * reset. The budget is per process; the Hub's `r=` is what several processes of one account share.
 */
type BudgetPolicy = { limit: number; windowS: number };
export type BudgetBucket = "api" | "resolvers";

/** Requests kept in reserve from the Hub's remaining count (other clients of the same account, races). */
const RESERVE_FRACTION = 0.02;
/** Requests that may go at once before spacing starts, as a fraction of the limit. */
const BURST_FRACTION = 0.05;

export type HubBudget = {
  /** Resolves when a request of `bucket` may be sent. */
  acquire(bucket: BudgetBucket): Promise<void>;
  /** Reads the rate-limit headers of an answer (429s included). */
  observe(bucket: BudgetBucket, status: number, headers: Headers): void;
  /** Totals: requests let through, time spent waiting, 429s seen. */
  stats(): { granted: number; waitedMs: number; limited: number };
};

/** Parses "1000/300" (requests per seconds). */
export function parseBudget(text: string): BudgetPolicy {
  const [limit, windowS] = text.split("/").map(Number);
  if (!limit || !windowS || limit < 1 || windowS < 1) throw new Error(`bad budget "${text}"`);
  return { limit, windowS };
}

/** `RateLimit` / `RateLimit-Policy` values (IETF draft, as the Hub sends them); undefined parts when absent. */
export function parseRateLimit(headers: Headers): {
  remaining?: number;
  resetS?: number;
  quota?: number;
  windowS?: number;
} {
  const num = (text: string | null, key: string) => {
    const m = new RegExp(`(?:^|[;,\\s])${key}=(\\d+)`).exec(text ?? "");
    return m ? Number(m[1]) : undefined;
  };
  const rl = headers.get("ratelimit");
  const policy = headers.get("ratelimit-policy");
  return {
    remaining: num(rl, "r"),
    resetS: num(rl, "t"),
    quota: num(policy, "q"),
    windowS: num(policy, "w"),
  };
}

type BucketState = {
  configured: BudgetPolicy;
  advertised?: BudgetPolicy;
  /** Earliest time the next request may go (GCRA's theoretical arrival time, minus the burst). */
  nextAt: number;
  /** Until when the Hub said the bucket is spent (reset of a low r= or a 429). */
  blockedUntil: number;
};

export function createHubBudget(
  opts: { api: BudgetPolicy; resolvers: BudgetPolicy },
  clock: { now: () => number; sleep: (ms: number) => Promise<void> } = {
    now: () => Date.now(),
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
  },
): HubBudget {
  const state: Record<BudgetBucket, BucketState> = {
    api: { configured: opts.api, nextAt: 0, blockedUntil: 0 },
    resolvers: { configured: opts.resolvers, nextAt: 0, blockedUntil: 0 },
  };
  const totals = { granted: 0, waitedMs: 0, limited: 0 };
  // The Hub's own policy header is the account's real quota (PRO, Enterprise, anonymous): it replaces
  // the configured budget from the first answer that carries it.
  const effective = (s: BucketState): BudgetPolicy => s.advertised ?? s.configured;
  return {
    async acquire(bucket) {
      const s = state[bucket];
      const policy = effective(s);
      // `burst` may go at once; the rest is spaced so that no window of windowS sees more than `limit`.
      const burstCount = Math.min(policy.limit - 1, Math.max(1, Math.floor(policy.limit * BURST_FRACTION)));
      const interval = (policy.windowS * 1000) / Math.max(1, policy.limit - burstCount);
      const burst = (burstCount - 1) * interval;
      const now = clock.now();
      // Reserve a slot now (synchronously), so concurrent callers queue behind one another.
      const tat = Math.max(s.nextAt, now - burst);
      s.nextAt = tat + interval;
      totals.granted += 1;
      // A block learned while waiting (a low r=, a 429) still applies: check again after each sleep.
      for (let t = clock.now(); Math.max(tat, s.blockedUntil) > t; t = clock.now()) {
        const wait = Math.max(tat, s.blockedUntil) - t;
        totals.waitedMs += wait;
        await clock.sleep(wait);
      }
    },
    observe(bucket, status, headers) {
      const s = state[bucket];
      const rl = parseRateLimit(headers);
      if (rl.quota && rl.windowS) s.advertised = { limit: rl.quota, windowS: rl.windowS };
      const resetAt = rl.resetS === undefined ? undefined : clock.now() + rl.resetS * 1000;
      if (status === 429) {
        totals.limited += 1;
        s.blockedUntil = Math.max(s.blockedUntil, resetAt ?? clock.now() + 1000);
        return;
      }
      const reserve = Math.ceil(effective(s).limit * RESERVE_FRACTION);
      if (rl.remaining !== undefined && resetAt !== undefined && rl.remaining <= reserve)
        s.blockedUntil = Math.max(s.blockedUntil, resetAt);
    },
    stats: () => ({ ...totals }),
  };
}

/** The bucket a Hub URL is counted in: file resolution (`/resolve/`, `/raw/`) or the API. */
export function bucketOfUrl(url: string): BudgetBucket {
  return /\/(resolve|raw)\//.test(new URL(url).pathname) ? "resolvers" : "api";
}

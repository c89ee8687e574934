import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { StoreFigures } from "../services/store-figures.ts";

/**
 * The Prometheus series one hubwatch process exposes at /metrics (docs/OPERATIONS.md explains each).
 * Two sources: counters this process keeps (jobs it ran, Hub requests it made), and gauges read from
 * the store and the queues at scrape time, so every process reports the same totals and a restart
 * loses nothing.
 */
export type Metrics = {
  registry: Registry;
  /** A job ran to the end (`ok`) or threw (`error`), taking `seconds`. */
  jobFinished(job: string, outcome: "ok" | "error", seconds: number): void;
  /** The Hub answered `url` with `status` (0: no answer); `headers` carry its rate-limit budget. */
  hubResponse(url: string, status: number, headers?: Headers): void;
  /** Where scrape-time gauges read from; filled in once the process has opened them. */
  sources: ScrapeSources;
};

export type ScrapeSources = {
  store?: () => Promise<StoreFigures>;
  /** Jobs per queue and state (waiting, active, delayed, failed). */
  queues?: () => Promise<Record<string, Record<string, number>>>;
};

/** "api/models/o/n/commits/main" -> "commits": the Hub endpoint a request went to, without repo names. */
export function hubEndpoint(url: string): string {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return "other";
  }
  if (/\/resolve\//.test(path)) return "resolve";
  const api = path.match(/^\/api\/(models|datasets|spaces)\/[^/]+\/[^/]+\/?([a-z-]*)/);
  if (api) return api[2] || "info";
  if (/^\/api\/(models|datasets|spaces)\/?$/.test(path)) return "list";
  return "other";
}

/** `RateLimit: "api";r=499;t=42` (IETF draft, sent by the Hub): the requests left in this window. */
export function budgetRemaining(headers: Headers | undefined): number | null {
  const value = headers?.get("ratelimit");
  const r = value?.match(/(?:^|;)\s*r=(\d+)/);
  return r ? Number(r[1]) : null;
}

export function createMetrics(sources: ScrapeSources = {}): Metrics {
  const registry = new Registry();
  sources = { ...sources };
  const jobDuration = new Histogram({
    name: "hubwatch_job_duration_seconds",
    help: "Time a job handler ran, by job name and outcome (ok, error), in this process.",
    labelNames: ["job", "outcome"],
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [registry],
  });
  const hubRequests = new Counter({
    name: "hubwatch_hub_requests_total",
    help: "Hub requests made by this process, by endpoint and HTTP status (0: no answer).",
    labelNames: ["endpoint", "status"],
    registers: [registry],
  });
  const hubRateLimited = new Counter({
    name: "hubwatch_hub_rate_limited_total",
    help: "Hub answers with status 429 received by this process.",
    registers: [registry],
  });
  const hubBudget = new Gauge({
    name: "hubwatch_hub_budget_remaining",
    help: "Requests left in the Hub's current rate-limit window (RateLimit header r=), last seen.",
    registers: [registry],
  });
  registerStoreGauges(registry, sources);
  return {
    registry,
    sources,
    jobFinished(job, outcome, seconds) {
      jobDuration.observe({ job, outcome }, seconds);
    },
    hubResponse(url, status, headers) {
      hubRequests.inc({ endpoint: hubEndpoint(url), status: String(status) });
      if (status === 429) hubRateLimited.inc();
      const left = budgetRemaining(headers);
      if (left !== null) hubBudget.set(left);
    },
  };
}

/** Gauges filled at scrape time from the store and the queues (when this process has them). */
function registerStoreGauges(registry: Registry, sources: ScrapeSources): void {
  const gauge = (name: string, help: string, labelNames: string[], collect: (g: Gauge) => Promise<void>) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      async collect() {
        this.reset();
        await collect(this);
      },
    });
  let figures: Promise<StoreFigures | null> | undefined;
  // One store read per scrape, shared by every store gauge (they collect concurrently).
  const read = () => {
    figures ??= (sources.store?.() ?? Promise.resolve(null)).finally(() =>
      setTimeout(() => (figures = undefined), 0),
    );
    return figures;
  };
  const each = async (
    pick: (f: StoreFigures) => Record<string, number>,
    set: (k: string, n: number) => void,
  ) => {
    const f = await read();
    if (f) for (const [k, n] of Object.entries(pick(f))) set(k, n);
  };
  {
    const ageOf = (d: Date | null) => (d ? Math.max(0, (Date.now() - d.getTime()) / 1000) : 0);
    gauge("hubwatch_revisions", "Revisions in the store by status.", ["status"], (g) =>
      each(
        (f) => f.revisions,
        (status, n) => g.set({ status }, n),
      ),
    );
    gauge("hubwatch_revisions_failed", "Failed revisions by reason kind.", ["kind"], (g) =>
      each(
        (f) => f.failedByKind,
        (kind, n) => g.set({ kind }, n),
      ),
    );
    gauge("hubwatch_revisions_pending", "Revisions waiting to be processed.", [], (g) =>
      each(
        (f) => ({ pending: f.revisions.pending }),
        (_, n) => g.set(n),
      ),
    );
    gauge(
      "hubwatch_oldest_pending_revision_age_seconds",
      "Seconds since the upstream commit of the oldest pending revision was made (0: none pending).",
      [],
      (g) =>
        each(
          (f) => ({ age: ageOf(f.oldestPendingCommittedAt) }),
          (_, n) => g.set(n),
        ),
    );
    gauge("hubwatch_advisories", "Advisories in the store by status (open, closed).", ["status"], (g) =>
      each(
        (f) => f.advisories,
        (status, n) => g.set({ status }, n),
      ),
    );
    gauge(
      "hubwatch_webhook_deliveries",
      "Webhook deliveries by outcome (pending, delivered, failed: retrying, dead: gave up).",
      ["outcome"],
      (g) =>
        each(
          (f) => f.deliveries,
          (outcome, n) => g.set({ outcome }, n),
        ),
    );
    gauge(
      "hubwatch_webhook_receiver_lag_seconds",
      "Age of the oldest event some receiver has not acknowledged yet (0: all delivered).",
      [],
      (g) =>
        each(
          (f) => ({ lag: ageOf(f.oldestUndeliveredAt) }),
          (_, n) => g.set(n),
        ),
    );
  }
  gauge(
    "hubwatch_queue_jobs",
    "Jobs per queue and state (waiting, active, delayed, failed: kept in the failed-job history).",
    ["queue", "state"],
    async (g) => {
      for (const [queue, states] of Object.entries((await sources.queues?.()) ?? {}))
        for (const [state, n] of Object.entries(states)) g.set({ queue, state }, n);
    },
  );
}

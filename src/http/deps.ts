import type { FastifyBaseLogger } from "fastify";
import type { JobRegistry } from "../../jobs/index.ts";
import type { Db } from "../db/types.ts";
import type { FailedJobs } from "../ops/failed-jobs.ts";
import type { Enqueue } from "../queue/types.ts";
import type { OpsDeps } from "./routes/ops.ts";

/** Everything the HTTP app needs, built by the caller (serve command, demo, tests). */
export type AppDeps = {
  db: Db;
  /** Queue producer (JobRunner.enqueue): Hub webhook polls, webhook deliveries. Absent: 503 on those routes. */
  enqueue?: Enqueue<JobRegistry>;
  /** Base URL for absolute links in the Atom feed; default from the request's Host. */
  publicUrl?: string;
  /** Expected X-Webhook-Secret on POST /hooks/hub; unset: the route answers 404. */
  hubWebhookSecret?: string;
  /** Allow webhook subscriptions to private/loopback/link-local targets (tests only). */
  allowPrivateTargets?: boolean;
  /** Per-IP limit on public routes; false turns it off (benchmarks). Default 600 per minute. */
  rateLimit?: { max: number; timeWindowMs: number } | false;
  /** A pino logger to log requests and errors with; default no logging. */
  log?: FastifyBaseLogger;
  /**
   * The store generation (src/db/store-changes.ts): public responses are cached per process while it stays
   * the same. Absent or null: every request reads the store.
   */
  storeGeneration?: () => number | null;
  /** OSV page size (OSV.dev: 1,000); smaller in tests to exercise page tokens. */
  osvPageSize?: number;
  /** `/readyz` checks; absent: PostgreSQL only, through `db`. */
  ready?: OpsDeps["ready"];
  /** Jobs that failed for good (distributed mode), for `/api/failed`. */
  failedJobs?: FailedJobs;
  /** Served at `/metrics` when given. */
  metrics?: OpsDeps["metrics"];
  /**
   * A bearer token this process accepts besides the stored API tokens: `hubwatch run` writes it, mode
   * 0600, into the data folder for CLI writes on the same machine (src/main/local-api.ts).
   */
  localAdminToken?: string;
  /** Retry schedule for webhook deliveries (tests shorten it). */
  webhookRetryDelaysMs?: readonly number[];
};

import type { z } from "zod";

/**
 * The queue contract every job handler and every entry point codes against. Two implementations:
 * BullMQ (distributed, `bullmq-runner.ts`) and an in-memory one (embedded, `in-process-runner.ts`).
 * Both call the same handlers from `jobs/index.ts`.
 */
export type EnqueueOptions = {
  /** Deterministic id: while a job with this id is queued or running, enqueueing it again is a no-op. */
  jobId?: string;
  /** Run no sooner than this many milliseconds from now. */
  delayMs?: number;
  /** "backfill": taken only when no other job of its queue is runnable (a first watch's history). */
  priority?: "backfill";
};

export type Enqueue = (name: string, payload: unknown, opts?: EnqueueOptions) => Promise<void>;

export type JobRunner = {
  enqueue: Enqueue;
  /** Starts consuming jobs (a producer-only process, such as the scheduler, never calls it). */
  start(): Promise<void>;
  /** Stops taking new jobs, waits for running ones, releases connections. */
  close(): Promise<void>;
};

/** Retry policy: exponential backoff `delayMs * 2^(attempt-1)`, +/- `jitter` (0..1) of it. */
export type JobOptions = {
  attempts: number;
  backoff: { delayMs: number; jitter: number };
};

/**
 * Queues group jobs that share a rate limit: every job that calls the Hub runs on "hub", so a Hub 429
 * pauses all of them (BullMQ rate limits apply per queue); webhook delivery runs on its own queue so a
 * slow receiver or a Hub 429 never holds up the other.
 */
export const QUEUE_NAMES = ["hub", "maintenance", "webhooks"] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

/**
 * What a handler gets besides its payload. `services` is an open bag built at boot (store, Hub client,
 * config, logger...): see `src/services/deps.ts`. `enqueue` is the runner the job runs on.
 */
export type JobContext<S = unknown> = {
  services: S;
  enqueue: Enqueue;
  /** Whether the registry this runner was built with has a job of that name. */
  hasJob: (name: string) => boolean;
  /** 1 on the first run, 2 on the first retry... */
  attempt: number;
  /** The runner's id for this run, for logs. */
  runId: string;
};

export type JobDefinition<P = unknown, S = unknown> = {
  name: string;
  queue: QueueName;
  payload: z.ZodType<P>;
  opts: JobOptions;
  /** Cron expression (node-cron syntax) for jobs the scheduler enqueues on a tick. */
  schedule?: string;
  /** Deterministic job id for a payload (no ':' allowed, BullMQ reserves it). */
  jobId?: (payload: P) => string;
  /** Jobs with the same group key never run at the same time in the in-process runner (e.g. one repo). */
  group?: (payload: P) => string;
  handler: (payload: P, ctx: JobContext<S>) => Promise<void>;
};

// biome-ignore lint/suspicious/noExplicitAny: a registry holds jobs of different payload types.
export type AnyJob = JobDefinition<any, any>;

import type { z } from "zod";
import type { Config } from "../config/env.ts";

/**
 * The queue contract every job handler and every entry point codes against. Two implementations:
 * BullMQ (distributed, `bullmq-runner.ts`) and an in-memory one (embedded, `in-process-runner.ts`).
 * Both call the same handlers from `jobs/index.ts` and derive every job id from the job's own
 * `jobId(payload)`: callers never name ids.
 */
export type EnqueueOptions = {
  /** Run no sooner than this many milliseconds from now. */
  delayMs?: number;
  /** "backfill": taken only when no other job of its queue is runnable (a first watch's history). */
  priority?: "backfill";
};

/** Retry policy: exponential backoff `delayMs * 2^(attempt-1)`, +/- `jitter` (0..1) of it. */
export type JobOptions = {
  attempts: number;
  backoff: { delayMs: number; jitter: number };
};

/**
 * Queues group jobs that share a rate limit: every job that calls the Hub runs on "hub", so a Hub 429
 * pauses all of them (BullMQ rate limits apply per queue); webhook delivery runs on its own queue so a
 * slow receiver or a Hub 429 never holds up the other; the outbox relay runs on "maintenance", so
 * hanging receivers never delay it.
 */
export const QUEUE_NAMES = ["hub", "maintenance", "webhooks"] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

/** Work a handler asks for once it has finished: the runner enqueues it (typed by `followUp`). */
export type FollowUp = { job: AnyJob; payload: unknown; delayMs?: number; priority?: "backfill" };

/**
 * What a handler gets besides its payload. `services` is an open bag built at boot (store, Hub client,
 * config, logger...): see `src/services/deps.ts`. Handlers never enqueue: they return follow-ups.
 */
export type JobContext<S = unknown> = {
  services: S;
  /** 1 on the first run, 2 on the first retry... */
  attempt: number;
  /** The runner's id for this run, for logs. */
  runId: string;
};

export type JobDefinition<P = unknown, S = unknown, N extends string = string> = {
  name: N;
  queue: QueueName;
  payload: z.ZodType<P>;
  opts: JobOptions;
  /**
   * When the scheduler enqueues this job (node-cron syntax, seconds allowed), from the config:
   * `hubwatch scheduler` (distributed) or `hubwatch run` (embedded) ticks every scheduled job.
   */
  schedule?: (config: Config) => string;
  /** Deterministic job id for a payload (no ':' allowed, BullMQ reserves it). */
  jobId?: (payload: P) => string;
  /** Jobs with the same group key never run at the same time in the in-process runner (e.g. one repo). */
  group?: (payload: P) => string;
  /** Does the work; returns what to run next (or nothing), which the runner queues once it succeeded. */
  // biome-ignore lint/suspicious/noConfusingVoidType: a handler with no follow-ups just returns.
  handler: (payload: P, ctx: JobContext<S>) => Promise<readonly FollowUp[] | void>;
};

// biome-ignore lint/suspicious/noExplicitAny: a registry holds jobs of different payload types.
export type AnyJob = JobDefinition<any, any, string>;

/** The payload type of the job named `N` in registry `J` (unknown for an untyped registry). */
export type PayloadOf<J extends AnyJob, N extends string> = string extends J["name"]
  ? unknown
  : J extends { name: N; payload: z.ZodType<infer P> }
    ? P
    : never;

/** Enqueues a job of registry `J` by name; a wrong name or payload shape does not compile. */
export type Enqueue<J extends AnyJob = AnyJob> = <N extends J["name"]>(
  name: N,
  payload: PayloadOf<J, N>,
  opts?: EnqueueOptions,
) => Promise<void>;

export type JobRunner<J extends AnyJob = AnyJob> = {
  enqueue: Enqueue<J>;
  /** Starts consuming jobs (a producer-only process, such as the scheduler, never calls it). */
  start(): Promise<void>;
  /** Stops taking new jobs, waits for running ones, releases connections. */
  close(): Promise<void>;
};

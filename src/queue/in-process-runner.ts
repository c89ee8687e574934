import { randomUUID } from "node:crypto";
import { backoffDelayMs } from "./backoff.ts";
import { checkRegistry, parsePayload } from "./check-registry.ts";
import { classifyJobError, errorMessage } from "./errors.ts";
import type { AnyJob, EnqueueOptions, FollowUp, JobRunner } from "./types.ts";

/**
 * Embedded mode's queue: an in-memory list with the BullMQ semantics the handlers rely on: a job id
 * that is queued or running is not added twice; failures retry with exponential backoff and jitter;
 * a Hub 429 pauses the job's whole queue for Retry-After without using up an attempt; a permanent
 * error is not retried. Jobs with the same group key (one repo) never run at the same time. A job
 * enqueued while it runs runs once more after it (so work recorded meanwhile is not missed).
 * Nothing survives the process: embedded mode re-derives its work from the store (the next poll, the
 * webhook outbox relay).
 */
export type FailedJob = { name: string; jobId: string; payload: unknown; error: string; attempts: number };

export type InProcessRunner<J extends AnyJob = AnyJob> = JobRunner<J> & {
  /** Resolves when nothing is queued, delayed or running. */
  idle(): Promise<void>;
  /** The newest failures (at most 1,000), oldest first. */
  readonly failures: readonly FailedJob[];
  readonly completed: number;
  /** Jobs per queue now: waiting (runnable), active, delayed (backoff, a delay, or a paused queue). */
  counts(): Record<string, { waiting: number; active: number; delayed: number }>;
};

const FAILURES_KEPT = 1000;

type InProcessOptions<S, J extends AnyJob> = {
  jobs: readonly J[];
  services: S;
  /** Jobs running at once across groups (default 4). */
  concurrency?: number;
  /** Multiplies every backoff and rate-limit delay (tests use 0.001). */
  delayScale?: number;
  onFailed?: (failure: FailedJob) => void;
};

type Entry = {
  id: string;
  job: AnyJob;
  payload: unknown;
  attempt: number;
  readyAt: number;
  group?: string;
  /** A first watch's history: taken only when nothing else is runnable. */
  backfill?: boolean;
};

export function createInProcessRunner<S, J extends AnyJob>(
  options: InProcessOptions<S, J>,
): InProcessRunner<J> {
  const byName = checkRegistry(options.jobs);
  const concurrency = options.concurrency ?? 4;
  const scale = options.delayScale ?? 1;
  const waiting: Entry[] = [];
  const activeIds = new Set<string>();
  const activeQueues = new Map<string, string>();
  const rerun = new Map<string, Entry>();
  const activeGroups = new Set<string>();
  const running = new Set<Promise<void>>();
  const pausedUntil = new Map<string, number>();
  const failures: FailedJob[] = [];
  let idleWaiters: Array<() => void> = [];
  let started = false;
  let timer: NodeJS.Timeout | undefined;
  let completed = 0;

  async function enqueue(name: string, payload: unknown, opts: EnqueueOptions = {}): Promise<void> {
    const job = byName.get(name);
    if (!job) throw new Error(`hubwatch: no job named "${name}" in the registry`);
    add(job, payload, opts);
  }

  function add(job: AnyJob, payload: unknown, opts: EnqueueOptions): void {
    const parsed = parsePayload(job, payload);
    if (!parsed.ok) throw new Error(parsed.error);
    const id = job.jobId?.(parsed.value) ?? `${job.name}__${randomUUID()}`;
    const readyAt = Date.now() + (opts.delayMs ?? 0) * scale;
    const group = job.group?.(parsed.value);
    const entry: Entry = { id, job, payload: parsed.value, attempt: 1, readyAt, group };
    if (opts.priority === "backfill") entry.backfill = true;
    if (activeIds.has(id)) {
      if (!rerun.has(id)) rerun.set(id, entry);
      return;
    }
    if (waiting.some((e) => e.id === id)) return;
    waiting.push(entry);
    pump();
  }

  function addFollowUps(followUps: readonly FollowUp[] | undefined): void {
    // By name: the registry this runner was given (e.g. instrumented handlers) wins over the definition.
    for (const f of followUps ?? []) add(byName.get(f.job.name) ?? f.job, f.payload, f);
  }

  function runnable(e: Entry, now: number): boolean {
    if (e.readyAt > now) return false;
    if ((pausedUntil.get(e.job.queue) ?? 0) > now) return false;
    return e.group === undefined || !activeGroups.has(e.group);
  }

  function pump(): void {
    if (!started) return;
    const now = Date.now();
    while (running.size < concurrency) {
      // Backfill jobs (a first watch's history) go only when nothing else is runnable.
      let index = waiting.findIndex((e) => !e.backfill && runnable(e, now));
      if (index < 0) index = waiting.findIndex((e) => runnable(e, now));
      if (index < 0) break;
      const [entry] = waiting.splice(index, 1);
      if (entry) start(entry);
    }
    armTimer(now);
    if (waiting.length === 0 && running.size === 0) {
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const w of waiters) w();
    }
  }

  function armTimer(now: number): void {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const times = waiting
      .map((e) => Math.max(e.readyAt, pausedUntil.get(e.job.queue) ?? 0))
      .filter((t) => t > now);
    if (times.length === 0) return;
    timer = setTimeout(pump, Math.min(...times) - now);
  }

  function start(entry: Entry): void {
    activeIds.add(entry.id);
    activeQueues.set(entry.id, entry.job.queue);
    if (entry.group !== undefined) activeGroups.add(entry.group);
    const ctx = { services: options.services, attempt: entry.attempt, runId: entry.id };
    let followUps: readonly FollowUp[] | undefined;
    const run = entry.job
      .handler(entry.payload, ctx)
      .then((out) => {
        completed += 1;
        followUps = out || undefined;
      })
      .catch((err: unknown) => settleFailure(entry, err))
      .finally(() => {
        activeIds.delete(entry.id);
        activeQueues.delete(entry.id);
        if (entry.group !== undefined) activeGroups.delete(entry.group);
        running.delete(run);
        const again = rerun.get(entry.id);
        rerun.delete(entry.id);
        try {
          addFollowUps(followUps);
        } catch (err) {
          settleFailure(entry, err);
        }
        if (again && !waiting.some((e) => e.id === again.id)) waiting.push(again);
        pump();
      });
    running.add(run);
  }

  function settleFailure(entry: Entry, err: unknown): void {
    const verdict = classifyJobError(err);
    const now = Date.now();
    if (verdict.kind === "rate_limited") {
      const until = now + verdict.delayMs * scale;
      pausedUntil.set(entry.job.queue, until);
      waiting.push({ ...entry, readyAt: until });
      return;
    }
    if (verdict.kind === "retry" && entry.attempt < entry.job.opts.attempts) {
      const delay = backoffDelayMs(entry.attempt, entry.job.opts.backoff) * scale;
      waiting.push({ ...entry, attempt: entry.attempt + 1, readyAt: now + delay });
      return;
    }
    const failure = {
      name: entry.job.name,
      jobId: entry.id,
      payload: entry.payload,
      error: errorMessage(err),
      attempts: entry.attempt,
    };
    failures.push(failure);
    if (failures.length > FAILURES_KEPT) failures.shift();
    options.onFailed?.(failure);
  }

  return {
    enqueue: enqueue as InProcessRunner<J>["enqueue"],
    async start() {
      started = true;
      pump();
    },
    async close() {
      started = false;
      if (timer) clearTimeout(timer);
      await Promise.allSettled([...running]);
    },
    idle() {
      if (waiting.length === 0 && running.size === 0) return Promise.resolve();
      return new Promise<void>((resolve) => idleWaiters.push(resolve));
    },
    failures,
    counts() {
      const now = Date.now();
      const out: Record<string, { waiting: number; active: number; delayed: number }> = {};
      const of = (queue: string) => (out[queue] ??= { waiting: 0, active: 0, delayed: 0 });
      for (const e of waiting) {
        const due = e.readyAt <= now && (pausedUntil.get(e.job.queue) ?? 0) <= now;
        of(e.job.queue)[due ? "waiting" : "delayed"] += 1;
      }
      for (const queue of activeQueues.values()) of(queue).active += 1;
      return out;
    },
    get completed() {
      return completed;
    },
  };
}

import { DelayedError, type Job, Queue, UnrecoverableError, Worker } from "bullmq";
import { Redis } from "ioredis";
import { checkRegistry, parsePayload } from "./check-registry.ts";
import { classifyJobError, errorMessage } from "./errors.ts";
import type { AnyJob, EnqueueOptions, FollowUp, JobRunner, QueueName } from "./types.ts";

/**
 * Distributed mode's queue. One BullMQ queue per `QueueName` ("hub", "maintenance", "webhooks") with
 * named jobs in it: jobs that share a rate limit share a queue (a Hub 429 pauses every Hub-calling job,
 * BullMQ rate limits being per queue), and a worker process consumes all queues.
 * Job ids are deterministic (`poll__owner--name`), so a job queued twice runs once; completed and
 * failed jobs are removed, so the same id can be queued again later (the store, not Redis, keeps history).
 * A handler's follow-ups are queued before its job completes; a follow-up with the running job's own id
 * (a lane that continues later) moves the running job back to delayed with the new payload.
 */
export type BullmqRunnerOptions<S, J extends AnyJob> = {
  jobs: readonly J[];
  services: S;
  redisUrl: string;
  /** Redis key prefix; tests use a unique one each. */
  prefix: string;
  /** Jobs one worker process runs at once per queue (default 4). */
  concurrency?: number;
  /** Lock and stalled-check timings (ms); short in tests so a killed worker's job is recovered fast. */
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  onFailed?: (info: {
    name: string;
    jobId: string;
    error: string;
    final: boolean;
    payload?: unknown;
    attempts?: number;
  }) => void;
  /** Redis trouble (a connection lost, a command refused): `source` names the connection or queue. */
  onConnectionError?: (source: string, error: string) => void;
  onCompleted?: (info: { name: string; jobId: string }) => void;
};

export type BullmqRunner<J extends AnyJob = AnyJob> = JobRunner<J> & { queue(name: QueueName): Queue };

export function createBullmqRunner<S, J extends AnyJob>(options: BullmqRunnerOptions<S, J>): BullmqRunner<J> {
  const byName = checkRegistry(options.jobs);
  // Producer connection fails fast when Redis is down; worker connections wait forever (BullMQ's advice).
  const producer = new Redis(options.redisUrl, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    lazyConnect: true,
  });
  const consumer = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
  const connectionError = (source: string) => (err: unknown) =>
    options.onConnectionError?.(source, errorMessage(err));
  producer.on("error", connectionError("producer"));
  consumer.on("error", connectionError("consumer"));
  const queues = new Map<QueueName, Queue>();
  const workers: Worker[] = [];
  let connecting: Promise<void> | undefined;

  function queue(name: QueueName): Queue {
    let q = queues.get(name);
    if (!q) {
      q = new Queue(name, { connection: producer, prefix: options.prefix });
      q.on("error", connectionError(`queue:${name}`));
      queues.set(name, q);
    }
    return q;
  }

  async function enqueue(name: string, payload: unknown, opts: EnqueueOptions = {}): Promise<void> {
    const job = byName.get(name);
    if (!job) throw new Error(`hubwatch: no job named "${name}" in the registry`);
    await add(job, payload, opts);
  }

  function idOf(job: AnyJob, payload: unknown): string | undefined {
    const jobId = job.jobId?.(payload);
    if (jobId?.includes(":")) throw new Error(`hubwatch: job id "${jobId}" contains ':'`);
    return jobId;
  }

  async function add(job: AnyJob, payload: unknown, opts: EnqueueOptions): Promise<void> {
    const parsed = parsePayload(job, payload);
    if (!parsed.ok) throw new Error(parsed.error);
    connecting ??= producer.status === "wait" ? producer.connect() : Promise.resolve();
    await connecting;
    const jobId = idOf(job, parsed.value);
    await queue(job.queue).add(job.name, parsed.value, {
      ...(jobId ? { jobId } : {}),
      ...(opts.delayMs ? { delay: opts.delayMs } : {}),
      // BullMQ takes jobs without a priority before prioritized ones.
      ...(opts.priority === "backfill" ? { priority: 10 } : {}),
      attempts: job.opts.attempts,
      backoff: { type: "exponential", delay: job.opts.backoff.delayMs, jitter: job.opts.backoff.jitter },
      removeOnComplete: true,
      removeOnFail: true,
    });
  }

  /** Queues the follow-ups; one with this job's own id reschedules this job instead (thrown DelayedError). */
  async function settleFollowUps(bullJob: Job, token: string | undefined, followUps: readonly FollowUp[]) {
    let self: FollowUp | undefined;
    for (const f of followUps) {
      if (bullJob.id !== undefined && f.job.name === bullJob.name && idOf(f.job, f.payload) === bullJob.id) {
        self = f;
        continue;
      }
      await add(f.job, f.payload, f);
    }
    if (!self || token === undefined) return;
    await bullJob.updateData(self.payload);
    await bullJob.moveToDelayed(Date.now() + (self.delayMs ?? 0), token);
    throw new DelayedError();
  }

  function processorFor(getWorker: () => Worker) {
    return async (bullJob: Job, token?: string): Promise<void> => {
      const job = byName.get(bullJob.name);
      if (!job) throw new UnrecoverableError(`no job named "${bullJob.name}" in this worker's registry`);
      const parsed = parsePayload(job, bullJob.data);
      if (!parsed.ok) throw new UnrecoverableError(parsed.error);
      const ctx = {
        services: options.services,
        attempt: bullJob.attemptsMade + 1,
        runId: bullJob.id ?? token ?? "",
      };
      let followUps: readonly FollowUp[] | undefined;
      try {
        followUps = (await job.handler(parsed.value, ctx)) || undefined;
      } catch (err) {
        const verdict = classifyJobError(err);
        if (verdict.kind === "rate_limited") {
          await getWorker().rateLimit(verdict.delayMs);
          throw Worker.RateLimitError();
        }
        if (verdict.kind === "permanent") throw new UnrecoverableError(errorMessage(err));
        throw err;
      }
      if (followUps?.length) await settleFollowUps(bullJob, token, followUps);
    };
  }

  function startWorker(name: QueueName): void {
    const worker: Worker = new Worker(
      name,
      processorFor(() => worker),
      {
        connection: consumer,
        prefix: options.prefix,
        concurrency: options.concurrency ?? 4,
        ...(options.lockDurationMs ? { lockDuration: options.lockDurationMs } : {}),
        ...(options.stalledIntervalMs ? { stalledInterval: options.stalledIntervalMs } : {}),
      },
    );
    worker.on("error", connectionError(`worker:${name}`));
    worker.on("failed", (bullJob, err) => {
      if (!bullJob) return;
      const final = bullJob.attemptsMade >= (bullJob.opts.attempts ?? 1) || err instanceof UnrecoverableError;
      options.onFailed?.({
        name: bullJob.name,
        jobId: bullJob.id ?? "",
        error: errorMessage(err),
        final,
        payload: bullJob.data,
        attempts: bullJob.attemptsMade,
      });
    });
    worker.on("completed", (bullJob) =>
      options.onCompleted?.({ name: bullJob.name, jobId: bullJob.id ?? "" }),
    );
    workers.push(worker);
  }

  return {
    enqueue: enqueue as BullmqRunner<J>["enqueue"],
    queue,
    async start() {
      const names = new Set(options.jobs.map((j) => j.queue));
      for (const name of names) startWorker(name);
      await Promise.all(workers.map((w) => w.waitUntilReady()));
    },
    async close() {
      await Promise.allSettled(workers.map((w) => w.close()));
      await Promise.allSettled([...queues.values()].map((q) => q.close()));
      // A lazy connection never used is still "wait": quit() would open it, so it is just dropped.
      for (const c of [producer, consumer]) if (c.status === "wait") c.disconnect();
      await Promise.allSettled([producer, consumer].map((c) => (c.status === "end" ? undefined : c.quit())));
    },
  };
}

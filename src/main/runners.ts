import { type JobRegistry, jobs } from "../../jobs/index.ts";
import type { Config } from "../config/env.ts";
import { type FailedJobs, failedJobs } from "../ops/failed-jobs.ts";
import { instrumentJobs } from "../ops/instrument.ts";
import { memoryFailedJobs } from "../ops/memory-failed-jobs.ts";
import type { Metrics } from "../ops/metrics.ts";
import { type BullmqRunner, createBullmqRunner } from "../queue/bullmq-runner.ts";
import { createInProcessRunner, type InProcessRunner } from "../queue/in-process-runner.ts";
import { QUEUE_NAMES } from "../queue/types.ts";
import type { PipelineServices } from "../services/deps.ts";

/** BullMQ runner over REDIS_URL with the job registry; `start()` it to consume (worker processes). */
export function distributedRunner(
  config: Config,
  services: PipelineServices,
  opts: { concurrency?: number; lockDurationMs?: number; stalledIntervalMs?: number; metrics?: Metrics } = {},
): BullmqRunner<JobRegistry> & { failedJobs: FailedJobs } {
  if (!config.REDIS_URL) throw new Error("hubwatch: REDIS_URL is not set (distributed mode needs it)");
  const { metrics, ...timings } = opts;
  const history = failedJobs(config.REDIS_URL, config.HUBWATCH_QUEUE_PREFIX);
  const queueOf = new Map<string, string>(jobs.map((j) => [j.name, j.queue]));
  const runner = createBullmqRunner({
    jobs: metrics ? instrumentJobs(jobs, metrics) : jobs,
    services,
    redisUrl: config.REDIS_URL,
    prefix: config.HUBWATCH_QUEUE_PREFIX,
    ...timings,
    concurrency: opts.concurrency ?? config.HUBWATCH_WORKER_CONCURRENCY,
    onFailed: (f) => {
      const { name, jobId, error, attempts, final, payload } = f;
      services.log[final ? "error" : "warn"](
        { job: name, jobId, err: error, attempts, final, payload },
        "job failed",
      );
      if (!final) return;
      const entry = { queue: queueOf.get(name) ?? "unknown", name, jobId, payload, error };
      history
        .record({ ...entry, attempts: attempts ?? 0, failedAt: new Date().toISOString() })
        .catch((err: unknown) =>
          services.log.warn({ err: String(err), jobId }, "failed-job history not written"),
        );
    },
    onConnectionError: onceEvery(10_000, (source, error, heldBack) =>
      services.log.warn({ dependency: "redis", source, err: error, heldBack }, "connection error"),
    ),
  });
  if (metrics) metrics.sources.queues = () => history.counts(QUEUE_NAMES);
  return {
    ...runner,
    failedJobs: history,
    async close() {
      await runner.close();
      await history.close();
    },
  };
}

/**
 * An outage makes every connection report the same error many times a second: pass on the first one
 * per source, then at most one per `ms`, with how many were held back.
 */
function onceEvery(ms: number, report: (source: string, error: string, heldBack?: number) => void) {
  const last = new Map<string, { at: number; held: number }>();
  return (source: string, error: string) => {
    const seen = last.get(source);
    const now = Date.now();
    if (seen && now - seen.at < ms) {
      seen.held += 1;
      return;
    }
    report(source, error, seen?.held);
    last.set(source, { at: now, held: 0 });
  };
}

/**
 * In-process runner for embedded mode: the same registry and handlers, in this process, with a bounded
 * in-memory history of jobs that failed for good (`/api/failed`, `hubwatch failed`) and the same queue
 * gauge as distributed mode.
 */
export function embeddedRunner(
  services: PipelineServices,
  opts: { concurrency?: number; metrics?: Metrics } = {},
): InProcessRunner<JobRegistry> & { failedJobs: FailedJobs } {
  const queueOf = new Map<string, string>(jobs.map((j) => [j.name, j.queue]));
  const history = memoryFailedJobs(() => runner.counts());
  const runner = createInProcessRunner({
    jobs: opts.metrics ? instrumentJobs(jobs, opts.metrics) : jobs,
    services,
    concurrency: opts.concurrency ?? services.config.HUBWATCH_WORKER_CONCURRENCY,
    onFailed: (f) => {
      services.log.error({ job: f.name, jobId: f.jobId, err: f.error, attempts: f.attempts }, "job failed");
      const queue = queueOf.get(f.name) ?? "unknown";
      void history.record({ ...f, queue, failedAt: new Date().toISOString() });
    },
  });
  if (opts.metrics) opts.metrics.sources.queues = () => history.counts(QUEUE_NAMES);
  return Object.assign(runner, { failedJobs: history });
}

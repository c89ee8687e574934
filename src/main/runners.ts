import { type JobRegistry, jobs } from "../../jobs/index.ts";
import type { Config } from "../config/env.ts";
import { type BullmqRunner, createBullmqRunner } from "../queue/bullmq-runner.ts";
import { createInProcessRunner, type InProcessRunner } from "../queue/in-process-runner.ts";
import type { PipelineServices } from "../services/deps.ts";

/** BullMQ runner over REDIS_URL with the job registry; `start()` it to consume (worker processes). */
export function distributedRunner(
  config: Config,
  services: PipelineServices,
  opts: { concurrency?: number; lockDurationMs?: number; stalledIntervalMs?: number } = {},
): BullmqRunner<JobRegistry> {
  if (!config.REDIS_URL) throw new Error("hubwatch: REDIS_URL is not set (distributed mode needs it)");
  return createBullmqRunner({
    jobs,
    services,
    redisUrl: config.REDIS_URL,
    prefix: config.HUBWATCH_QUEUE_PREFIX,
    ...opts,
    concurrency: opts.concurrency ?? config.HUBWATCH_WORKER_CONCURRENCY,
    onFailed: (f) =>
      services.log[f.final ? "error" : "warn"]({ job: f.name, jobId: f.jobId, err: f.error }, "job failed"),
  });
}

/** In-process runner for embedded mode: the same registry and handlers, in this process. */
export function embeddedRunner(
  services: PipelineServices,
  opts: { concurrency?: number } = {},
): InProcessRunner<JobRegistry> {
  return createInProcessRunner({
    jobs,
    services,
    concurrency: opts.concurrency ?? services.config.HUBWATCH_WORKER_CONCURRENCY,
    onFailed: (f) =>
      services.log.error({ job: f.name, jobId: f.jobId, err: f.error, attempts: f.attempts }, "job failed"),
  });
}

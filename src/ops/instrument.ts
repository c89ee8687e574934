import type { Logger } from "pino";
import type { AnyJob } from "../queue/types.ts";
import type { Metrics } from "./metrics.ts";

/**
 * The registry's jobs, each handler wrapped to time its runs for /metrics and to log through a child
 * logger carrying the job's name and id, so every line a job writes says which run it came from.
 * Names, queues, payloads and options are the registry's own.
 */
export function instrumentJobs(jobs: readonly AnyJob[], metrics: Metrics): AnyJob[] {
  return jobs.map((job) => ({
    ...job,
    async handler(payload, ctx) {
      const t0 = performance.now();
      const services = withJobLog(ctx.services, job.name, ctx.runId);
      let outcome: "ok" | "error" = "error";
      try {
        await job.handler(payload, { ...ctx, services });
        outcome = "ok";
      } finally {
        metrics.jobFinished(job.name, outcome, (performance.now() - t0) / 1000);
      }
    },
  }));
}

function withJobLog<S>(services: S, job: string, jobId: string): S {
  const log = (services as { log?: Logger } | undefined)?.log;
  return log ? { ...services, log: log.child({ job, jobId }) } : services;
}

import type { Logger } from "pino";
import type { AnyJob } from "../queue/types.ts";
import type { Metrics } from "./metrics.ts";

/**
 * The registry's jobs, each handler wrapped to time its runs for /metrics and to log through a child
 * logger carrying the job's name and id, so every line a job writes says which run it came from.
 * Names, queues, payloads and options are the registry's own.
 */
export function instrumentJobs<J extends AnyJob>(jobs: readonly J[], metrics: Metrics): J[] {
  return jobs.map((job) => ({
    ...job,
    async handler(payload: unknown, ctx: Parameters<AnyJob["handler"]>[1]) {
      const t0 = performance.now();
      const services = withJobLog(ctx.services, job.name, ctx.runId);
      let outcome: "ok" | "error" = "error";
      try {
        // The follow-ups the handler returns are the runner's to queue: pass them through.
        const followUps = await (job as AnyJob).handler(payload, { ...ctx, services });
        outcome = "ok";
        return followUps;
      } finally {
        metrics.jobFinished(job.name, outcome, (performance.now() - t0) / 1000);
      }
    },
  })) as J[];
}

function withJobLog<S>(services: S, job: string, jobId: string): S {
  const log = (services as { log?: Logger } | undefined)?.log;
  return log ? { ...services, log: log.child({ job, jobId }) } : services;
}

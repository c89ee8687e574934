import { type ScheduledTask, schedule, validate } from "node-cron";
import type { Config } from "../config/env.ts";
import type { AnyJob, Enqueue, JobRunner } from "../queue/types.ts";

type Scheduler = { stop(): Promise<void> };

/**
 * The one place ticks come from: every job of the registry that declares a `schedule` (poll-all on
 * HUBWATCH_POLL_CRON, the webhook relay on HUBWATCH_RELAY_CRON) is enqueued on its cron. A tick only
 * enqueues (deduplicated by the job's id, so a slow run is not doubled); workers do the work. Run it
 * in one process only (`hubwatch scheduler`, or inside `hubwatch run`): node-cron keeps no shared
 * state, and BullMQ job schedulers would not run in embedded mode, where the same ticks are needed.
 */
export function startScheduler<J extends AnyJob>(
  config: Config,
  jobs: readonly J[],
  runner: Pick<JobRunner<J>, "enqueue">,
  onError: (err: unknown) => void,
): Scheduler {
  // Scheduled jobs take an empty payload (checked by the runner against the job's schema).
  const enqueue = runner.enqueue as unknown as Enqueue;
  const tasks: ScheduledTask[] = [];
  for (const job of jobs) {
    const cron = job.schedule?.(config);
    if (cron === undefined) continue;
    if (!validate(cron))
      throw new Error(`hubwatch: the schedule of "${job.name}" ("${cron}") is not a valid cron expression`);
    tasks.push(
      schedule(cron, () => enqueue(job.name, {}).catch(onError), { name: job.name, noOverlap: true }),
    );
  }
  return {
    async stop() {
      for (const task of tasks) {
        await task.stop();
        await task.destroy();
      }
    },
  };
}

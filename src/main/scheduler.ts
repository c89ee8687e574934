import { schedule, validate } from "node-cron";
import type { Config } from "../config/env.ts";
import type { Enqueue } from "../queue/types.ts";

export type Scheduler = { stop(): Promise<void> };

/**
 * The one place ticks come from. Each tick only enqueues "poll-all" (deduplicated by its job id, so a
 * slow fan-out is not doubled); workers do the Hub and store work. Run it in one process only
 * (`hubwatch scheduler`, or inside `hubwatch run`): node-cron keeps no shared state.
 */
export function startScheduler(config: Config, enqueue: Enqueue, onError: (err: unknown) => void): Scheduler {
  const cron = config.HUBWATCH_POLL_CRON;
  if (!validate(cron))
    throw new Error(`hubwatch: HUBWATCH_POLL_CRON "${cron}" is not a valid cron expression`);
  const task = schedule(cron, () => enqueue("poll-all", {}).catch(onError), {
    name: "poll-all",
    noOverlap: true,
  });
  return {
    async stop() {
      await task.stop();
      await task.destroy();
    },
  };
}

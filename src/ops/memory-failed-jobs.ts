import type { FailedJobEntry, FailedJobs } from "./failed-jobs.ts";

/**
 * Embedded mode's failed-job history: the newest `max` jobs that failed for good, in this process's
 * memory (the same contract as the Redis list of distributed mode, `failed-jobs.ts`). It goes with the
 * process; what failed revisions need is in the store. `states` gives the runner's live queue figures,
 * which `counts` joins with the failed ones for the queue gauge.
 */
export function memoryFailedJobs(
  states: () => Record<string, Record<string, number>>,
  max = 1000,
): FailedJobs {
  let entries: FailedJobEntry[] = [];
  return {
    async record(entry) {
      entries.unshift(entry);
      if (entries.length > max) entries.length = max;
    },
    async list() {
      return [...entries];
    },
    async take(select) {
      const taken = entries.filter(select);
      entries = entries.filter((e) => !select(e));
      return taken;
    },
    async counts(queues) {
      const live = states();
      const out: Record<string, Record<string, number>> = {};
      for (const name of queues) {
        const failed = entries.filter((e) => e.queue === name).length;
        out[name] = { waiting: 0, active: 0, delayed: 0, ...live[name], failed };
      }
      return out;
    },
    async close() {},
  };
}

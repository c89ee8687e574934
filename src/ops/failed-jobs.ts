import { Queue } from "bullmq";
import { Redis } from "ioredis";

/**
 * A bounded history of jobs that failed for good (distributed mode): the newest `max` entries in one
 * Redis list, `<prefix>:failed-history`. BullMQ still removes failed jobs themselves, because job ids
 * are deterministic (`advance__owner--name`): a failed job left in its queue would silently swallow
 * every later enqueue of the same id. The history keeps what an operator needs (job, payload, reason,
 * attempts, when) and `hubwatch failed retry` re-enqueues from it.
 */
export type FailedJobEntry = {
  queue: string;
  name: string;
  jobId: string;
  payload: unknown;
  error: string;
  attempts: number;
  failedAt: string;
};

export type FailedJobs = {
  record(entry: FailedJobEntry): Promise<void>;
  /** Newest first. */
  list(): Promise<FailedJobEntry[]>;
  /** Removes and returns the entries `keep` selects (to re-enqueue them). */
  take(select: (e: FailedJobEntry) => boolean): Promise<FailedJobEntry[]>;
  /** Jobs per queue and state: BullMQ's waiting, active, delayed, and this history's failed. */
  counts(queues: readonly string[]): Promise<Record<string, Record<string, number>>>;
  close(): Promise<void>;
};

const FAILED_HISTORY_MAX = 1000;

export function failedJobs(redisUrl: string, prefix: string, max = FAILED_HISTORY_MAX): FailedJobs {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  redis.on("error", () => {}); // reported by the runner's own connections; calls here reject
  const key = `${prefix}:failed-history`;
  const queues = new Map<string, Queue>();
  const queue = (name: string) => {
    let q = queues.get(name);
    if (!q) {
      q = new Queue(name, { connection: redis, prefix });
      q.on("error", () => {});
      queues.set(name, q);
    }
    return q;
  };
  const raw = async () => redis.lrange(key, 0, -1);
  const parse = (s: string): FailedJobEntry | null => {
    try {
      return JSON.parse(s) as FailedJobEntry;
    } catch {
      return null;
    }
  };
  return {
    async record(entry) {
      await redis
        .multi()
        .lpush(key, JSON.stringify(entry))
        .ltrim(key, 0, max - 1)
        .exec();
    },
    async list() {
      return (await raw()).map(parse).filter((e): e is FailedJobEntry => e !== null);
    },
    async take(select) {
      const taken: FailedJobEntry[] = [];
      for (const s of await raw()) {
        const e = parse(s);
        if (e && select(e) && (await redis.lrem(key, 1, s)) > 0) taken.push(e);
      }
      return taken;
    },
    async counts(names) {
      const failed = countByQueue(await this.list());
      const out: Record<string, Record<string, number>> = {};
      for (const name of names) {
        const c = await queue(name).getJobCounts("waiting", "active", "delayed", "prioritized");
        out[name] = {
          waiting: (c.waiting ?? 0) + (c.prioritized ?? 0),
          active: c.active ?? 0,
          delayed: c.delayed ?? 0,
          failed: failed[name] ?? 0,
        };
      }
      return out;
    },
    async close() {
      await Promise.allSettled([...queues.values()].map((q) => q.close()));
      if (redis.status !== "end" && redis.status !== "wait") await redis.quit().catch(() => {});
      redis.disconnect();
    },
  };
}

/** Failed-history entries per queue, for the queue gauge. */
function countByQueue(entries: readonly FailedJobEntry[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const e of entries) out[e.queue] = (out[e.queue] ?? 0) + 1;
  return out;
}

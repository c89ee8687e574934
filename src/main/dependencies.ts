import { Redis } from "ioredis";

/**
 * PostgreSQL and Redis as a process meets them: at start, reached within a bounded window or refused
 * with one line naming the dependency (a container then restarts the process); later, checked on
 * demand for readiness. The window rides out a dependency that starts after us (compose brings
 * everything up at once) without hanging forever on a wrong address.
 */

/** A dependency that could not be reached: printed as one line, exit 1. */
class UnreachableError extends Error {
  override name = "UnreachableError";
}

/** host:port of a URL, never its password. */
export function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || (u.protocol.startsWith("redis") ? "6379" : "5432")}`;
  } catch {
    return "(unparsable URL)";
  }
}

function reason(err: unknown): string {
  const e = err as { code?: string; message?: string };
  return e?.code ?? e?.message ?? String(err);
}

/**
 * Runs `attempt` until it succeeds or `windowMs` has passed (backoff 250 ms doubling to 4 s), calling
 * `onRetry` before each wait; then throws an UnreachableError naming `what`.
 */
export async function reachWithin<T>(
  what: string,
  windowMs: number,
  attempt: () => Promise<T>,
  onRetry: (message: string) => void = () => {},
): Promise<T> {
  const deadline = Date.now() + windowMs;
  for (let delay = 250; ; delay = Math.min(delay * 2, 4000)) {
    try {
      return await attempt();
    } catch (err) {
      const left = deadline - Date.now();
      if (isRefusal(err))
        throw new UnreachableError(`hubwatch: ${what} refused us (${(err as Error).message}); check the URL`);
      if (left <= 0)
        throw new UnreachableError(
          `hubwatch: ${what} unreachable for ${Math.round(windowMs / 1000)} s (${reason(err)}); is it running, and is the URL right?`,
        );
      onRetry(`${what} not reachable yet (${reason(err)}); retrying`);
      await new Promise((r) => setTimeout(r, Math.min(delay, left)));
    }
  }
}

/** PostgreSQL saying no for good: bad password, no such database or role (waiting will not help). */
function isRefusal(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return typeof code === "string" && (code.startsWith("28") || code === "3D000");
}

/** One PING on a fresh connection that gives up at once (no reconnecting, no offline queue). */
export async function pingRedis(url: string, timeoutMs = 2000): Promise<void> {
  const r = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
  });
  let cause: unknown;
  r.on("error", (err) => {
    cause = err; // ECONNREFUSED and the like; connect() itself only says "Connection is closed."
  });
  try {
    await r.connect();
    await r.ping();
  } catch (err) {
    throw cause ?? err;
  } finally {
    r.disconnect();
  }
}

type DependencyStatus = { name: "postgresql" | "redis"; ok: boolean; error?: string };

/** Resolves with `fn`'s result or rejects after `ms`. */
function within<T>(ms: number, fn: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    fn().then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}

/** Runs each named check (bounded by `timeoutMs`) and reports which answered. */
export async function checkDependencies(
  checks: ReadonlyArray<{ name: DependencyStatus["name"]; check: () => Promise<unknown> }>,
  timeoutMs = 2000,
): Promise<DependencyStatus[]> {
  return Promise.all(
    checks.map(async ({ name, check }) => {
      try {
        await within(timeoutMs, check);
        return { name, ok: true };
      } catch (err) {
        return { name, ok: false, error: reason(err) };
      }
    }),
  );
}

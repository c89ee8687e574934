/**
 * How a runner treats a handler's error. The Hub client's errors carry `retryable` and, for 429,
 * `retryAfterMs`; anything else thrown is retried (a bug or an outage looks the same from here).
 */
type ErrorVerdict = { kind: "retry" } | { kind: "permanent" } | { kind: "rate_limited"; delayMs: number };

/** A job that must not be retried (bad payload, unknown job, upstream said no). */
export class PermanentJobError extends Error {
  override name = "PermanentJobError";
}

const DEFAULT_RATE_LIMIT_MS = 60_000;

export function classifyJobError(err: unknown): ErrorVerdict {
  if (err instanceof PermanentJobError) return { kind: "permanent" };
  if (!err || typeof err !== "object") return { kind: "retry" };
  const e = err as { name?: unknown; retryable?: unknown; retryAfterMs?: unknown; status?: unknown };
  const rateLimited = e.name === "HubRateLimitedError" || e.status === 429;
  if (rateLimited) {
    const ms =
      typeof e.retryAfterMs === "number" && e.retryAfterMs > 0 ? e.retryAfterMs : DEFAULT_RATE_LIMIT_MS;
    return { kind: "rate_limited", delayMs: ms };
  }
  if (e.retryable === false) return { kind: "permanent" };
  return { kind: "retry" };
}

export function errorMessage(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause instanceof Error ? err.cause.message : "";
  if (!cause || err.message.includes(cause)) return err.message;
  // Drizzle wraps a driver error as "Failed query: <sql>\nparams: ...": why it failed goes first.
  if (err.message.startsWith("Failed query:")) return `${cause} (${err.message.split("\n")[0]})`;
  return `${err.message}: ${cause}`;
}

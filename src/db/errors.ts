/**
 * Whether an error means the store is unreachable or restarting (retry later) rather than a bug or bad input:
 * connection refused or reset, a terminated connection, PostgreSQL's connection-exception (08xxx),
 * operator-intervention (57Pxx: admin shutdown, crash shutdown, cannot connect now) and
 * insufficient-resources (53xxx) classes. Drizzle wraps driver errors; the cause is checked too.
 */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EHOSTUNREACH",
]);

export function isStoreUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== "object" || depth > 4) return false;
  const e = err as { code?: unknown; message?: unknown; cause?: unknown };
  const code = typeof e.code === "string" ? e.code : "";
  if (NETWORK_CODES.has(code) || /^(08|57P|53)/.test(code)) return true;
  const message = typeof e.message === "string" ? e.message : "";
  if (/Connection terminated|connect ECONNREFUSED|Client has encountered a connection error/.test(message))
    return true;
  return isStoreUnavailable(e.cause, depth + 1);
}

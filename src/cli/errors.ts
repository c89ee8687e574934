/** A mistake the user can fix (bad argument, missing setting): printed as one line, no stack trace. */
export class UsageError extends Error {
  override name = "UsageError";
}

const FRIENDLY = new Set(["UsageError", "UserInputError"]);

/**
 * Wraps a command action: its return value is the exit code; user mistakes and bad configuration print
 * their message (exit 2), connection failures say which service is down (exit 1), bugs print a stack.
 * A failed command sets a non-zero exit code; `main.ts` exits with it once commander returns, so an
 * open pool or timer cannot keep a failed process alive.
 */
export function action<A extends unknown[]>(fn: (...args: A) => Promise<number | undefined>) {
  return async (...args: A): Promise<void> => {
    try {
      const code = await fn(...args);
      if (typeof code === "number") process.exitCode = code;
    } catch (err) {
      process.exitCode = report(err);
    }
  };
}

function report(err: unknown): number {
  const e = err as { name?: string; message?: string; code?: string; stack?: string };
  if (e?.name === "UnreachableError") {
    process.stderr.write(`${e.message}\n`);
    return 1;
  }
  if (e && (FRIENDLY.has(e.name ?? "") || e.message?.startsWith("hubwatch:"))) {
    const message = e.message ?? "";
    process.stderr.write(message.startsWith("hubwatch:") ? `${message}\n` : `hubwatch: ${message}\n`);
    return 2;
  }
  if (e?.code === "ECONNREFUSED" || /ECONNREFUSED/.test(e?.message ?? "")) {
    process.stderr.write(`hubwatch: cannot connect (${e.message}); is the service running?\n`);
    return 1;
  }
  process.stderr.write(`hubwatch: ${e?.stack ?? String(err)}\n`);
  return 1;
}

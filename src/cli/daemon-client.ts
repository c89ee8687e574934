import type { Config } from "../config/env.ts";
import { findLocalApi } from "../main/local-api.ts";
import { UsageError } from "./errors.ts";

/**
 * CLI writes in embedded mode while `hubwatch run` (or `serve`) holds the PGlite folder: they go to that
 * process's write API with the token it published in the folder (src/main/local-api.ts). With no such
 * process, or one that does not answer, the command opens the store itself (and is refused, naming the
 * owner, if a process without HTTP holds it).
 */
export type DaemonCall = (method: "GET" | "POST" | "DELETE", path: string, body?: unknown) => Promise<Answer>;
type Answer = { status: number; body: Record<string, unknown> };

class DaemonUnreachable extends Error {}

export async function viaDaemon<T>(
  config: Config,
  remote: (call: DaemonCall) => Promise<T>,
  local: () => Promise<T>,
): Promise<T> {
  const api = config.DATABASE_URL ? null : findLocalApi(config.HUBWATCH_DATA_DIR);
  if (!api) return local();
  let answered = false;
  const call: DaemonCall = async (method, path, body) => {
    const res = await fetch(`${api.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${api.token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(30_000),
    }).catch((err: unknown) => {
      if (answered) throw err;
      throw new DaemonUnreachable(String(err));
    });
    if (!answered)
      process.stderr.write(`hubwatch: through the running daemon (process ${api.pid}) at ${api.url}\n`);
    answered = true;
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: reported below by status
    }
    const answer = { status: res.status, body: (parsed ?? {}) as Answer["body"] };
    if (res.status >= 500 || res.status === 401) throw daemonError(api.pid, answer);
    return answer;
  };
  try {
    return await remote(call);
  } catch (err) {
    if (err instanceof DaemonUnreachable) return local();
    throw err;
  }
}

function daemonError(pid: number, a: Answer): Error {
  const why = typeof a.body.error === "string" ? a.body.error : `HTTP ${a.status}`;
  return new UsageError(`hubwatch: the running daemon (process ${pid}) answered ${a.status}: ${why}`);
}

/** A 4xx answer's message as the one line the CLI prints. */
export function refused(a: Answer): UsageError {
  return new UsageError(typeof a.body.error === "string" ? a.body.error : `HTTP ${a.status}`);
}

/** Exit status for a write that names one thing: 0 when done, 1 when the daemon found no such thing. */
export function answered(a: Answer): number {
  if (a.status === 400) throw refused(a);
  return a.status === 404 ? 1 : 0;
}

import type { RequestLogEntry } from "./types.ts";

type ReplayHubStats = {
  requests: number;
  bytesSent: number;
  byRoute: Record<string, { requests: number; bytes: number }>;
  byStatus: Record<string, number>;
  byRepo: Record<string, { requests: number; bytes: number }>;
};

function add(into: Record<string, { requests: number; bytes: number }>, key: string, bytes: number): void {
  const row = into[key] ?? { requests: 0, bytes: 0 };
  row.requests += 1;
  row.bytes += bytes;
  into[key] = row;
}

/** Totals of a request log, for test assertions and the demo summary. */
export function statsOf(log: RequestLogEntry[]): ReplayHubStats {
  const s: ReplayHubStats = { requests: 0, bytesSent: 0, byRoute: {}, byStatus: {}, byRepo: {} };
  for (const e of log) {
    s.requests += 1;
    s.bytesSent += e.bytes;
    add(s.byRoute, e.route, e.bytes);
    s.byStatus[e.status] = (s.byStatus[e.status] ?? 0) + 1;
    if (e.repo) {
      add(s.byRepo, e.repo, e.bytes);
    }
  }
  return s;
}

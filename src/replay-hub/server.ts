import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { faultStore, rateLimitHeaders } from "./faults.ts";
import { fixtureRepos } from "./fixtures/index.ts";
import { type Ctx, sendError, sendJson } from "./http-util.ts";
import { applyCommit, type RepoState, repoState, rewriteHistory } from "./repo-state.ts";
import { dispatch, parseRoute } from "./router.ts";
import { statsOf } from "./stats.ts";
import type { CommitSpec, FaultRule, RepoSpec, RequestLogEntry } from "./types.ts";

export type ReplayHubOptions = {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /** Defaults to the recorded fixture repos (src/replay-hub/fixtures). */
  repos?: RepoSpec[];
  faults?: FaultRule[];
};

export type ReplayHub = Awaited<ReturnType<typeof startReplayHub>>;

function cutMidBody(res: ServerResponse): void {
  const end = res.end.bind(res);
  res.end = ((chunk?: unknown) => {
    if (Buffer.isBuffer(chunk) && chunk.length > 1) {
      res.write(chunk.subarray(0, Math.floor(chunk.length / 2)));
      setTimeout(() => res.socket?.destroy(), 20);
      return res;
    }
    return end(chunk as Buffer);
  }) as ServerResponse["end"];
}

function track(req: IncomingMessage, res: ServerResponse, entry: RequestLogEntry, log: RequestLogEntry[]) {
  const write = res.write.bind(res);
  const end = res.end.bind(res);
  // Logged on arrival and filled in as the response is written, so readers never race the socket close.
  log.push(entry);
  const count = (chunk: unknown) => {
    entry.status = res.statusCode;
    if (chunk && typeof chunk !== "function") entry.bytes += Buffer.byteLength(chunk as Buffer);
  };
  res.write = ((chunk: unknown, ...rest: never[]) => {
    count(chunk);
    return write(chunk as Buffer, ...rest);
  }) as typeof res.write;
  res.end = ((chunk: unknown, ...rest: never[]) => {
    count(chunk);
    return end(chunk as Buffer, ...rest);
  }) as typeof res.end;
  res.on("close", () => {
    entry.status = res.statusCode;
  });
  req.on("error", () => {});
}

/** Starts the local Hub. Everything it serves is derived from `repos`; weight bodies are never materialised. */
export async function startReplayHub(opts: ReplayHubOptions = {}) {
  const repos = new Map<string, RepoState>();
  for (const spec of opts.repos ?? fixtureRepos()) repos.set(spec.id, repoState(spec));
  const faults = faultStore();
  for (const f of opts.faults ?? []) faults.add(f);
  const requestLog: RequestLogEntry[] = [];

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const origin = `http://${req.headers.host ?? "127.0.0.1"}`;
    const url = new URL(req.url ?? "/", origin);
    const ctx: Ctx = { req, res, url, origin };
    const p = parseRoute(url.pathname);
    const entry: RequestLogEntry = {
      at: Date.now(),
      method: req.method ?? "GET",
      path: url.pathname + url.search,
      route: p.route,
      repo: p.repo,
      status: 0,
      bytes: 0,
      range: req.headers.range,
    };
    track(req, res, entry, requestLog);
    const fault = faults.take(p.repo, p.route, url.pathname);
    if (fault) entry.fault = fault.kind;
    if (fault?.kind === "delay") await new Promise((r) => setTimeout(r, fault.ms));
    if (fault?.kind === "rate-limit") return sendError429(ctx, fault);
    if (fault?.kind === "server-error") return sendError(ctx, fault.status ?? 500, null, "Internal Error");
    if (fault?.kind === "reset" && p.route !== "resolve" && p.route !== "raw") cutMidBody(res);
    await dispatch(ctx, p, repos, fault);
  }

  function sendError429(ctx: Ctx, fault: Extract<FaultRule, { kind: "rate-limit" }>): void {
    sendJson(ctx, 429, { error: "You have exceeded our rate limit." }, rateLimitHeaders(fault));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent)
        sendError({ req, res, url: new URL("http://x/"), origin: "" }, 500, null, String(err));
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, opts.host ?? "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  function stateOf(repo: string): RepoState {
    const s = repos.get(repo);
    if (!s) throw new Error(`replay hub: unknown repo ${repo}`);
    return s;
  }

  return {
    url: `http://${opts.host ?? "127.0.0.1"}:${port}`,
    port,
    requestLog,
    stats: () => statsOf(requestLog),
    setFault: (rule: FaultRule) => faults.add(rule),
    clearFaults: () => faults.clear(),
    clearLog: () => void requestLog.splice(0),
    /** Appends a revision on main; returns its sha. */
    addCommit(repo: string, spec: CommitSpec): string {
      const s = stateOf(repo);
      s.history.push(applyCommit(s.history.at(-1) ?? null, spec));
      return s.history.at(-1)!.sha;
    },
    /** Rewrites main (drop the newest `dropLast`, append `commits`; default: the repo's scripted rewrite). */
    forcePush(repo: string, rewrite?: { dropLast: number; commits: CommitSpec[] }): string {
      const s = stateOf(repo);
      const r = rewrite ?? s.spec.scriptedForcePush;
      if (!r) throw new Error(`replay hub: no scripted force-push for ${repo}`);
      rewriteHistory(s, r.dropLast, r.commits);
      return s.history.at(-1)!.sha;
    },
    addRepo: (spec: RepoSpec) => void repos.set(spec.id, repoState(spec)),
    headSha: (repo: string) => stateOf(repo).history.at(-1)!.sha,
    history: (repo: string) =>
      stateOf(repo).history.map((c) => ({ sha: c.sha, title: c.title, date: c.date })),
    repoIds: () => [...repos.keys()],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

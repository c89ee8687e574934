import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { cdnSigner, parseCdnRoute, refuseUnsigned } from "./cdn.ts";
import { handleControl } from "./control.ts";
import { faultStore, rateLimitHeaders } from "./faults.ts";
import { fixtureRepos } from "./fixtures/index.ts";
import { type Ctx, sendError, sendJson } from "./http-util.ts";
import { bucketOf, parseQuota, type QuotaPolicy, quotaMeter } from "./quota.ts";
import { applyCommit, type RepoState, repoState, rewriteHistory } from "./repo-state.ts";
import { type DispatchOptions, dispatch, parseRoute } from "./router.ts";
import { statsOf } from "./stats.ts";
import type { CommitSpec, FaultRule, RepoSpec, RequestLogEntry } from "./types.ts";

type ReplayHubOptions = {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /** Defaults to the recorded fixture repos (src/replay-hub/fixtures). */
  repos?: RepoSpec[];
  faults?: FaultRule[];
  /** Serve LFS bytes from a second origin (the "CDN", its own port) behind a 302, as the Hub does. */
  cdn?: boolean;
  /** Enforced API quota, "REQUESTS/SECONDS" (e.g. "1000/300"); resolvers get 5x. Unset: never 429. */
  quota?: string | QuotaPolicy;
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

  const api = typeof opts.quota === "string" ? parseQuota(opts.quota) : opts.quota;
  const quota = quotaMeter(api ? { api } : {});
  const signer = cdnSigner();
  const routing: DispatchOptions = {};

  /** Appends a revision on main (creating the repo when new); returns its sha. */
  function push(repo: string, spec: CommitSpec): string {
    let s = repos.get(repo);
    if (!s) {
      s = repoState({ id: repo, commits: [] });
      repos.set(repo, s);
    }
    s.history.push(applyCommit(s.history.at(-1) ?? null, spec));
    return s.history.at(-1)!.sha;
  }

  async function handle(req: IncomingMessage, res: ServerResponse, onCdn: boolean): Promise<void> {
    const origin = `http://${req.headers.host ?? "127.0.0.1"}`;
    const url = new URL(req.url ?? "/", origin);
    const ctx: Ctx = { req, res, url, origin };
    if (!onCdn && (await handleControl(ctx, { push }))) return;
    const p = onCdn ? parseCdnRoute(url.pathname) : parseRoute(url.pathname);
    const entry: RequestLogEntry = {
      at: Date.now(),
      method: req.method ?? "GET",
      path: url.pathname + url.search,
      route: p.route,
      repo: p.repo,
      status: 0,
      bytes: 0,
      range: req.headers.range,
      authorized: req.headers.authorization !== undefined,
    };
    track(req, res, entry, requestLog);
    const bucket = bucketOf(p.route);
    if (bucket) {
      const verdict = quota.take(bucket);
      for (const [k, v] of Object.entries(verdict.headers)) res.setHeader(k, v);
      if (!verdict.allowed) return sendJson(ctx, 429, { error: "You have exceeded our rate limit." });
    }
    if (onCdn && !signer.verify(url)) return refuseUnsigned(ctx);
    const fault = faults.take(p.repo, p.route, url.pathname);
    if (fault) entry.fault = fault.kind;
    if (fault?.kind === "delay") await new Promise((r) => setTimeout(r, fault.ms));
    if (fault?.kind === "rate-limit") return sendError429(ctx, fault);
    if (fault?.kind === "server-error") return sendError(ctx, fault.status ?? 500, null, "Internal Error");
    if (fault?.kind === "reset" && p.route !== "resolve" && p.route !== "raw") cutMidBody(res);
    await dispatch(ctx, p, repos, fault, { ...routing, onCdn });
  }

  function sendError429(ctx: Ctx, fault: Extract<FaultRule, { kind: "rate-limit" }>): void {
    sendJson(ctx, 429, { error: "You have exceeded our rate limit." }, rateLimitHeaders(fault));
  }

  const host = opts.host ?? "127.0.0.1";
  const server = await listen(handle, false, opts.port ?? 0, host);
  const cdnServer = opts.cdn ? await listen(handle, true, 0, host) : null;
  const { port } = server.address() as AddressInfo;
  const cdnUrl = cdnServer ? `http://${host}:${(cdnServer.address() as AddressInfo).port}` : null;
  if (cdnUrl) routing.cdn = { origin: cdnUrl, signer };

  function stateOf(repo: string): RepoState {
    const s = repos.get(repo);
    if (!s) throw new Error(`replay hub: unknown repo ${repo}`);
    return s;
  }

  return {
    url: `http://${host}:${port}`,
    port,
    /** The CDN origin LFS files redirect to (null without `cdn`). */
    cdnUrl,
    /** Requests refused with 429 because the enforced quota was spent (rate-limit faults not counted). */
    quotaRefused: () => quota.refused(),
    requestLog,
    stats: () => statsOf(requestLog),
    setFault: (rule: FaultRule) => faults.add(rule),
    clearFaults: () => faults.clear(),
    clearLog: () => void requestLog.splice(0),
    /** Appends a revision on main; returns its sha. */
    addCommit(repo: string, spec: CommitSpec): string {
      stateOf(repo);
      return push(repo, spec);
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
    close: async () => {
      await Promise.all([server, cdnServer].map((srv) => (srv ? closeServer(srv) : undefined)));
    },
  };
}

type Handler = (req: IncomingMessage, res: ServerResponse, onCdn: boolean) => Promise<void>;

async function listen(handle: Handler, onCdn: boolean, port: number, host: string): Promise<Server> {
  const server = createServer((req, res) => {
    handle(req, res, onCdn).catch((err: unknown) => {
      if (!res.headersSent)
        sendError({ req, res, url: new URL("http://x/"), origin: "" }, 500, null, String(err));
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return server;
}

function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

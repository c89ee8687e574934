import { loadReposFromFolder } from "../replay-hub/folder-repos.ts";
import { GATED_TOKEN, MISSING_REPO_ID, type ReplayHub, startReplayHub } from "../replay-hub/index.ts";

type ReplayHubCommandOptions = {
  /** 0 = any free port. */
  port: number;
  host?: string;
  /** Folder of recorded repos (src/replay-hub/README.md); default: the fixture repos. */
  repos?: string;
  cdn?: boolean;
  /** Enforced API quota, "REQUESTS/SECONDS". */
  quota?: string;
  /** Resolves when the hub should stop (default: SIGINT or SIGTERM). For tests. */
  until?: Promise<unknown>;
  out?: (line: string) => void;
};

function describe(hub: ReplayHub): string[] {
  return [
    `replay hub listening on ${hub.url}`,
    `  point hubwatch at it: HF_ENDPOINT=${hub.url}`,
    ...hub
      .repoIds()
      .map((id) => `  ${id}  (${hub.history(id).length} commits, head ${hub.headSha(id).slice(0, 12)})`),
    ...(hub.cdnUrl ? [`  LFS files redirect to the CDN origin ${hub.cdnUrl}`] : []),
    `  push a revision: POST ${hub.url}/_control/repos/OWNER/NAME/commits {"title", "files": {PATH: TEXT}}`,
    `  gated repo token: HF_TOKEN=${GATED_TOKEN}`,
    `  ${MISSING_REPO_ID} answers 404 RepoNotFound`,
  ];
}

function signalled(): Promise<string> {
  return new Promise((resolve) => {
    const stop = (sig: string) => () => resolve(sig);
    process.once("SIGINT", stop("SIGINT"));
    process.once("SIGTERM", stop("SIGTERM"));
  });
}

/** `hubwatch replay-hub`: serves the fixture repos until SIGINT/SIGTERM, then prints request totals. */
export async function runReplayHubCommand(opts: ReplayHubCommandOptions): Promise<number> {
  const out = opts.out ?? ((line: string) => process.stdout.write(`${line}\n`));
  const hub = await startReplayHub({
    port: opts.port,
    host: opts.host,
    repos: opts.repos ? loadReposFromFolder(opts.repos) : undefined,
    cdn: opts.cdn,
    quota: opts.quota,
  });
  for (const line of describe(hub)) out(line);
  await (opts.until ?? signalled());
  const s = hub.stats();
  out(`replay hub: ${s.requests} requests, ${s.bytesSent} bytes sent`);
  await hub.close();
  return 0;
}

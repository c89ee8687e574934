import { GATED_TOKEN, MISSING_REPO_ID, type ReplayHub, startReplayHub } from "../replay-hub/index.ts";

export type ReplayHubCommandOptions = {
  /** 0 = any free port. */
  port: number;
  host?: string;
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
  const hub = await startReplayHub({ port: opts.port, host: opts.host });
  for (const line of describe(hub)) out(line);
  await (opts.until ?? signalled());
  const s = hub.stats();
  out(`replay hub: ${s.requests} requests, ${s.bytesSent} bytes sent`);
  await hub.close();
  return 0;
}

import { readFileSync } from "node:fs";
import { Command, InvalidArgumentError } from "commander";
import { type Config, loadConfig } from "../config/env.ts";
import { registerAdminCommands } from "./admin-commands.ts";
import { action, UsageError } from "./errors.ts";
import { registerFailedCommands } from "./failed-commands.ts";
import { registerScanCommand } from "./scan-register.ts";

// Command modules are imported when their command runs: `--help` and `watch` load no pipeline code.
const store = () => import("./store-commands.ts");
const pipeline = () => import("./pipeline-commands.ts");

// Parsed once, on first use, so `--help` works even with a broken environment.
let config: Config | undefined;
function cfg(): Config {
  config ??= loadConfig(process.env);
  return config;
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError("expected a positive integer");
  return n;
}

// `hubwatch watch ls | head`: the reader closing the pipe ends the command quietly, as in other CLIs.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "EPIPE") process.exit(0);
    throw err;
  });
}

const packageJson = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
  version: string;
};

const program = new Command("hubwatch")
  .version(packageJson.version, "-V, --version", "print the version")
  .description(
    "Watches Hugging Face Hub model repos; reports parameter, memory and fit changes as OSV advisories, badges and webhooks.",
  )
  .showHelpAfterError()
  .configureOutput({ outputError: (s, write) => write(s) });

program
  .command("migrate")
  .description("apply pending database migrations")
  .action(action(async () => (await store()).migrateCommand(cfg())));

const watch = program.command("watch").description("manage watched repos");
watch
  .command("add")
  .argument("[repos...]", "OWNER/NAME")
  .option("--from-scan <path>", "also watch every model repo `hubwatch scan` finds under PATH")
  .option("--with-base", "for a PEFT adapter, watch its base model too")
  .description("start watching repos")
  .action(
    action(async (repos: string[], opts: { fromScan?: string; withBase?: boolean }) => {
      const found = opts.fromScan
        ? await (await import("./scan-command.ts")).reposFromScan(opts.fromScan)
        : [];
      if (repos.length + found.length === 0)
        throw new UsageError("name repos to watch, or a --from-scan PATH");
      const names = [...new Set([...repos, ...found])];
      return (await store()).watchCommand(cfg(), "add", names, process.stdout, { withBase: opts.withBase });
    }),
  );
watch
  .command("rm")
  .argument("<repos...>", "OWNER/NAME")
  .description("stop watching repos (forgets their history)")
  .action(action(async (repos: string[]) => (await store()).watchCommand(cfg(), "rm", repos)));
watch
  .command("ls")
  .description("list watched repos")
  .action(action(async () => (await store()).watchCommand(cfg(), "ls", [])));

program
  .command("poll")
  .description("poll watched repos for new revisions")
  .option("--once", "poll and process everything in this process, then exit")
  .action(action(async (opts: { once?: boolean }) => (await pipeline()).pollCommand(cfg(), opts)));

program
  .command("scheduler")
  .description("distributed: queue a poll of every repo on HUBWATCH_POLL_CRON")
  .action(action(async () => (await pipeline()).schedulerCommand(cfg())));

program
  .command("worker")
  .description("distributed: run jobs from the queues until SIGTERM")
  .option("--concurrency <n>", "jobs at once per queue", positiveInt)
  .option("--lock-ms <ms>", "BullMQ lock duration", positiveInt)
  .option("--stalled-ms <ms>", "BullMQ stalled-job check interval", positiveInt)
  .action(
    action(async (opts: { concurrency?: number; lockMs?: number; stalledMs?: number }) =>
      (await pipeline()).workerCommand(cfg(), opts),
    ),
  );

program
  .command("run")
  .description("embedded all-in-one: scheduler, workers and the HTTP server (pages, APIs) in this process")
  .option("--host <host>", "address to listen on (default: HOST)")
  .option("--port <port>", "port to listen on, 0 for any free port (default: PORT)", port)
  .option("--no-serve", "do not serve HTTP")
  .action(
    action(async (opts: { host?: string; port?: number; serve?: boolean }) =>
      (await pipeline()).runCommand(cfg(), opts),
    ),
  );

program
  .command("estimate")
  .argument(
    "<model>",
    "a config.json, a folder with config.json (+ safetensors headers), or OWNER/NAME[@REV]",
  )
  .option("--json", "print the estimate as JSON")
  .option("--markdown", "print the estimate as Markdown")
  .option("--full", "Markdown: list every structure node instead of one row per repeated block")
  .description(
    "estimate parameters, memory and fit for a local config or a Hub repo (headers only, no weights)",
  )
  .action(
    action(async (path: string, opts: { json?: boolean; markdown?: boolean; full?: boolean }) => {
      const { nodeEstimateIo, runEstimateCommand } = await import("./estimate-command.ts");
      const hub = () => ({ hubUrl: cfg().HF_ENDPOINT, accessToken: cfg().HF_TOKEN });
      return runEstimateCommand(path, opts, nodeEstimateIo(), hub);
    }),
  );

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError("expected a port, 0-65535");
  return n;
}

program
  .command("serve")
  .description("serve the OSV API, feeds, badges, history pages and webhook admin")
  .option("--host <host>", "address to listen on (default: HOST)")
  .option("--port <port>", "port to listen on, 0 for any free port (default: PORT)", port)
  .action(
    action(async (opts: { host?: string; port?: number }) => {
      const { runServeCommand } = await import("./serve-command.ts");
      return runServeCommand(cfg(), opts);
    }),
  );

program
  .command("replay-hub")
  .description("serve the bundled replay hub (a local Hub API with fixture repos)")
  .option("--port <port>", "port to listen on (0: any free port)", port, 0)
  .option("--repos <dir>", "serve the repos recorded in DIR/OWNER/NAME/NNNN-SHA/ instead of the fixtures")
  .option("--cdn", "redirect LFS /resolve/ to a CDN origin on a second port, as the Hub does")
  .option("--quota <requests/seconds>", "enforce an API quota, e.g. 1000/300 (429 past it)")
  .action(
    action(async (opts: { port: number; repos?: string; cdn?: boolean; quota?: string }) => {
      const { runReplayHubCommand } = await import("./replay-hub-command.ts");
      return runReplayHubCommand(opts);
    }),
  );

program
  .command("demo")
  .description("offline demo: replay hub, every fixture repo, every revision; writes out/")
  .option("--serve", "keep serving the results after the run")
  .option("--out <dir>", "output folder", "out")
  .action(
    action(async (opts: { serve?: boolean; out: string }) => {
      const { demoCommand } = await import("./demo-command.ts");
      return demoCommand(cfg(), opts);
    }),
  );

registerAdminCommands(program, { config: cfg });
registerFailedCommands(program, { config: cfg });
registerScanCommand(program, { config: cfg });

await program.parseAsync(process.argv);
// A failed command leaves its exit code set; exit now rather than wait on whatever it left open.
if (typeof process.exitCode === "number" && process.exitCode !== 0) process.exit(process.exitCode);

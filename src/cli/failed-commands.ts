import type { Command } from "commander";
import type { Config } from "../config/env.ts";
import { bootServices, isDistributed } from "../main/boot.ts";
import { distributedRunner } from "../main/runners.ts";
import {
  type Failures,
  listFailures,
  type Requeue,
  type RetryReport,
  retryFailures,
} from "../services/failures.ts";
import { refused, viaDaemon } from "./daemon-client.ts";
import { action, UsageError } from "./errors.ts";

type Ctx = { config: () => Config; out?: { write(s: string): unknown } };
type Booted = Awaited<ReturnType<typeof bootServices>>;
type Queueing = { enqueue: Requeue; failedJobs?: ReturnType<typeof distributedRunner>["failedJobs"] };

/** Opens the store and, in distributed mode, a producer with the failed-job history; closes both. */
async function withFailures<T>(config: Config, fn: (b: Booted, q: Queueing) => Promise<T>): Promise<T> {
  const booted = await bootServices(config);
  const runner = isDistributed(config) ? distributedRunner(config, booted.services) : undefined;
  try {
    const queueing: Queueing = runner
      ? { enqueue: runner.enqueue as Requeue, failedJobs: runner.failedJobs }
      : { enqueue: async () => {} };
    return await fn(booted, queueing);
  } finally {
    await runner?.close();
    await booted.close();
  }
}

function oneLine(s: string, max = 160): string {
  const flat = s.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** A date as ISO text, whether it came from the store or as JSON from a daemon. */
const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : "-");

function formatFailures(f: Failures): string {
  if (f.revisions.length + f.jobs.length === 0) return "nothing failed\n";
  const lines = [
    ...f.revisions.map(
      (r) => `revision\t${r.repo}\t${r.sha.slice(0, 12)}\t${iso(r.processedAt)}\t${oneLine(r.error)}`,
    ),
    ...f.jobs.map(
      (j) =>
        `job\t${j.name}\t${j.jobId || "-"}\t${j.failedAt}\t${oneLine(`after ${j.attempts} attempt(s): ${j.error}`)}`,
    ),
  ];
  return `${lines.join("\n")}\n`;
}

/** `hubwatch failed ls [REPO] [--json]` and `hubwatch failed retry [REPO] [--all]`. */
export function registerFailedCommands(program: Command, ctx: Ctx): void {
  const out = ctx.out ?? process.stdout;
  const failed = program.command("failed").description("failed revisions and jobs: list them, retry them");
  failed
    .command("ls")
    .argument("[repo]", "OWNER/NAME (default: every repo)")
    .option("--json", "print as JSON")
    .description("list failed revisions (with the recorded reason) and jobs that failed for good")
    .action(
      action(async (repo: string | undefined, opts: { json?: boolean }) => {
        const print = (found: Failures) => {
          out.write(opts.json ? `${JSON.stringify(found, null, 2)}\n` : formatFailures(found));
          return 0;
        };
        return viaDaemon(
          ctx.config(),
          async (call) => {
            const res = await call("GET", `/api/failed${repo ? `?repo=${encodeURIComponent(repo)}` : ""}`);
            if (res.status !== 200) throw refused(res);
            return print(res.body as Failures);
          },
          () =>
            withFailures(ctx.config(), async (b, q) =>
              print(await listFailures(b.services, q.failedJobs, repo)),
            ),
        );
      }),
    );
  failed
    .command("retry")
    .argument("[repo]", "OWNER/NAME")
    .option("--all", "retry every failed revision and job")
    .description("put failed revisions back to pending and queue failed jobs again")
    .action(
      action(async (repo: string | undefined, opts: { all?: boolean }) => {
        if (!repo === !opts.all) throw new UsageError("name a REPO, or pass --all");
        const print = (done: RetryReport) => {
          const revs = done.revisions.reduce((n, r) => n + r.count, 0);
          out.write(`requeued ${revs} failed revision(s) and ${done.jobs} failed job(s)\n`);
          for (const r of done.revisions) out.write(`  ${r.repo}: ${r.count} revision(s)\n`);
          return revs;
        };
        return viaDaemon(
          ctx.config(),
          async (call) => {
            const res = await call("POST", "/api/failed/retry", repo ? { repo } : { all: true });
            if (res.status !== 200) throw refused(res);
            print(res.body as RetryReport);
            return 0;
          },
          () =>
            withFailures(ctx.config(), async (b, q) => {
              const revs = print(await retryFailures(b.services, q.enqueue, q.failedJobs, repo));
              if (!isDistributed(ctx.config()) && revs > 0)
                out.write("  embedded mode: `hubwatch run` or `hubwatch poll --once` processes them\n");
              return 0;
            }),
        );
      }),
    );
}

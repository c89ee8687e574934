import { type ChildProcessByStdio, spawn } from "node:child_process";
import type { Readable } from "node:stream";

/** The repository root, where `bin/hubwatch.js` lives. */
export const ROOT = new URL("../../", import.meta.url).pathname;
export const BIN = `${ROOT}bin/hubwatch.js`;

type CliProcess = {
  proc: ChildProcessByStdio<null, Readable, Readable>;
  exited: Promise<number | null>;
  out: () => string;
  err: () => string;
};
export type CliRun = { code: number | null; stdout: string; stderr: string; ms: number };

/** Starts `file argv` with `env` over this process's environment, collecting stdout and stderr. */
export function startProcess(
  file: string,
  argv: string[],
  opts: { env: Record<string, string>; cwd?: string },
): CliProcess {
  const proc = spawn(file, argv, {
    cwd: opts.cwd ?? ROOT,
    env: { ...process.env, ...opts.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  proc.stdout.on("data", (d) => (stdout += d));
  proc.stderr.on("data", (d) => (stderr += d));
  const exited = new Promise<number | null>((r) => proc.on("exit", (code) => r(code)));
  return { proc, exited, out: () => stdout, err: () => stderr };
}

/** Runs `file argv` to its exit: the exit code, what it printed, and how long it took. */
export async function runProcess(
  file: string,
  argv: string[],
  opts: { env: Record<string, string>; cwd?: string },
): Promise<CliRun> {
  const started = Date.now();
  const p = startProcess(file, argv, opts);
  const code = await p.exited;
  return { code, stdout: p.out(), stderr: p.err(), ms: Date.now() - started };
}

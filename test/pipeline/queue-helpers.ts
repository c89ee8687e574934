import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { inject } from "vitest";
import { type JobRegistry, jobs } from "../../jobs/index.ts";
import {
  type BullmqRunner,
  type BullmqRunnerOptions,
  createBullmqRunner,
} from "../../src/queue/bullmq-runner.ts";
import { QUEUE_NAMES } from "../../src/queue/types.ts";
import type { PipelineServices } from "../../src/services/deps.ts";

/** A BullMQ key prefix of its own per test, so runs never see each other's jobs. */
export function uniquePrefix(): string {
  return `hwtest-${randomUUID().slice(0, 8)}`;
}

export function redisUrl(): string {
  return inject("redisUrl");
}

export function bullRunner(
  services: PipelineServices,
  prefix: string,
  extra: Partial<BullmqRunnerOptions<PipelineServices, JobRegistry>> = {},
): BullmqRunner<JobRegistry> {
  return createBullmqRunner({ jobs, services, redisUrl: redisUrl(), prefix, ...extra });
}

/** Waits until no job is waiting, delayed, active or prioritised in any queue (BullMQ's own counts). */
export async function waitUntilDrained(runner: BullmqRunner<JobRegistry>, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let quietSince = 0;
  while (Date.now() < deadline) {
    let pending = 0;
    for (const name of QUEUE_NAMES) {
      const c = await runner.queue(name).getJobCounts("waiting", "active", "delayed", "prioritized");
      pending += Object.values(c).reduce((a, b) => a + b, 0);
    }
    // Two quiet reads in a row: a job may enqueue its follow-up just before completing.
    if (pending === 0) {
      if (quietSince && Date.now() - quietSince > 300) return;
      quietSince ||= Date.now();
    } else quietSince = 0;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("queues did not drain in time");
}

/** Removes every key of the test's queues. */
export async function obliterate(runner: BullmqRunner<JobRegistry>): Promise<void> {
  for (const name of QUEUE_NAMES) await runner.queue(name).obliterate({ force: true });
}

const BIN = fileURLToPath(new URL("../../bin/hubwatch.js", import.meta.url));

/** `hubwatch worker` in a child process, as an operator would run it. */
export function spawnWorker(env: Record<string, string>, args: string[] = []): ChildProcess {
  return spawn(process.execPath, [BIN, "worker", ...args], {
    env: { PATH: process.env.PATH ?? "", LOG_LEVEL: "silent", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

export function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null)
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
}

export async function waitFor(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

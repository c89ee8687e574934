/**
 * Embedded mode as one process: `hubwatch run`, started in a folder with the default data folder
 * (`.hubwatch`), serves the pages itself and they show a revision pushed upstream after it started; a
 * second process opening the same folder is refused with one line naming the owner's PID, and the folder
 * is free again once `run` stops.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startReplayHub } from "../../src/replay-hub/index.ts";
import { FAULTED_REPO as A, healthyRepos, waitFor } from "../faults/harness.ts";
import { freePort } from "../faults/processes.ts";
import { BIN, startProcess } from "../helpers/cli-process.ts";

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => {});
});

const start = (cwd: string, args: string[], env: Record<string, string>) =>
  startProcess(process.execPath, [BIN, ...args], {
    cwd,
    env: { LOG_LEVEL: "warn", DATABASE_URL: "", REDIS_URL: "", HUBWATCH_DATA_DIR: "", ...env },
  });

describe("hubwatch run (embedded)", () => {
  it("serves pages showing a revision pushed after it started; a second process on the folder is refused naming the PID", async () => {
    const hub = await startReplayHub({ repos: healthyRepos(1) });
    cleanups.push(() => hub.close());
    const cwd = mkdtempSync(join(tmpdir(), "hubwatch-run-"));
    cleanups.push(async () => rmSync(cwd, { recursive: true, force: true }));
    const env = { HF_ENDPOINT: hub.url, HUBWATCH_POLL_CRON: "*/2 * * * * *" };
    const add = start(cwd, ["watch", "add", A], env);
    expect(await add.exited).toBe(0);

    const port = await freePort();
    const run = start(cwd, ["run", "--port", String(port)], env);
    cleanups.push(async () => {
      if (run.proc.exitCode === null) run.proc.kill("SIGKILL");
    });
    const page = async () => {
      const res = await fetch(`http://127.0.0.1:${port}/repos/${A}`).catch(() => null);
      return res?.ok ? res.text() : "";
    };
    const first = hub.history(A);
    await waitFor(
      "the repo page lists the first revisions",
      async () => (await page()).includes(first.at(-1)!.sha.slice(0, 12)),
      90_000,
    );
    expect(run.out()).toMatch(new RegExp(`serving on http://127\\.0\\.0\\.1:${port}`));

    const sha = hub.addCommit(A, {
      title: "pushed after start",
      date: "2025-07-01T00:00:00Z",
      changes: { "README.md": { kind: "text", text: "# later\n" } },
    });
    await waitFor(
      "the page shows the revision pushed after start",
      async () => (await page()).includes(sha.slice(0, 12)),
      60_000,
    );

    const second = start(cwd, ["watch", "ls"], env);
    expect(await second.exited).not.toBe(0);
    expect(second.err().trim().split("\n")).toEqual([
      `hubwatch: .hubwatch is in use by process ${run.proc.pid} (hubwatch run or serve); stop it, use its HTTP API, or set another HUBWATCH_DATA_DIR`,
    ]);

    run.proc.kill("SIGTERM");
    expect(await run.exited).toBe(0);
    const after = start(cwd, ["watch", "ls"], env);
    expect(await after.exited).toBe(0);
    expect(after.out()).toContain(A);
  }, 240_000);
});

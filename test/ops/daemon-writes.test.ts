/**
 * CLI writes while `hubwatch run` holds the PGlite folder: `watch add`, `token create` and `hook add`
 * from a second process go through the daemon's write API (with the token it published, mode 0600, in
 * the data folder), and the daemon's pages show the new repo's revisions. Without a daemon answering
 * (`run --no-serve`) the second process is refused naming the owner; with the daemon gone, the command
 * opens the folder itself.
 */

import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startReplayHub } from "../../src/replay-hub/index.ts";
import { FAULTED_REPO as A, healthyRepos, OTHER_REPOS, waitFor } from "../faults/harness.ts";
import { freePort } from "../faults/processes.ts";
import { BIN, startProcess } from "../helpers/cli-process.ts";

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => {});
});

function start(args: string[], env: Record<string, string>) {
  const p = startProcess(process.execPath, [BIN, ...args], {
    env: { LOG_LEVEL: "warn", DATABASE_URL: "", REDIS_URL: "", ...env },
  });
  cleanups.push(async () => {
    if (p.proc.exitCode === null && p.proc.signalCode === null) p.proc.kill("SIGKILL");
  });
  return p;
}

async function setup() {
  const hub = await startReplayHub({ repos: healthyRepos(2) });
  cleanups.push(() => hub.close());
  const dir = mkdtempSync(join(tmpdir(), "hubwatch-daemon-"));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  const env = {
    HF_ENDPOINT: hub.url,
    HUBWATCH_DATA_DIR: join(dir, "data"),
    HUBWATCH_ALLOW_PRIVATE_WEBHOOKS: "true",
  };
  return { hub, dir, env, apiFile: join(dir, "data", "hubwatch.api.json") };
}

describe("CLI writes with `hubwatch run` up", () => {
  it("go through the daemon's API; its pages show the repo added from the second process", async () => {
    const { hub, env, apiFile } = await setup();
    const port = await freePort();
    const run = start(["run", "--port", String(port)], env);
    const base = `http://127.0.0.1:${port}`;
    await waitFor("the daemon serves", async () => existsSync(apiFile), 60_000);
    expect(statSync(apiFile).mode & 0o777).toBe(0o600);

    const add = start(["watch", "add", A], env);
    expect([await add.exited, add.out()]).toEqual([0, `watching ${A}\n`]);
    expect(add.err()).toContain(`through the running daemon (process ${run.proc.pid}) at ${base}`);
    const page = async () => {
      const res = await fetch(`${base}/repos/${A}`).catch(() => null);
      return res?.ok ? res.text() : "";
    };
    const head = hub.history(A).at(-1)!.sha.slice(0, 12);
    await waitFor(
      "the daemon's page shows the added repo",
      async () => (await page()).includes(head),
      60_000,
    );

    const again = start(["watch", "add", A, "not a repo"], env);
    expect(await again.exited).toBe(2);
    expect(again.out()).toBe(`already watching ${A}\n`);
    expect(again.err()).toMatch(/"not a repo" is not a Hub model repo id/);

    const token = start(["token", "create", "--name", "second"], env);
    expect(await token.exited).toBe(0);
    const bearer = token.out().trim();
    expect(bearer).toMatch(/^hw_/);
    const listed = await fetch(`${base}/api/tokens`, { headers: { authorization: `Bearer ${bearer}` } });
    expect((await listed.json()).map((t: { name: string }) => t.name)).toContain("second");

    const hook = start(["hook", "add", "http://127.0.0.1:9/hook", "--repo", A], env);
    expect(await hook.exited).toBe(0);
    expect(hook.out()).toMatch(/^id \d+\nsecret whsec_\S+\n$/);
    const subs = await fetch(`${base}/api/subscriptions`, { headers: { authorization: `Bearer ${bearer}` } });
    expect(await subs.json()).toEqual([
      expect.objectContaining({ url: "http://127.0.0.1:9/hook", repoFilter: A }),
    ]);

    // The other admin writes and lists go through it too.
    const hookId = /^id (\d+)$/m.exec(hook.out())?.[1];
    const hooks = start(["hook", "ls"], env);
    expect(await hooks.exited).toBe(0);
    expect(hooks.out()).toMatch(new RegExp(`^${hookId}\thttp://127.0.0.1:9/hook\t${A}\t`, "m"));
    const rm = start(["hook", "rm", String(hookId)], env);
    expect(await rm.exited).toBe(0);
    const tokens = start(["token", "ls"], env);
    expect(await tokens.exited).toBe(0);
    const tokenId = /^(\d+)\tsecond\t.*\tactive$/m.exec(tokens.out())?.[1];
    expect(tokenId).toBeDefined();
    const revoke = start(["token", "revoke", String(tokenId)], env);
    expect(await revoke.exited).toBe(0);
    const gone = await fetch(`${base}/api/tokens`, { headers: { authorization: `Bearer ${bearer}` } });
    expect(gone.status).toBe(401);

    const failed = start(["failed", "ls"], env);
    expect([await failed.exited, failed.out()]).toEqual([0, "nothing failed\n"]);
    expect(failed.err()).toContain("through the running daemon");
    // The embedded runner's queues are in the same gauge as distributed mode's.
    const metrics = await (await fetch(`${base}/metrics`)).text();
    for (const queue of ["hub", "maintenance", "webhooks"])
      for (const state of ["waiting", "active", "delayed", "failed"])
        expect(metrics).toMatch(
          new RegExp(`^hubwatch_queue_jobs\\{queue="${queue}",state="${state}"\\} \\d+$`, "m"),
        );

    run.proc.kill("SIGTERM");
    expect(await run.exited).toBe(0);
    expect(existsSync(apiFile)).toBe(false);
  }, 240_000);

  it("are refused naming the owner when it serves no HTTP, and open the folder once it is gone", async () => {
    const { env, apiFile } = await setup();
    const run = start(["run", "--no-serve"], env);
    await waitFor(
      "the daemon holds the folder",
      async () => existsSync(join(env.HUBWATCH_DATA_DIR, "hubwatch.pid")),
      60_000,
    );
    const refused = start(["watch", "add", OTHER_REPOS[0]!], env);
    expect(await refused.exited).toBe(2);
    expect(refused.err()).toContain(`is in use by process ${run.proc.pid}`);
    expect(existsSync(apiFile)).toBe(false);

    run.proc.kill("SIGKILL");
    await run.exited;
    const alone = start(["watch", "add", OTHER_REPOS[0]!], env);
    expect([await alone.exited, alone.out()]).toEqual([0, `watching ${OTHER_REPOS[0]}\n`]);
    expect(alone.err()).not.toContain("through the running daemon");
  }, 120_000);
});

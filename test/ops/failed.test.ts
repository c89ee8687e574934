/**
 * Failures an operator can see and fix: a revision failed by bad upstream data (a truncated
 * safetensors header) shows in `hubwatch failed ls` and `GET /api/failed` with its reason; once the Hub
 * serves good data again, `hubwatch failed retry REPO` (or `POST /api/failed/retry`) puts it back and the
 * next poll processes it. Real CLI processes on a fresh PostgreSQL database.
 */
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { createApp } from "../../src/http/app.ts";
import { startReplayHub } from "../../src/replay-hub/index.ts";
import { createToken } from "../../src/services/http/tokens.ts";
import { FAULTED_REPO as A, healthyRepos } from "../faults/harness.ts";
import { runProcess } from "../helpers/cli-process.ts";
import { freshPgDatabase } from "../helpers/db.ts";

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => {});
});

const hubwatch = (args: string[], env: Record<string, string>) =>
  runProcess(process.execPath, ["bin/hubwatch.js", ...args], {
    env: { LOG_LEVEL: "error", REDIS_URL: "", ...env },
  });

describe("failed revisions", () => {
  it("bad upstream data fails a revision; ls shows it with the reason (CLI and API); fixed upstream, retry processes it", async () => {
    const repos = healthyRepos(1);
    const hub = await startReplayHub({ repos });
    cleanups.push(() => hub.close());
    const db = await freshPgDatabase({ poolSize: 2 });
    cleanups.push(() => db.close());
    const env = { DATABASE_URL: db.url, HF_ENDPOINT: hub.url };
    const sql = new pg.Client({ connectionString: db.url });
    await sql.connect();
    cleanups.push(() => sql.end());

    hub.setFault({ kind: "safetensors", mode: "truncate", times: 1, repo: A });
    expect((await hubwatch(["watch", "add", A], env)).code).toBe(0);
    const poll = await hubwatch(["poll", "--once"], { ...env, LOG_LEVEL: "info" });
    const { rows: failed } = await sql.query("select sha, error from revisions where status = 'failed'");
    expect(failed).toHaveLength(1);
    const sha = failed[0].sha as string;
    expect(failed[0].error).toMatch(/^bad_header: /);
    // Logs: JSON only, one event a line; one line per revision processed, with its outcome and timing.
    const events = poll.stderr
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const processed = events.filter((e) => e.msg === "revision processed");
    expect(processed.map((e) => e.outcome).sort()).toEqual(["done", "done", "done", "failed"]);
    for (const e of processed) {
      expect(e).toMatchObject({ repo: A, job: "advance-repo", jobId: expect.any(String) });
      expect(e.sha).toMatch(/^[0-9a-f]{40}$/);
      expect(e.total).toEqual(expect.any(Number));
    }
    expect(processed.find((e) => e.outcome === "failed")).toMatchObject({ sha, level: 40 });

    const ls = await hubwatch(["failed", "ls"], env);
    expect(ls.code).toBe(0);
    const [line, ...rest] = ls.stdout.trimEnd().split("\n");
    expect(rest).toEqual([]);
    expect(line!.split("\t").slice(0, 3)).toEqual(["revision", A, sha.slice(0, 12)]);
    expect(line).toMatch(/\tbad_header: /);

    const app = await createApp({ db: db.db, rateLimit: false, enqueue: async () => {} });
    cleanups.push(() => app.close());
    const { token } = await createToken(db.db, "ops-test");
    const auth = { authorization: `Bearer ${token}` };
    expect((await app.inject({ method: "GET", url: "/api/failed" })).statusCode).toBe(401);
    const listed = await app.inject({ method: "GET", url: `/api/failed?repo=${A}`, headers: auth });
    expect(listed.json()).toMatchObject({ revisions: [{ repo: A, sha, error: failed[0].error }], jobs: [] });
    const bad = await app.inject({
      method: "POST",
      url: "/api/failed/retry",
      headers: auth,
      payload: { repo: "x';--" },
    });
    expect(bad.statusCode).toBe(400);

    // The fault was used up: the Hub now serves the header whole, as after an upstream fix.
    expect((await hubwatch(["failed", "retry"], env)).code).toBe(2); // REPO or --all, never neither
    const retry = await hubwatch(["failed", "retry", A], env);
    expect(retry.code).toBe(0);
    expect(retry.stdout).toMatch(
      /^requeued 1 failed revision\(s\) and 0 failed job\(s\)\n {2}synthetic\/model-00000: 1 revision\(s\)\n/,
    );
    expect((await sql.query("select status from revisions where sha = $1", [sha])).rows[0].status).toBe(
      "pending",
    );
    expect((await hubwatch(["poll", "--once"], env)).code).toBe(0);
    expect((await sql.query("select status, error from revisions where sha = $1", [sha])).rows[0]).toEqual({
      status: "done",
      error: null,
    });
    expect((await hubwatch(["failed", "ls"], env)).stdout).toBe("nothing failed\n");
    const again = await app.inject({
      method: "POST",
      url: "/api/failed/retry",
      headers: auth,
      payload: { all: true },
    });
    expect(again.json()).toEqual({ revisions: [], jobs: 0 });
  }, 240_000);
});

/**
 * A distributed process whose PostgreSQL or Redis is unreachable at start: it retries within
 * HUBWATCH_START_TIMEOUT_S, then exits 1 with one line naming the dependency (a container's restart
 * policy takes it from there). A malformed URL is refused at once. Each runs the real CLI process.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { freePort } from "../faults/processes.ts";
import { runProcess } from "../helpers/cli-process.ts";
import { freshPgDatabase, type PgTestDatabase } from "../helpers/db.ts";

const hubwatch = (args: string[], env: Record<string, string>) =>
  runProcess(process.execPath, ["bin/hubwatch.js", ...args], {
    env: { LOG_LEVEL: "error", HUBWATCH_START_TIMEOUT_S: "2", ...env },
  });

describe("dependencies at start", () => {
  let db: PgTestDatabase;
  beforeAll(async () => {
    db = await freshPgDatabase();
  });
  afterAll(async () => {
    await db.close();
  });

  it("worker: PostgreSQL unreachable for the whole window exits 1 with one line naming it", async () => {
    const port = await freePort();
    const run = await hubwatch(["worker"], {
      DATABASE_URL: `postgres://hubwatch:secret@127.0.0.1:${port}/hubwatch`,
      REDIS_URL: inject("redisUrl"),
    });
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split("\n")).toEqual([
      `hubwatch: PostgreSQL at 127.0.0.1:${port} unreachable for 2 s (ECONNREFUSED); is it running, and is the URL right?`,
    ]);
    expect(run.stderr).not.toContain("secret");
  }, 60_000);

  it("scheduler: Redis unreachable for the whole window exits 1 with one line naming it", async () => {
    const port = await freePort();
    const run = await hubwatch(["scheduler"], {
      DATABASE_URL: db.url,
      REDIS_URL: `redis://127.0.0.1:${port}`,
    });
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split("\n")).toEqual([
      `hubwatch: Redis at 127.0.0.1:${port} unreachable for 2 s (ECONNREFUSED); is it running, and is the URL right?`,
    ]);
  }, 60_000);

  it("a database that does not exist is refused at once, without waiting out the window", async () => {
    const url = new URL(db.url);
    url.pathname = "/no_such_database_here";
    const run = await hubwatch(["worker"], {
      DATABASE_URL: url.toString(),
      REDIS_URL: inject("redisUrl"),
      HUBWATCH_START_TIMEOUT_S: "600",
    });
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toMatch(
      /^hubwatch: PostgreSQL at 127\.0\.0\.1:5432 refused us \(database "no_such_database_here" does not exist\); check the URL$/,
    );
  }, 60_000);

  it("a malformed URL is refused before anything starts, naming the variable", async () => {
    const run = await hubwatch(["worker"], { DATABASE_URL: "localhost:5432/hubwatch", REDIS_URL: "6379" });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("DATABASE_URL: expected a postgres:// or postgresql:// URL");
    expect(run.stderr).toContain("REDIS_URL: expected a redis:// or rediss:// URL");
  }, 60_000);
});

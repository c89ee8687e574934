import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { schema } from "../../src/db/index.ts";
import { freshPgDatabase, type PgTestDatabase } from "../helpers/db.ts";

// The `hubwatch` command as a user runs it: `watch add --from-scan` and the scan's exit codes.

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const TREE = fileURLToPath(new URL("../fixtures/scan/tree/", import.meta.url));

function hubwatch(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", "src/cli/main.ts", ...args],
      { cwd: ROOT, env: { ...process.env, LOG_LEVEL: "silent", ...env }, timeout: 120_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, out: stdout, err: stderr }),
    );
  });
}

describe("hubwatch CLI: scan and watch --from-scan", () => {
  let db: PgTestDatabase;
  beforeAll(async () => {
    db = await freshPgDatabase();
  });
  afterAll(async () => {
    await db?.close();
  });

  it("watches every repo a scan finds", async () => {
    const r = await hubwatch(["watch", "add", "acme/extra", "--from-scan", TREE], { DATABASE_URL: db.url });
    expect(r.code, r.err).toBe(0);
    const watched = (await db.db.select({ name: schema.repos.name }).from(schema.repos))
      .map((x) => x.name)
      .sort();
    expect(watched).toContain("acme/extra");
    expect(watched).toContain("Qwen/Qwen3-8B");
    expect(watched).toContain("meta-llama/Llama-3.1-8B");
    expect(watched).not.toContain("HuggingFaceFW/fineweb-edu");
    expect(watched).toHaveLength(37);
    expect(r.out).toContain("watching Qwen/Qwen3-8B\n");
  }, 120_000);

  it("scans the watched store offline, and exits 2 on a usage error", async () => {
    const r = await hubwatch(["scan", TREE, "--offline", "--format", "json"], { DATABASE_URL: db.url });
    expect(r.code, r.err).toBe(0);
    const report = JSON.parse(r.out) as { summary: { references: number; repos: number } };
    expect(report.summary).toMatchObject({ references: 38, repos: 36 });
    expect((await hubwatch(["scan", "--fail-on", "bogus"], { DATABASE_URL: db.url })).code).toBe(2);
    expect((await hubwatch(["scan", "--write"], { DATABASE_URL: db.url })).code).toBe(2);
  }, 120_000);
});

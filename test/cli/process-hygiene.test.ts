/**
 * The `hubwatch` command as an operator meets it: a version flag, quiet EPIPE, a busy port that ends
 * `serve` at once with one line, and a `migrate` that says what it did. Each runs the real CLI process.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliRun, ROOT, runProcess } from "../helpers/cli-process.ts";

const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;

function hubwatch(args: string[], env: Record<string, string> = {}, pipeTo?: string): Promise<CliRun> {
  const defaults = { LOG_LEVEL: "warn", DATABASE_URL: "", REDIS_URL: "", ...env };
  return pipeTo
    ? runProcess(
        "bash",
        ["-o", "pipefail", "-c", `"${process.execPath}" bin/hubwatch.js ${args.join(" ")} | ${pipeTo}`],
        { env: defaults },
      )
    : runProcess(process.execPath, ["bin/hubwatch.js", ...args], { env: defaults });
}

describe("hubwatch as a process", () => {
  let dataDir: string;
  let blocker: Server;
  let busyPort: number;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "hubwatch-cli-"));
    blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, "127.0.0.1", r));
    busyPort = (blocker.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise((r) => blocker.close(r));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("prints its version", async () => {
    const run = await hubwatch(["--version"]);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe(VERSION);
  }, 60_000);

  it("serve on a busy port exits non-zero within 5 s of starting, with one line naming the address", async () => {
    // The process's own start (node + tsx) is measured apart, so a loaded machine does not fail the test.
    const start = await hubwatch(["--version"]);
    const run = await hubwatch(["serve", "--host", "127.0.0.1", "--port", String(busyPort)], {
      HUBWATCH_DATA_DIR: join(dataDir, "busy"),
    });
    expect(run.code).not.toBe(0);
    expect(run.ms - start.ms).toBeLessThan(5_000);
    expect(run.stderr.trim().split("\n")).toEqual([
      `hubwatch: 127.0.0.1:${busyPort} is already in use; stop the other server or pick --port`,
    ]);
  }, 60_000);

  it("migrate says what it applied, then that nothing was left to apply", async () => {
    const env = { HUBWATCH_DATA_DIR: join(dataDir, "migrate") };
    const first = await hubwatch(["migrate"], env);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^hubwatch: applied \d+ migrations?; PGlite in .* is at migration (\d+)\n$/);
    const second = await hubwatch(["migrate"], env);
    expect(second.stdout).toMatch(/^hubwatch: nothing to apply; PGlite in .* is at migration \d+\n$/);
    expect(second.stdout.match(/migration (\d+)/)?.[1]).toBe(first.stdout.match(/migration (\d+)/)?.[1]);
  }, 180_000);

  it("a reader closing the pipe early ends the command quietly (no EPIPE trace)", async () => {
    // Megabytes of JSON into a reader that takes 10 bytes: the writer meets EPIPE.
    const model = "fixtures/models/Qwen__Qwen3-8B";
    const run = await hubwatch(["estimate", model, "--json"], {}, "head -c 10 >/dev/null");
    expect(run.code).toBe(0);
    expect(run.stderr).not.toMatch(/EPIPE|Error/);
  }, 60_000);
});

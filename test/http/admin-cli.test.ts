import { Command } from "commander";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerAdminCommands } from "../../src/cli/admin-commands.ts";
import { loadConfig } from "../../src/config/env.ts";
import { authenticate } from "../../src/services/http/tokens.ts";
import { freshPgDatabase, type PgTestDatabase } from "../helpers/db.ts";

// `hubwatch token create` and `hubwatch hook add|ls|rm` through commander, on a real database.

let db: PgTestDatabase;
beforeAll(async () => {
  db = await freshPgDatabase();
});
afterAll(async () => {
  process.exitCode = undefined;
  await db?.close();
});

async function run(args: string[], env: Record<string, string> = {}): Promise<string> {
  let text = "";
  const program = new Command("hubwatch").exitOverride();
  const config = loadConfig({ DATABASE_URL: db.url, LOG_LEVEL: "silent", ...env });
  registerAdminCommands(program, { config: () => config, out: { write: (s: string) => (text += s) } });
  await program.parseAsync(["node", "hubwatch", ...args]);
  return text;
}

describe("admin CLI", () => {
  it("creates a token shown once that authenticates", async () => {
    const token = (await run(["token", "create", "--name", "ci"])).trim();
    expect(token).toMatch(/^hw_/);
    expect(await authenticate(db.db, `Bearer ${token}`)).toMatchObject({ name: "ci" });
  });
  it("adds, lists and removes hooks; refuses loopback unless allowed", async () => {
    process.exitCode = undefined;
    await run(["hook", "add", "http://127.0.0.1:9/x"]);
    expect(process.exitCode).toBe(2); // refused: loopback
    process.exitCode = undefined;
    const added = await run(
      [
        "hook",
        "add",
        "http://127.0.0.1:9/x",
        "--repo",
        "acme/*",
        "--events",
        "advisory.opened,advisory.closed",
      ],
      {
        HUBWATCH_ALLOW_PRIVATE_WEBHOOKS: "1",
      },
    );
    const id = /^id (\d+)$/m.exec(added)?.[1];
    expect(added).toMatch(/^secret whsec_/m);
    const listed = await run(["hook", "ls"]);
    expect(listed).toContain(`${id}\thttp://127.0.0.1:9/x\tacme/*\tadvisory.opened,advisory.closed\tenabled`);
    await run(["hook", "rm", String(id)]);
    expect(await run(["hook", "ls"])).toBe("");
    expect(process.exitCode ?? 0).toBe(0);
  });
});

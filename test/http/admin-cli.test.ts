import { Command } from "commander";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerAdminCommands } from "../../src/cli/admin-commands.ts";
import { loadConfig } from "../../src/config/env.ts";
import {
  disableSubscription,
  getSubscription,
} from "../../src/repositories/webhook-subscriptions.repository.ts";
import { authenticate } from "../../src/services/http/tokens.ts";
import { freshPgDatabase, type PgTestDatabase } from "../helpers/db.ts";

// `hubwatch token create|ls|revoke` and `hubwatch hook add|ls|rm|enable|rotate-secret` through
// commander, on a real database.

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
    const listed = await run(["token", "ls"]);
    const id = /^(\d+)\tci\t/m.exec(listed)?.[1];
    expect(listed).toMatch(/\tci\t.*\tactive$/m);
    expect(listed).not.toContain(token);
    await run(["token", "revoke", String(id)]);
    expect(await run(["token", "ls"])).toMatch(/\tci\t.*\trevoked \d{4}-/m);
    expect(await authenticate(db.db, `Bearer ${token}`)).toBeNull();
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
        "--kinds",
        "prompt,eos_token",
      ],
      {
        HUBWATCH_ALLOW_PRIVATE_WEBHOOKS: "1",
      },
    );
    const id = /^id (\d+)$/m.exec(added)?.[1];
    expect(added).toMatch(/^secret whsec_/m);
    const listed = await run(["hook", "ls"]);
    expect(listed).toContain(
      `${id}\thttp://127.0.0.1:9/x\tacme/*\tadvisory.opened,advisory.closed\tprompt,eos_token\tenabled`,
    );
    // Re-enable after a 410; rotate the secret: the old one keeps signing beside the new one.
    await disableSubscription(db.db, Number(id), "receiver answered 410 Gone");
    expect(await run(["hook", "ls"])).toMatch(/disabled \(receiver answered 410 Gone\)/);
    expect(await run(["hook", "enable", String(id)])).toBe("enabled\n");
    expect(await run(["hook", "ls"])).toMatch(/\tenabled$/m);
    const before = (await getSubscription(db.db, Number(id)))!.secret;
    const rotated = /^secret (whsec_\S+)$/m.exec(await run(["hook", "rotate-secret", String(id)]))?.[1];
    const after = (await getSubscription(db.db, Number(id)))!;
    expect(after.secret).toBe(rotated);
    expect(after.previousSecret).toBe(before);
    expect(after.previousSecretExpiresAt!.getTime()).toBeGreaterThan(Date.now());
    await run(["hook", "rm", String(id)]);
    expect(await run(["hook", "ls"])).toBe("");
    expect(process.exitCode ?? 0).toBe(0);
  });
});

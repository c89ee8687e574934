import type { Command } from "commander";
import type { Config } from "../config/env.ts";
import type { bootServices } from "../main/boot.ts";
import { createToken, listTokens, revokeToken } from "../services/http/tokens.ts";
import { answered, refused, viaDaemon } from "./daemon-client.ts";
import { action } from "./errors.ts";
import { registerHookCommands } from "./hook-commands.ts";
import { withStore } from "./with-store.ts";

type Ctx = { config: () => Config; out?: { write(s: string): unknown } };
type When = Date | string | null;
type TokenRow = { id: number; name: string; createdAt: When; lastUsedAt: When; revokedAt: When };

/** A date from the store, or as JSON from a daemon, as ISO text. */
const when = (d: When) => (d ? new Date(d).toISOString() : "-");

function tokenLine(t: TokenRow): string {
  const state = t.revokedAt ? `revoked ${when(t.revokedAt)}` : "active";
  return `${t.id}\t${t.name}\t${when(t.createdAt)}\t${when(t.lastUsedAt)}\t${state}\n`;
}

/** `hubwatch token create|ls|revoke` and `hubwatch hook add|ls|rm|enable|rotate-secret|redeliver`. */
export function registerAdminCommands(program: Command, ctx: Ctx): void {
  const out = ctx.out ?? process.stdout;
  const store = <T>(fn: (b: Awaited<ReturnType<typeof bootServices>>) => Promise<T>) =>
    withStore(ctx.config(), fn);
  const token = program.command("token").description("API tokens for the write API");
  token
    .command("create")
    .option("--name <name>", "a label for the token", "cli")
    .description("create a bearer token (printed once; only its sha256 is stored)")
    .action(
      action(async (opts: { name: string }) => {
        const print = (token: unknown) => {
          out.write(`${token}\n`);
          return 0;
        };
        return viaDaemon(
          ctx.config(),
          async (call) => {
            const res = await call("POST", "/api/tokens", { name: opts.name });
            if (res.status !== 201) throw refused(res);
            return print(res.body.token);
          },
          () => store(async (b) => print((await createToken(b.services.db, opts.name)).token)),
        );
      }),
    );
  token
    .command("ls")
    .description("list tokens: id, name, created, last used, revoked")
    .action(
      action(async () => {
        const print = (tokens: TokenRow[]) => {
          for (const t of tokens) out.write(tokenLine(t));
          return 0;
        };
        return viaDaemon(
          ctx.config(),
          async (call) => print((await call("GET", "/api/tokens")).body as unknown as TokenRow[]),
          () => store(async (b) => print(await listTokens(b.services.db))),
        );
      }),
    );
  token
    .command("revoke")
    .argument("<id>", "token id (from `token ls`)")
    .description("revoke a token: it stops authenticating at once")
    .action(
      action(async (id: string) =>
        viaDaemon(
          ctx.config(),
          async (call) => answered(await call("DELETE", `/api/tokens/${encodeURIComponent(id)}`)),
          () => store(async (b) => ((await revokeToken(b.services.db, Number(id))) ? 0 : 1)),
        ),
      ),
    );
  registerHookCommands(program, ctx, out);
}

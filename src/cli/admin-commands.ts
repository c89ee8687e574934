import type { Command } from "commander";
import type { Config } from "../config/env.ts";
import { webhookEventTypes } from "../db/schema/index.ts";
import type { bootServices } from "../main/boot.ts";
import { createToken, listTokens, revokeToken } from "../services/http/tokens.ts";
import {
  createSubscription,
  deleteSubscription,
  enableHook,
  listSubscriptions,
  rotateSecret,
} from "../services/webhooks/subscriptions.ts";
import { refused, viaDaemon } from "./daemon-client.ts";
import { action, UsageError } from "./errors.ts";
import { redeliverCommand } from "./hook-redeliver.ts";
import { withStore } from "./with-store.ts";

type Ctx = { config: () => Config; out?: { write(s: string): unknown } };

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
      action(async () =>
        store(async (b) => {
          for (const t of await listTokens(b.services.db)) {
            const when = (d: Date | null) => d?.toISOString() ?? "-";
            out.write(
              `${t.id}\t${t.name}\t${when(t.createdAt)}\t${when(t.lastUsedAt)}\t${t.revokedAt ? `revoked ${when(t.revokedAt)}` : "active"}\n`,
            );
          }
          return 0;
        }),
      ),
    );
  token
    .command("revoke")
    .argument("<id>", "token id (from `token ls`)")
    .description("revoke a token: it stops authenticating at once")
    .action(
      action(async (id: string) =>
        store(async (b) => ((await revokeToken(b.services.db, Number(id))) ? 0 : 1)),
      ),
    );
  registerHookCommands(program, ctx, out);
}

function registerHookCommands(program: Command, ctx: Ctx, out: { write(s: string): unknown }): void {
  const store = <T>(fn: (b: Awaited<ReturnType<typeof bootServices>>) => Promise<T>) =>
    withStore(ctx.config(), fn);
  const hook = program.command("hook").description("webhook subscriptions");
  hook
    .command("add")
    .argument("<url>", "receiver URL (http or https)")
    .option("--repo <filter>", "OWNER/NAME, or a pattern with * such as OWNER/* (default: every repo)")
    .option("--events <list>", `comma-separated: ${webhookEventTypes.join(",")}`)
    .option("--kinds <list>", "only events about these change kinds, e.g. prompt,eos_token,params_total")
    .description("subscribe a URL; prints the id and the signing secret (shown once)")
    .action(
      action(async (url: string, opts: { repo?: string; events?: string; kinds?: string }) => {
        const list = (v?: string) => v?.split(",").map((e) => e.trim());
        const input = {
          url,
          repoFilter: opts.repo ?? null,
          ...(opts.events ? { events: list(opts.events) as never } : {}),
          ...(opts.kinds ? { kinds: list(opts.kinds) } : {}),
        };
        const print = (s: { id: unknown; secret: unknown }) => {
          out.write(`id ${s.id}\nsecret ${s.secret}\n`);
          return 0;
        };
        return viaDaemon(
          ctx.config(),
          async (call) => {
            const res = await call("POST", "/api/subscriptions", input);
            if (res.status !== 201) throw new UsageError(`cannot add hook: ${refused(res).message}`);
            return print(res.body as { id: unknown; secret: unknown });
          },
          () =>
            store(async (b) => {
              const deps = {
                db: b.services.db,
                allowPrivateTargets: ctx.config().HUBWATCH_ALLOW_PRIVATE_WEBHOOKS,
              };
              try {
                return print(await createSubscription(deps, input));
              } catch (err) {
                throw new UsageError(`cannot add hook: ${(err as Error).message}`);
              }
            }),
        );
      }),
    );
  hook
    .command("ls")
    .description("list subscriptions")
    .action(
      action(async () =>
        store(async (b) => {
          for (const s of await listSubscriptions(b.services.db)) {
            const state = s.enabled ? "enabled" : `disabled (${s.disabledReason ?? ""})`;
            const kinds = s.kinds?.length ? s.kinds.join(",") : "*";
            out.write(
              `${s.id}\t${s.url}\t${s.repoFilter ?? "*"}\t${s.events.join(",")}\t${kinds}\t${state}\n`,
            );
          }
          return 0;
        }),
      ),
    );
  hook
    .command("rm")
    .argument("<id>", "subscription id")
    .description("delete a subscription and its delivery log (attempts in flight are dropped)")
    .action(
      action(async (id: string) =>
        store(async (b) => ((await deleteSubscription(b.services.db, Number(id))) ? 0 : 1)),
      ),
    );
  hook
    .command("enable")
    .argument("<id>", "subscription id")
    .description("re-enable a disabled subscription; deliveries still pending go out again")
    .action(
      action(async (id: string) =>
        store(async (b) => {
          const s = await enableHook(b.services.db, Number(id));
          out.write(s ? "enabled\n" : "no such subscription\n");
          return s ? 0 : 1;
        }),
      ),
    );
  hook
    .command("rotate-secret")
    .argument("<id>", "subscription id")
    .description("new signing secret (printed once); the old one also signs for 24 h")
    .action(
      action(async (id: string) =>
        store(async (b) => {
          const s = await rotateSecret(b.services.db, Number(id));
          out.write(s ? `secret ${s.secret}\n` : "no such subscription\n");
          return s ? 0 : 1;
        }),
      ),
    );
  hook
    .command("redeliver")
    .argument("<id>", "subscription id")
    .argument("<eventId>", "event id (evt_...)")
    .description("deliver an event to a subscription again (same webhook-id)")
    .action(
      action(async (id: string, eventId: string) => redeliverCommand(ctx.config(), Number(id), eventId, out)),
    );
}

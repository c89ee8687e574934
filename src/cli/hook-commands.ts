import type { Command } from "commander";
import type { Config } from "../config/env.ts";
import { webhookEventTypes } from "../db/schema/index.ts";
import type { bootServices } from "../main/boot.ts";
import {
  createSubscription,
  deleteSubscription,
  enableHook,
  listSubscriptions,
  rotateSecret,
} from "../services/webhooks/subscriptions.ts";
import { answered, type DaemonCall, refused, viaDaemon } from "./daemon-client.ts";
import { action, UsageError } from "./errors.ts";
import { redeliverCommand } from "./hook-redeliver.ts";
import { withStore } from "./with-store.ts";

type Ctx = { config: () => Config };
type Out = { write(s: string): unknown };
type SubscriptionRow = {
  id: number;
  url: string;
  repoFilter: string | null;
  events: string[];
  kinds: string[] | null;
  enabled: boolean;
  disabledReason: string | null;
};

function subscriptionLine(s: SubscriptionRow): string {
  const state = s.enabled ? "enabled" : `disabled (${s.disabledReason ?? ""})`;
  const kinds = s.kinds?.length ? s.kinds.join(",") : "*";
  return `${s.id}\t${s.url}\t${s.repoFilter ?? "*"}\t${s.events.join(",")}\t${kinds}\t${state}\n`;
}

/** `hubwatch hook ...`: through the running daemon's write API when one holds the store (embedded mode). */
export function registerHookCommands(program: Command, ctx: Ctx, out: Out): void {
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
      action(async () => {
        const print = (subs: SubscriptionRow[]) => {
          for (const sub of subs) out.write(subscriptionLine(sub));
          return 0;
        };
        return viaDaemon(
          ctx.config(),
          async (call) =>
            print((await call("GET", "/api/subscriptions")).body as unknown as SubscriptionRow[]),
          () => store(async (b) => print(await listSubscriptions(b.services.db))),
        );
      }),
    );
  hook
    .command("rm")
    .argument("<id>", "subscription id")
    .description("delete a subscription and its delivery log (attempts in flight are dropped)")
    .action(
      action(async (id: string) =>
        viaDaemon(
          ctx.config(),
          async (call) => answered(await call("DELETE", `/api/subscriptions/${encodeURIComponent(id)}`)),
          () => store(async (b) => ((await deleteSubscription(b.services.db, Number(id))) ? 0 : 1)),
        ),
      ),
    );
  const change = (verb: "enable" | "rotate-secret", print: (s: { secret?: unknown }) => string) =>
    action(async (id: string) => {
      const remote = async (call: DaemonCall) => {
        const res = await call("POST", `/api/subscriptions/${encodeURIComponent(id)}/${verb}`);
        out.write(res.status === 404 ? "no such subscription\n" : print(res.body));
        return answered(res);
      };
      const local = () =>
        store(async (b) => {
          const n = Number(id);
          const s =
            verb === "enable" ? await enableHook(b.services.db, n) : await rotateSecret(b.services.db, n);
          out.write(s ? print(s) : "no such subscription\n");
          return s ? 0 : 1;
        });
      return viaDaemon(ctx.config(), remote, local);
    });
  hook
    .command("enable")
    .argument("<id>", "subscription id")
    .description("re-enable a disabled subscription; deliveries still pending go out again")
    .action(change("enable", () => "enabled\n"));
  hook
    .command("rotate-secret")
    .argument("<id>", "subscription id")
    .description("new signing secret (printed once); the old one also signs for 24 h")
    .action(change("rotate-secret", (s) => `secret ${s.secret}\n`));
  hook
    .command("redeliver")
    .argument("<id>", "subscription id")
    .argument("<eventId>", "event id (evt_...)")
    .description("deliver an event to a subscription again (same webhook-id)")
    .action(
      action(async (id: string, eventId: string) => redeliverCommand(ctx.config(), Number(id), eventId, out)),
    );
}

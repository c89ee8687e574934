import type { Command } from "commander";
import type { Config } from "../config/env.ts";
import { webhookEventTypes } from "../db/schema/index.ts";
import { bootServices, isDistributed } from "../main/boot.ts";
import { distributedRunner } from "../main/runners.ts";
import { createToken } from "../services/http/tokens.ts";
import { deliverWebhookAttempt } from "../services/webhooks/deliver-attempt.ts";
import {
  createSubscription,
  deleteSubscription,
  listSubscriptions,
  redeliver,
} from "../services/webhooks/subscriptions.ts";
import { action, UsageError } from "./errors.ts";

type Ctx = { config: () => Config; out?: { write(s: string): unknown } };

async function withStore<T>(config: Config, fn: (s: Awaited<ReturnType<typeof bootServices>>) => Promise<T>) {
  const booted = await bootServices(config);
  try {
    return await fn(booted);
  } finally {
    await booted.close();
  }
}

/** `hubwatch token create` and `hubwatch hook add|ls|rm|redeliver`. */
export function registerAdminCommands(program: Command, ctx: Ctx): void {
  const out = ctx.out ?? process.stdout;
  program
    .command("token")
    .description("API tokens for the write API")
    .command("create")
    .option("--name <name>", "a label for the token", "cli")
    .description("create a bearer token (printed once; only its sha256 is stored)")
    .action(
      action(async (opts: { name: string }) =>
        withStore(ctx.config(), async (b) => {
          const { token } = await createToken(b.services.db, opts.name);
          out.write(`${token}\n`);
          return 0;
        }),
      ),
    );
  const hook = program.command("hook").description("webhook subscriptions");
  hook
    .command("add")
    .argument("<url>", "receiver URL (http or https)")
    .option("--repo <filter>", "OWNER/NAME or OWNER/* (default: every repo)")
    .option("--events <list>", `comma-separated: ${webhookEventTypes.join(",")}`)
    .description("subscribe a URL; prints the id and the signing secret (shown once)")
    .action(
      action(async (url: string, opts: { repo?: string; events?: string }) =>
        withStore(ctx.config(), async (b) => {
          const events = opts.events ? { events: opts.events.split(",").map((e) => e.trim()) as never } : {};
          try {
            const s = await createSubscription(
              { db: b.services.db, allowPrivateTargets: ctx.config().HUBWATCH_ALLOW_PRIVATE_WEBHOOKS },
              { url, repoFilter: opts.repo ?? null, ...events },
            );
            out.write(`id ${s.id}\nsecret ${s.secret}\n`);
            return 0;
          } catch (err) {
            throw new UsageError(`cannot add hook: ${(err as Error).message}`);
          }
        }),
      ),
    );
  hook
    .command("ls")
    .description("list subscriptions")
    .action(
      action(async () =>
        withStore(ctx.config(), async (b) => {
          for (const s of await listSubscriptions(b.services.db)) {
            const state = s.enabled ? "enabled" : `disabled (${s.disabledReason ?? ""})`;
            out.write(`${s.id}\t${s.url}\t${s.repoFilter ?? "*"}\t${s.events.join(",")}\t${state}\n`);
          }
          return 0;
        }),
      ),
    );
  hook
    .command("rm")
    .argument("<id>", "subscription id")
    .description("delete a subscription and its delivery log")
    .action(
      action(async (id: string) =>
        withStore(ctx.config(), async (b) => ((await deleteSubscription(b.services.db, Number(id))) ? 0 : 1)),
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

/** Distributed: queues the attempt for the workers. Embedded: makes one attempt now and prints the outcome. */
async function redeliverCommand(
  config: Config,
  id: number,
  eventId: string,
  out: { write(s: string): unknown },
) {
  return withStore(config, async (b) => {
    const base = {
      db: b.services.db,
      allowPrivateTargets: config.HUBWATCH_ALLOW_PRIVATE_WEBHOOKS,
      log: b.services.log,
    };
    if (isDistributed(config)) {
      const runner = distributedRunner(config, b.services);
      const ok = await redeliver({ ...base, enqueue: runner.enqueue }, id, eventId);
      await runner.close();
      out.write(ok ? "queued\n" : "no such delivery\n");
      return ok ? 0 : 1;
    }
    const ok = await redeliver({ ...base, enqueue: async () => {} }, id, eventId);
    if (!ok) {
      out.write("no such delivery\n");
      return 1;
    }
    const outcome = await deliverWebhookAttempt(
      { ...base, enqueue: async () => {} },
      { subscriptionId: id, eventId },
    );
    out.write(`${outcome}\n`);
    return outcome === "delivered" ? 0 : 1;
  });
}

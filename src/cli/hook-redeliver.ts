import type { Config } from "../config/env.ts";
import { isDistributed } from "../main/boot.ts";
import { distributedRunner } from "../main/runners.ts";
import { runDeliveryLane } from "../services/webhooks/lane.ts";
import { redeliver } from "../services/webhooks/subscriptions.ts";
import { refused, viaDaemon } from "./daemon-client.ts";
import { withStore } from "./with-store.ts";

/**
 * Distributed: queues the subscription's lane for the workers. Embedded: the running daemon queues it
 * (through its API), else this process runs the lane now and prints the outcome.
 */
export async function redeliverCommand(
  config: Config,
  id: number,
  eventId: string,
  out: { write(s: string): unknown },
) {
  const path = `/api/subscriptions/${id}/deliveries/${encodeURIComponent(eventId)}/redeliver`;
  return viaDaemon(
    config,
    async (call) => {
      const res = await call("POST", path);
      if (res.status === 400) throw refused(res);
      out.write(res.status === 202 ? "queued\n" : `${refused(res).message}\n`);
      return res.status === 202 ? 0 : 1;
    },
    () => redeliverHere(config, id, eventId, out),
  );
}

function redeliverHere(config: Config, id: number, eventId: string, out: { write(s: string): unknown }) {
  return withStore(config, async (b) => {
    const r = await redeliver(b.services.db, id, eventId);
    if (!r.ok) {
      out.write(r.reason === "disabled" ? `subscription disabled: ${r.detail}\n` : "no such delivery\n");
      return 1;
    }
    if (isDistributed(config)) {
      const runner = distributedRunner(config, b.services);
      await runner.enqueue("deliver-webhook", { subscriptionId: id });
      await runner.close();
      out.write("queued\n");
      return 0;
    }
    const deps = {
      db: b.services.db,
      allowPrivateTargets: config.HUBWATCH_ALLOW_PRIVATE_WEBHOOKS,
      log: b.services.log,
    };
    const run = await runDeliveryLane(deps, id);
    const outcome = run.outcomes.at(-1) ?? "skipped";
    out.write(`${outcome}\n`);
    return outcome === "delivered" ? 0 : 1;
  });
}

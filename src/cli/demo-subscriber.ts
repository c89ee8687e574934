import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import type { Db } from "../db/types.ts";
import { createSubscription } from "../services/webhooks/subscriptions.ts";

/** What the demo's subscriber received: each event once (by webhook-id), verified with its secret. */
export type Received = { id: string; type: string; data: Record<string, unknown> };

export type DemoSubscriber = {
  received: Received[];
  /** Requests that repeated a webhook-id already acted on, and requests that failed verification. */
  duplicates: number;
  unverified: number;
  close(): Promise<void>;
};

/**
 * A local webhook receiver as a subscriber writes one (verify with `standardwebhooks`, act once per
 * `webhook-id`), subscribed to every event type, so the demo shows what a subscriber gets.
 */
export async function startDemoSubscriber(db: Db): Promise<DemoSubscriber> {
  let secret = "";
  const sub: DemoSubscriber = { received: [], duplicates: 0, unverified: 0, close: async () => {} };
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      try {
        const msg = new Webhook(secret).verify(body, req.headers as Record<string, string>) as Received;
        const id = String(req.headers["webhook-id"]);
        if (sub.received.some((r) => r.id === id)) sub.duplicates++;
        else sub.received.push({ id, type: msg.type, data: msg.data });
        res.writeHead(204).end();
      } catch {
        sub.unverified++;
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  secret = (await createSubscription({ db, allowPrivateTargets: true }, { url })).secret;
  sub.close = () => new Promise((done) => server.close(() => done()));
  return sub;
}

/** Summary lines: counts by event type, then each advisory event and each behaviour-changing revision. */
export function formatReceived(sub: DemoSubscriber): string[] {
  const byType: Record<string, number> = {};
  for (const r of sub.received) byType[r.type] = (byType[r.type] ?? 0) + 1;
  const counts = Object.entries(byType)
    .sort()
    .map(([k, v]) => `${k} ${v}`)
    .join(", ");
  const lines = [
    `webhooks     ${sub.received.length} event(s) received by a local subscriber, each once, signature verified (${counts}); ${sub.duplicates} duplicate(s), ${sub.unverified} unverified`,
  ];
  for (const r of sub.received) {
    const d = r.data;
    if (r.type.startsWith("advisory.")) {
      const full = (d.record as { summary?: string } | undefined)?.summary ?? "";
      const summary = full.startsWith(`${d.repo}: `) ? full.slice(String(d.repo).length + 2) : full;
      const reason = typeof d.reason === "string" ? ` (${d.reason})` : "";
      lines.push(`  ${r.type.padEnd(17)}${d.id}${reason} ${d.repo}: ${summary}`);
    } else if (r.type === "base.changed") {
      lines.push(`  ${r.type.padEnd(17)}${d.adapter}: ${d.summary}`);
    } else if (r.type === "revision.changed" && Array.isArray(d.kinds) && d.kinds.length > 0) {
      lines.push(`  ${r.type.padEnd(17)}${d.repo}@${String(d.sha).slice(0, 8)} [${d.kinds.join(",")}]`);
    }
  }
  return lines;
}
